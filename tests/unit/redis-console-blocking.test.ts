// Goal: in the console a blocking pop blocks its connection: another connection's push serves it
// (shown labelled with the waiting connection), `.advance` past its timeout ends it with nil, and
// the blocked connection refuses further commands meanwhile.
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../src/engine/redis/console';
import { SimRedisServer } from '../../src/engine/redis/server';

describe('console blocking pops', () => {
  it('a push from another connection serves the waiting one', () => {
    const session = new ConsoleSession({ server: new SimRedisServer(), startMs: 0 });
    expect(session.runLine('BLPOP jobs 0').text).toContain('(blocked for ever');
    expect(session.runLine('GET x').text).toContain('waits in a blocking pop');
    const pushed = session.runLine('.as producer RPUSH jobs j1').text;
    expect(pushed).toContain('[console] 1) "jobs"');
    expect(pushed).toContain('"j1"');
    expect(session.runLine('LLEN jobs').text).toBe('(integer) 0');
  });

  it('.advance past the timeout ends the wait with nil', () => {
    const session = new ConsoleSession({ server: new SimRedisServer(), startMs: 0 });
    expect(session.runLine('BRPOP jobs 1.5').text).toContain('until 1500 ms');
    expect(session.runLine('.advance 1000').text).not.toContain('nil');
    expect(session.runLine('.advance 500').text).toContain('(nil)');
    expect(session.runLine('RPUSH jobs a').text).toBe('(integer) 1');
  });
});
