import { describe, expect, it } from 'vitest';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';

// Goal: SPOP and SRANDMEMBER draw from the server's seeded stream, so a seed replays its picks
// exactly (also from a snapshot), and a server that never draws snapshots as it always did.

const MEMBERS = Array.from({ length: 20 }, (_, i) => `m${i}`);

function draws(server: SimRedisServer): Reply[] {
  return [
    server.execute(['SRANDMEMBER', 's'], 0),
    server.execute(['SRANDMEMBER', 's', '3'], 0),
    server.execute(['SRANDMEMBER', 's', '-4'], 0),
    server.execute(['SPOP', 's'], 0),
    server.execute(['SPOP', 's', '5'], 0),
  ];
}

function seeded(seed: number): SimRedisServer {
  const server = new SimRedisServer({ randomSeed: seed });
  server.execute(['SADD', 's', ...MEMBERS], 0);
  return server;
}

describe('seeded random set members', () => {
  it('seed 7: the same seed draws the same members', () => {
    expect(draws(seeded(7))).toEqual(draws(seeded(7)));
  });

  it('seeds 1-5 do not all draw the same members', () => {
    const texts = new Set([1, 2, 3, 4, 5].map((seed) => JSON.stringify(draws(seeded(seed)))));
    expect(texts.size).toBeGreaterThan(1);
  });

  it('seed 3: a restored snapshot draws what the original drew next', () => {
    const server = seeded(3);
    server.execute(['SPOP', 's'], 0);
    const snapshot = server.snapshot();
    expect(snapshot.randomState).toBeTypeOf('number');
    const first = draws(server);
    server.restore(snapshot);
    expect(draws(server)).toEqual(first);
  });

  it('a server that never draws has no random state in its snapshot', () => {
    const server = seeded(1);
    server.execute(['SMEMBERS', 's'], 0);
    expect('randomState' in server.snapshot()).toBe(false);
  });

  it('SPOP with a count answers distinct members and removes them', () => {
    const server = seeded(11);
    const popped = server.execute(['SPOP', 's', '6'], 0);
    if (popped.type !== 'array') throw new Error('SPOP answered no array');
    const names = popped.value.map((r) => (r.type === 'bulk' ? r.value : ''));
    expect(new Set(names).size).toBe(6);
    expect(server.execute(['SCARD', 's'], 0)).toEqual({ type: 'integer', value: '14' });
    for (const name of names) expect(server.execute(['SISMEMBER', 's', name], 0)).toEqual({ type: 'integer', value: '0' });
  });
});
