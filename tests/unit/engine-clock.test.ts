// Goal: the virtual clock alone drives Redis expiry, exactly at Redis 7's boundary
// (a key with expiry time `when` exists while now <= when), and only the simulation moves it.
import { describe, expect, it } from 'vitest';
import { SimRedisServer } from '../../src/engine/redis/server';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';
import { Simulation } from '../../src/engine/simulation';
import { testScenario } from './support/test-scenario';

describe('expiry on the virtual clock', () => {
  it('a key set with PX 5000 at t is visible through t+5000 and gone at t+5001', () => {
    const server = new SimRedisServer();
    const t = 1234;
    expect(server.execute(['SET', 'lock', 'tok', 'NX', 'PX', '5000'], t)).toEqual({ type: 'status', value: 'OK' });
    expect(server.execute(['GET', 'lock'], t + 4999)).toEqual({ type: 'bulk', value: 'tok' });
    expect(server.execute(['PTTL', 'lock'], t + 4999)).toEqual({ type: 'integer', value: '1' });
    expect(server.execute(['GET', 'lock'], t + 5000)).toEqual({ type: 'bulk', value: 'tok' });
    expect(server.execute(['PTTL', 'lock'], t + 5000)).toEqual({ type: 'integer', value: '0' });
    expect(server.execute(['GET', 'lock'], t + 5001)).toEqual({ type: 'nil' });
    expect(server.execute(['PTTL', 'lock'], t + 5001)).toEqual({ type: 'integer', value: '-2' });
    // Once expired, SET NX succeeds for the next client.
    expect(server.execute(['SET', 'lock', 'other', 'NX', 'PX', '5000'], t + 5001)).toEqual({ type: 'status', value: 'OK' });
  });

  it('wall-clock time never leaks in: a key set at virtual time 0 survives however long the test takes', () => {
    const server = new SimRedisServer();
    server.execute(['SET', 'k', 'v', 'PX', '10'], 0);
    expect(server.execute(['EXISTS', 'k'], 10)).toEqual({ type: 'integer', value: '1' });
    expect(server.inspect(10).map((e) => e.key)).toEqual(['k']);
  });

  it('TIME answers the epoch plus the virtual time, in seconds and microseconds', () => {
    const server = new SimRedisServer();
    expect(server.execute(['TIME'], 61_250)).toEqual({
      type: 'array',
      value: [
        { type: 'bulk', value: String((DEFAULT_UNIX_EPOCH_MS + 61_250 - 250) / 1000) },
        { type: 'bulk', value: '250000' },
      ],
    });
  });

  it('TTL rounds to the nearest second and reports -1 without expiry', () => {
    const server = new SimRedisServer();
    server.execute(['SET', 'a', 'v', 'PX', '1500'], 0);
    server.execute(['SET', 'b', 'v'], 0);
    expect(server.execute(['TTL', 'a'], 0)).toEqual({ type: 'integer', value: '2' });
    expect(server.execute(['TTL', 'a'], 1001)).toEqual({ type: 'integer', value: '0' });
    expect(server.execute(['TTL', 'b'], 0)).toEqual({ type: 'integer', value: '-1' });
  });
});

describe('the simulation clock', () => {
  const scenario = testScenario([
    {
      id: 'A',
      program: [
        { op: 'command', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'] },
        { op: 'work', durationMs: 3000 },
        { op: 'command', argv: ['PTTL', '${lockKey}'], saveAs: 'left' },
      ],
    },
    { id: 'B', program: [{ op: 'command', argv: ['GET', '${lockKey}'], saveAs: 'seen' }] },
  ]);

  it('moves only by +N choices and by waking a blocked client', () => {
    const sim = new Simulation(scenario);
    expect(sim.nowMs).toBe(0);
    sim.apply({ kind: 'step', clientId: 'A' }); // SET, then work starts: A blocks until 3000
    expect(sim.nowMs).toBe(0);
    expect(sim.clients[0].status).toBe('blocked');
    sim.apply({ kind: 'advance', ms: 1000 });
    expect(sim.nowMs).toBe(1000);
    sim.apply({ kind: 'step', clientId: 'A' }); // wakes at 3000, runs PTTL
    expect(sim.nowMs).toBe(3000);
    const pttl = sim.allEvents().find((e) => e.kind === 'command' && e.argv[0] === 'PTTL');
    expect(pttl && pttl.kind === 'command' ? pttl.reply : null).toEqual({ type: 'integer', value: '2000' });
  });

  it('a stall blocks a client from now, and stepping it later moves the clock to its wake-up', () => {
    const sim = new Simulation(scenario);
    sim.apply({ kind: 'stall', clientId: 'B', ms: 7000 });
    sim.apply({ kind: 'step', clientId: 'A' });
    expect(sim.nowMs).toBe(0);
    sim.apply({ kind: 'step', clientId: 'B' });
    expect(sim.nowMs).toBe(7000);
    // The lock A set at 0 with a 5000 ms lease has expired by then.
    const get = sim.allEvents().find((e) => e.kind === 'command' && e.clientId === 'B');
    expect(get && get.kind === 'command' ? get.reply : null).toEqual({ type: 'nil' });
  });

  it('records the lock before and after each event, with Redis truth as the holder', () => {
    const sim = new Simulation(scenario);
    sim.applySchedule('A +5001');
    const set = sim.allEvents().find((e) => e.kind === 'command' && e.argv[0] === 'SET');
    expect(set?.lockBefore).toEqual({ value: null, pttlMs: -2, holder: null });
    expect(set?.lockAfter.holder).toBe('A');
    expect(set?.lockAfter.pttlMs).toBe(5000);
    // Redis drops the key once now > its expiry time: an expire event at t=5001 says so.
    const expire = sim.allEvents().find((e) => e.kind === 'expire');
    expect(expire?.atMs).toBe(5001);
    expect(expire?.lockBefore.holder).toBe('A');
    expect(expire?.lockAfter).toEqual({ value: null, pttlMs: -2, holder: null });
  });
});
