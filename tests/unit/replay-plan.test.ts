import { describe, expect, it } from 'vitest';
import type { Scenario } from '../../src/engine/scenario';
import { buildPlan, checkScript, ReplayRefusal, scaleDuration } from '../../src/cli/replay/plan';
import { luaRedisCalls } from '../../src/cli/replay/lua-calls';
import { findScenario } from '../../src/scenarios';
import { testScenario } from './support/test-scenario';

// Goal: a replay plan sends what the simulation sent, with every key under the prefix and every
// duration on the scaled clock, and refuses what it cannot replay faithfully (a script that builds
// its own key names, a duration the scale cannot reach) before anything connects.

const plan = (id: string, variantId: string | undefined, timeScale: number) =>
  buildPlan(findScenario(id), { variantId, seed: 1, timeScale, keyPrefix: 'p:', allowServerWide: true });

describe('replay plan', () => {
  it('prefixes keys and scales PX, and sends the commands in the trace order with their virtual times', () => {
    const p = plan('get-then-del', undefined, 10);
    expect(p.commands.map((c) => [c.atMs, c.clientId, c.realArgv[0], c.realArgv[1]])).toEqual([
      [0, 'A', 'SET', 'p:lock'],
      [2000, 'A', 'GET', 'p:lock'],
      [6000, 'B', 'SET', 'p:lock'],
      [7000, 'A', 'DEL', 'p:lock'],
    ]);
    expect(p.commands[0].realArgv.slice(3)).toEqual(['NX', 'PX', '500']);
    expect(p.commands[0].argv.slice(3)).toEqual(['NX', 'PX', '5000']);
    expect(p.realKeys).toEqual(['p:lock']);
    expect(p.margin).toEqual({ virtualMs: 1000, commandIndex: 2, key: 'lock', expireAtMs: 5000 });
    expect(p.timeScaleLimit).toBe(20);
  });

  it("scales the durations a script receives in the ARGV positions its ScriptSpec marks, and its PTTL reply is a duration", () => {
    const fencing = plan('lease-expires-mid-work', 'fencing', 10).commands[0];
    expect(fencing.realArgv.slice(2)).toEqual(['2', 'p:lock', 'p:lock:fencing', fencing.argv[5], '600']);
    const reentrant = plan('reentrant', 'reentrant', 10).commands[1];
    expect(reentrant.realArgv.slice(3)).toEqual(['p:lock', '3000', reentrant.argv[5]]);
    expect(reentrant.replyIsDurationMs).toBe(true);
  });

  it('scales a sorted-set score that is a time with the timeout it is compared with (the semaphore, the fair queue)', () => {
    // C's acquire at t=5500: ARGV limit, id, timeout, now. Pruning keeps its meaning: 1100 - 1000 on the scaled clock.
    const acquire = plan('counting-semaphore', 'no-refresh', 5).commands.find((c) => c.clientId === 'C' && c.argv[0] === 'EVAL');
    expect(acquire?.realArgv.slice(2)).toEqual(['1', 'p:semaphore', '2', acquire?.argv[5], '1000', '1100']);
    const queued = plan('fair-lock', 'entry-lease', 5).commands.find((c) => c.clientId === 'B' && c.argv[0] === 'EVAL');
    expect(queued?.realArgv.slice(2)).toEqual(['3', 'p:lock', 'p:lock:queue', 'p:lock:queue:leases', queued?.argv[6], '600', '100', '400']);
  });

  it('keeps seconds where they stay whole and switches to milliseconds where they do not; leaves 0 and bad values as they are', () => {
    expect(scaleDuration('60', 's', 10)).toEqual({ text: '6', unit: 's' });
    expect(scaleDuration('60', 's', 7)).toEqual({ text: '8571', unit: 'ms' });
    expect(scaleDuration('0', 's', 10)).toEqual({ text: '0', unit: 's' });
    expect(scaleDuration('-5', 'ms', 10)).toEqual({ text: '-5', unit: 'ms' });
    expect(scaleDuration('abc', 'ms', 10)).toEqual({ text: 'abc', unit: 'ms' });
    expect(scaleDuration('3', 'ms', 10)).toHaveProperty('refusal');
    const cache = plan('cache-breakdown', 'no-mutex', 7).commands.find((c) => c.argv[0] === 'SET')!;
    expect(cache.realArgv).toEqual(['SET', 'p:product:42', 'product-42-from-db', 'PX', '8571']);
  });

  it('runs the setup on its own connection before the clients, under the prefix', () => {
    const setup = plan('stock-oversell', 'no-lock', 1).commands[0];
    expect(setup).toMatchObject({ clientId: null, step: null, realArgv: ['SET', 'p:stock', '1'], simReply: { type: 'status', value: 'OK' } });
  });

  it('refuses a script that builds a key name itself, and one whose duration the scale cannot reach', () => {
    expect(checkScript({ source: 'return redis.call("get", "lock:" .. ARGV[1])' }, 1)).toMatch(/builds a key name itself/);
    expect(checkScript({ source: 'local c = redis.call; return c("get", KEYS[1])' }, 1)).toMatch(/other than as a direct call/);
    expect(checkScript({ source: 'return redis.call("pexpire", KEYS[1], ARGV[1])' }, 10)).toMatch(/not an ARGV position marked/);
    expect(checkScript({ source: 'return redis.call("pexpire", KEYS[1], ARGV[1])' }, 1)).toBeNull();
    expect(checkScript({ source: 'return redis.call("pexpire", KEYS[1], ARGV[1])', durationsMs: { argv: [1] } }, 10)).toBeNull();
    expect(checkScript({ source: 'return redis.call("set", KEYS[1], ARGV[1], "PX", 5000)' }, 10)).toMatch(/\(5000\)/);
    const scenario: Scenario = {
      ...findScenario('get-then-del'),
      scripts: { compareAndDelete: { source: 'return redis.call("del", "lock")' } },
    };
    expect(() => buildPlan(scenario, { variantId: 'lua', seed: 1, timeScale: 1, keyPrefix: 'p:', allowServerWide: false })).toThrow(
      new ReplayRefusal('step 2 (A): EVAL: script compareAndDelete: it builds a key name itself (redis.call(\'del\', "lock", ...)): the key prefix cannot reach it'),
    );
  });

  it('reads the redis.call arguments of every script the scenarios use', () => {
    const calls = luaRedisCalls(`-- a comment with redis.call("get", "x")
if redis.call("set", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
  return redis.call('incr', KEYS[2])
end`);
    expect(calls).toEqual({
      calls: [
        [{ literal: 'set' }, { expr: 'KEYS[1]' }, { expr: 'ARGV[1]' }, { literal: 'NX' }, { literal: 'PX' }, { expr: 'ARGV[2]' }],
        [{ literal: 'incr' }, { expr: 'KEYS[2]' }],
      ],
    });
  });

  it('sends a Pub/Sub client\'s subscribe family on its named connection, channels under the prefix (not keys), and expects the messages it received', () => {
    const p = buildPlan(findScenario('redisson-lock'), { variantId: 'pubsub', seed: 1, schedule: 'A B C +9000', timeScale: 1, keyPrefix: 'p*:', allowServerWide: false });
    const subscribe = p.commands.find((c) => c.argv[0] === 'SUBSCRIBE')!;
    expect([subscribe.clientId, subscribe.connection, subscribe.realArgv[1]]).toEqual(['B', 'B/pubsub', 'p*:redisson_lock__channel:{lock:order:42}']);
    expect(p.commands.filter((c) => c.argv[0] === 'EVAL').every((c) => c.connection === c.clientId)).toBe(true);
    expect(p.connections).toEqual(['A', 'B', 'C', 'B/pubsub', 'C/pubsub']);
    // The unlock script's channel comes in as KEYS[2]: prefixed like a key (PUBLISH inside counts only the replay's subscribers).
    expect(p.realKeys).toEqual(['p*:lock:order:42', 'p*:redisson_lock__channel:{lock:order:42}']);
    expect(p.messages.map((m) => [p.commands[m.afterCommand].clientId, m.connection, m.channel, m.payload])).toEqual([
      ['A', 'B/pubsub', 'redisson_lock__channel:{lock:order:42}', '0'],
      ['A', 'C/pubsub', 'redisson_lock__channel:{lock:order:42}', '0'],
      ['B', 'C/pubsub', 'redisson_lock__channel:{lock:order:42}', '0'],
    ]);
  });

  it('sends a transaction on its client\'s connection, WATCH keys under the prefix, and plans each connection\'s MULTI apart', () => {
    const p = plan('stock-oversell', 'watch', 1);
    expect(p.commands.filter((c) => c.clientId === 'B').map((c) => c.realArgv.join(' ')).slice(0, 5)).toEqual([
      'WATCH p:stock',
      'GET p:stock',
      'MULTI',
      'DECRBY p:stock 1',
      'EXEC',
    ]);
    expect(p.commands.find((c) => c.argv[0] === 'EXEC' && c.clientId === 'B')!.simReply).toEqual({ type: 'nil' });
  });

  it('escapes the prefix\'s glob characters in a PSUBSCRIBE pattern and refuses SUBSCRIBE with several channels', async () => {
    const { commandShape } = await import('../../src/cli/replay/commands');
    expect(commandShape([{ literal: 'SUBSCRIBE' }, { literal: 'a' }, { literal: 'b' }])).toEqual({ refusal: 'SUBSCRIBE with several channels: the replay compares one confirmation per command' });
    const { escapeGlob } = await import('../../src/cli/replay/plan');
    expect(escapeGlob('p*[x]?\\:')).toBe('p\\*\\[x\\]\\?\\\\:');
  });

  it('refuses a run where a client blocks in a blocking pop, saying why', () => {
    const scenario = testScenario(
      [
        { id: 'A', program: [{ op: 'command', argv: ['BLPOP', 'q', '5'] }, { op: 'end' }] },
        { id: 'B', program: [{ op: 'sleep', durationMs: 100 }, { op: 'command', argv: ['RPUSH', 'q', 'x'] }, { op: 'end' }] },
      ],
      { params: { lockKey: 'lock' } },
    );
    expect(() => buildPlan(scenario, { seed: 1, schedule: 'A B +6000', timeScale: 1, keyPrefix: 'p:', allowServerWide: false })).toThrow(/BLPOP blocks on the virtual clock/);
  });
});
