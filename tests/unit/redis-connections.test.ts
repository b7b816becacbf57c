import { describe, expect, it } from 'vitest';
import { reply, type Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { Simulation } from '../../src/engine/simulation';
import { testScenario } from './support/test-scenario';

/**
 * Connections on the simulated server: what `execute` answers and what `takePushes` hands the
 * engine, how MULTI and subscriptions interact with a slow script, and that all of it is part of
 * snapshot/restore as plain, deterministic data. The replies themselves are proved against a real
 * redis-server in tests/differential (transactions, pubsub).
 */
const run = (s: SimRedisServer, connection: string, line: string, nowMs = 0): Reply => s.execute(line.split(' '), nowMs, connection);
const bulks = (...values: string[]): Reply => reply.array(values.map((v) => reply.bulk(v)));
const confirmation = (kind: string, name: string, count: number): Reply => reply.array([reply.bulk(kind), reply.bulk(name), reply.integer(count)]);

describe('pushes', () => {
  it('SUBSCRIBE answers its first confirmation; the others follow as pushes to the same connection', () => {
    const s = new SimRedisServer();
    expect(run(s, 'sub', 'SUBSCRIBE a b')).toEqual(confirmation('subscribe', 'a', 1));
    expect(s.takePushes()).toEqual([{ connectionId: 'sub', reply: confirmation('subscribe', 'b', 2) }]);
    expect(s.takePushes()).toEqual([]);
  });

  it('PUBLISH answers the receiver count and queues one message per subscription, in subscription order', () => {
    const s = new SimRedisServer();
    run(s, 'second', 'SUBSCRIBE news');
    run(s, 'first', 'SUBSCRIBE news');
    run(s, 'first', 'PSUBSCRIBE n*');
    s.takePushes();
    expect(run(s, 'pub', 'PUBLISH news hi')).toEqual(reply.integer(3));
    expect(s.takePushes()).toEqual([
      { connectionId: 'second', reply: bulks('message', 'news', 'hi') },
      { connectionId: 'first', reply: bulks('message', 'news', 'hi') },
      { connectionId: 'first', reply: bulks('pmessage', 'n*', 'news', 'hi') },
    ]);
  });

  it("a script's redis.call('publish') delivers too", () => {
    const s = new SimRedisServer();
    run(s, 'waiter', 'SUBSCRIBE unlocked');
    s.takePushes();
    const result = s.execute(['EVAL', "return redis.call('publish', KEYS[1], ARGV[1])", '1', 'unlocked', 'go'], 0, 'holder');
    expect(result).toEqual(reply.integer(1));
    expect(s.takePushes()).toEqual([{ connectionId: 'waiter', reply: bulks('message', 'unlocked', 'go') }]);
  });

  it('connections are separate: one in MULTI or subscribed does not change another', () => {
    const s = new SimRedisServer();
    run(s, 'a', 'MULTI');
    run(s, 'b', 'SUBSCRIBE c');
    expect(run(s, 'a', 'SET k 1')).toEqual(reply.status('QUEUED'));
    expect(run(s, 'default', 'GET k')).toEqual(reply.nil());
    expect(run(s, 'b', 'GET k')).toEqual(reply.error("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context"));
    expect(run(s, 'a', 'EXEC')).toEqual(reply.array([reply.ok()]));
    expect(s.execute(['GET', 'k'], 0)).toEqual(reply.bulk('1'));
  });

  it('QUIT drops a connection: its subscriptions, queue and watches go', () => {
    const s = new SimRedisServer();
    run(s, 'sub', 'SUBSCRIBE c');
    expect(run(s, 'sub', 'QUIT')).toEqual(reply.ok());
    expect(run(s, 'pub', 'PUBLISH c x')).toEqual(reply.integer(0));
    expect(run(s, 'sub', 'GET k')).toEqual(reply.nil());
    expect(s.snapshot().clients).toBeUndefined();
  });
});

describe('transactions and a slow script (busy.ts)', () => {
  // 1 µs per instruction and a 100 ms threshold: the loop occupies the server for ~300 ms.
  const timing = { nsPerInstruction: 1_000, busyReplyThresholdMs: 100 };
  const SLOW = 'local x = 0 for i = 1, 100000 do x = x + i end return x';
  const BUSY = 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.';

  it('MULTI is allowed while busy; a command refused with BUSY dooms the transaction', () => {
    const s = new SimRedisServer({ scriptTiming: timing });
    s.execute(['EVAL', SLOW, '0'], 0, 'slow');
    expect(run(s, 'a', 'MULTI', 150)).toEqual(reply.ok());
    expect(run(s, 'a', 'INCR n', 150)).toEqual(reply.error(BUSY));
    const endMs = s.scriptBusy.last()?.endMs ?? 0;
    expect(run(s, 'a', 'EXEC', endMs)).toEqual(reply.error('EXECABORT Transaction discarded because of previous errors.'));
    expect(run(s, 'a', 'GET n', endMs)).toEqual(reply.nil());
  });

  it('EXEC refused with BUSY discards the transaction with the reason', () => {
    const s = new SimRedisServer({ scriptTiming: timing });
    run(s, 'a', 'MULTI');
    run(s, 'a', 'INCR n');
    s.execute(['EVAL', SLOW, '0'], 0, 'slow');
    expect(run(s, 'a', 'EXEC', 150)).toEqual(reply.error(`EXECABORT Transaction discarded because of: ${BUSY}`));
    const endMs = s.scriptBusy.last()?.endMs ?? 0;
    expect(run(s, 'a', 'PING x', endMs)).toEqual(reply.bulk('x'));
    expect(run(s, 'a', 'GET n', endMs)).toEqual(reply.nil());
  });
});

describe('connection state in snapshots', () => {
  it('a server without connection state snapshots exactly as before (no clients, pubsub or pushes fields)', () => {
    const s = new SimRedisServer();
    run(s, 'a', 'SET k v');
    run(s, 'a', 'MULTI');
    run(s, 'a', 'DISCARD');
    expect(Object.keys(s.snapshot()).sort()).toEqual(['keyspace', 'runningScript', 'scriptRandomState', 'scripts']);
  });

  it('carries MULTI queues, watches, subscriptions and pending pushes through restore', () => {
    const s = new SimRedisServer();
    run(s, 'a', 'SET stock 1');
    run(s, 'a', 'WATCH stock');
    run(s, 'a', 'MULTI');
    run(s, 'a', 'DECR stock');
    run(s, 'sub', 'SUBSCRIBE sold');
    run(s, 'sub', 'PSUBSCRIBE s*');
    run(s, 'b', 'PUBLISH sold 1');
    const snapshot = JSON.parse(JSON.stringify(s.snapshot()));
    expect(snapshot.clients).toEqual([
      { id: 'a', multi: [['DECR', 'stock']], watched: ['stock'] },
      { id: 'sub', channels: ['sold'], patterns: ['s*'] },
    ]);
    const copy = new SimRedisServer();
    copy.restore(snapshot);
    expect(copy.takePushes()).toEqual(s.takePushes());
    // The watch survived: a change from another connection makes EXEC answer nil.
    run(copy, 'b', 'SET stock 5');
    expect(run(copy, 'a', 'EXEC')).toEqual(reply.nil());
    expect(run(copy, 'b', 'PUBLISH sold 2')).toEqual(reply.integer(2));
  });

  it('equal states give byte-identical JSON whatever the order connections were used in', () => {
    const a = new SimRedisServer();
    const b = new SimRedisServer();
    run(a, 'x', 'SUBSCRIBE c');
    run(a, 'y', 'WATCH k');
    run(b, 'y', 'WATCH k');
    run(b, 'x', 'SUBSCRIBE c');
    a.takePushes();
    b.takePushes();
    expect(JSON.stringify(a.snapshot())).toBe(JSON.stringify(b.snapshot()));
  });
});

describe('the virtual epoch', () => {
  it('is configurable: TIME and EXPIRETIME follow it, PTTL does not depend on it', () => {
    const s = new SimRedisServer({ unixEpochMs: 1_000_000_000_000 });
    expect(s.execute(['TIME'], 2_500)).toEqual(bulks('1000000002', '500000'));
    s.execute(['SET', 'k', 'v', 'PX', '10000'], 2_500);
    expect(s.execute(['PEXPIRETIME', 'k'], 2_500)).toEqual(reply.integer(1_000_000_012_500));
    expect(s.execute(['PTTL', 'k'], 2_500)).toEqual(reply.integer(10_000));
    // The keyspace keeps the virtual time: the inspector shows t from 0.
    expect(s.inspect(2_500)[0].expireAtMs).toBe(12_500);
  });

  it('SET PXAT 1 expires at once, as on a real server', () => {
    const s = new SimRedisServer();
    expect(s.execute(['SET', 'k', 'v', 'PXAT', '1'], 0)).toEqual(reply.ok());
    expect(s.execute(['GET', 'k'], 0)).toEqual(reply.nil());
  });
});

describe('a scenario sets the epoch', () => {
  it('Scenario.unixEpochMs reaches the server: TIME answers it at virtual time 0', () => {
    const scenario = { ...testScenario([]), unixEpochMs: 1_600_000_000_000 };
    const sim = new Simulation(scenario);
    expect(sim.executeOutside(['TIME'])).toEqual(bulks('1600000000', '0'));
  });
});
