import type { Reply } from '../../src/engine/redis/reply';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';
import { describeReply, type Observation } from './harness';

/**
 * Cases where the simulator answers differently from Redis on purpose. Each states why, and a
 * check of the exact shape of the difference: if the simulator drifts from the documented
 * behaviour (or Redis changes), the check fails.
 */
export interface ByDesignCase {
  readonly name: string;
  readonly reason: string;
  readonly lines: readonly string[];
  /** The simulator's clock for the case (default: following wall time, like the other cases). */
  readonly sim?: { readonly unixEpochMs?: number; readonly fixedNowMs?: number };
  /** Null when the replies differ (or agree) exactly as documented; otherwise what is wrong. */
  check(real: readonly Observation[], sim: readonly Observation[]): string | null;
}

const SIM_NOW_MS = 123;

function isDecimal(r: Reply): boolean {
  return r.type === 'bulk' && /^[0-9]+$/.test(r.value);
}

function expect(condition: boolean, message: string): string | null {
  return condition ? null : message;
}

/** Depth of a chain of one-element arrays, and what it ends in (iterative: the chain can be thousands deep). */
function chain(r: Reply): { depth: number; end: Reply } {
  let depth = 0;
  let end = r;
  // Bounded by the reply's depth.
  while (end.type === 'array' && end.value.length === 1) {
    depth++;
    end = end.value[0];
  }
  return { depth, end };
}

/** A check over the step replies only (no pushes expected on either side). */
function replies(check: (real: readonly Reply[], sim: readonly Reply[]) => string | null): ByDesignCase['check'] {
  return (real, sim) => check(real.map((o) => o.reply), sim.map((o) => o.reply));
}

/** Every value the main connection received for one step: the reply, then what followed it. */
function stream(o: Observation): Reply[] {
  return [o.reply, ...(o.pushes.main ?? [])];
}

export const BY_DESIGN_CASES: readonly ByDesignCase[] = [
  {
    name: 'the Unix clock is the epoch plus the virtual time',
    reason:
      'The simulator has no wall clock: its Unix time is a fixed epoch (2026-01-01T00:00:00Z unless the scenario sets another) plus the virtual time, so TIME, EXAT/PXAT and EXPIRETIME replay identically. Relative to that clock they behave as on a real server (tests/differential/cases/epoch.ts).',
    lines: ['TIME'],
    sim: { unixEpochMs: DEFAULT_UNIX_EPOCH_MS, fixedNowMs: SIM_NOW_MS },
    check: replies(
      ([real], [sim]) =>
        expect(real.type === 'array' && real.value.length === 2 && real.value.every(isDecimal), `real TIME shape: ${describeReply(real)}`) ??
        expect(describeReply(sim) === `array [bulk "${DEFAULT_UNIX_EPOCH_MS / 1000}", bulk "123000"]`, `sim TIME should be the epoch plus the virtual time: ${describeReply(sim)}`),
    ),
  },
  {
    name: 'TIME inside a script is frozen',
    reason:
      'A script runs at one virtual instant (Redis itself freezes the expiry clock for a script, but not TIME). A script that waits for the clock to move is a wall-clock loop: in the simulator it would never end, and the Lua engine stops it by its work budget.',
    lines: [`EVAL "local a = redis.call('TIME'); for i = 1, 20000 do redis.call('PING') end; local b = redis.call('TIME'); if a[1] == b[1] and a[2] == b[2] then return 1 else return 0 end" 0`],
    sim: { fixedNowMs: SIM_NOW_MS },
    check: replies(
      ([real], [sim]) =>
        expect(real.type === 'integer' && real.value === '0', `real: time moves during a script: ${describeReply(real)}`) ??
        expect(sim.type === 'integer' && sim.value === '1', `sim: time is frozen during a script: ${describeReply(sim)}`),
    ),
  },
  {
    name: 'commands the simulator does not offer are unknown commands',
    reason: 'Lockstep simulates the commands lock protocols and learners use; anything else (CONFIG, OBJECT, PUBSUB, ZUNIONSTORE, ...) answers the unknown-command error a Redis without that command would give.',
    lines: ['CONFIG GET maxmemory', 'PUBSUB CHANNELS', 'ZUNIONSTORE d 1 z'],
    check: replies(
      (real, sim) =>
        expect(real.every((r) => r.type !== 'error'), `real should accept them: ${real.map(describeReply).join('; ')}`) ??
        expect(
          sim.every((r) => r.type === 'error' && r.value.startsWith('ERR unknown command ')),
          `sim should answer unknown command: ${sim.map(describeReply).join('; ')}`,
        ),
    ),
  },
  {
    name: 'SRANDMEMBER draws at most 100000 members at once',
    reason: 'Redis 7.0 builds a reply of any size for a negative count (7.2 caps it); the simulator runs in a browser tab and refuses a draw of more than 100000 members with an error of its own.',
    lines: ['SADD s a', 'SRANDMEMBER s -100001', 'SRANDMEMBER s -3'],
    check: replies(
      ([, realBig, realSmall], [, simBig, simSmall]) =>
        expect(realBig.type === 'array' && realBig.value.length === 100001, `real SRANDMEMBER -100001: ${realBig.type}`) ??
        expect(simBig.type === 'error' && simBig.value === 'ERR Lockstep draws at most 100000 members at once', `sim SRANDMEMBER -100001: ${describeReply(simBig)}`) ??
        expect(JSON.stringify(realSmall) === JSON.stringify(simSmall), `SRANDMEMBER -3 should agree: ${describeReply(realSmall)} / ${describeReply(simSmall)}`),
    ),
  },
  {
    name: 'strings are limited to 16 MiB',
    reason: 'Redis allows 512 MB strings (proto-max-bulk-len); the simulator runs in a browser tab and refuses SETRANGE/APPEND beyond 16 MiB with the same error, as a Redis configured with proto-max-bulk-len 16mb would.',
    lines: ['SETRANGE k 16777216 x', 'STRLEN k', 'DEL k'],
    check: replies(
      ([realSet, realLen], [simSet, simLen]) =>
        expect(realSet.type === 'integer' && realSet.value === '16777217', `real SETRANGE: ${describeReply(realSet)}`) ??
        expect(realLen.type === 'integer' && realLen.value === '16777217', `real STRLEN: ${describeReply(realLen)}`) ??
        expect(simSet.type === 'error' && simSet.value === 'ERR string exceeds maximum allowed size (proto-max-bulk-len)', `sim SETRANGE: ${describeReply(simSet)}`) ??
        expect(simLen.type === 'integer' && simLen.value === '0', `sim STRLEN: ${describeReply(simLen)}`),
    ),
  },
  {
    name: 'big hashes keep insertion order',
    reason:
      'Redis keeps a small hash (up to 128 fields of up to 64 bytes) in insertion order and a bigger one in hash-table order, which is arbitrary. The simulator always answers insertion order: deterministic, and the same fields and values.',
    lines: [`HSET big ${Array.from({ length: 130 }, (_, i) => `f${i} v${i}`).join(' ')}`, 'HGETALL big'],
    check: replies(([, realAll], [, simAll]) => {
      if (realAll.type !== 'array' || simAll.type !== 'array') return 'HGETALL should answer arrays';
      const pairs = (r: Reply & { type: 'array' }) => {
        const out: string[] = [];
        for (let i = 0; i + 1 < r.value.length; i += 2) out.push(`${describeReply(r.value[i])}=${describeReply(r.value[i + 1])}`);
        return out;
      };
      const simPairs = pairs(simAll);
      return (
        expect(JSON.stringify([...pairs(realAll)].sort()) === JSON.stringify([...simPairs].sort()), 'same field/value pairs') ??
        expect(simPairs[0] === 'bulk "f0"=bulk "v0"' && simPairs[129] === 'bulk "f129"=bulk "v129"', `sim in insertion order: ${simPairs.slice(0, 3).join(', ')}`)
      );
    }),
  },
  {
    name: 'DBSIZE never counts an expired key',
    reason:
      'Redis deletes expired keys lazily (on access) and by a sampling cycle ten times a second, so for a while DBSIZE counts keys that no command can see (SET with a past PXAT stores one). The simulator drops every expired key before each command: DBSIZE is exact and deterministic.',
    lines: ['SET p v PXAT 1000', 'DBSIZE', 'GET p', 'DBSIZE'],
    check: replies(
      (real, sim) =>
        expect(['integer 0', 'integer 1'].includes(describeReply(real[1])), `real DBSIZE before access: ${describeReply(real[1])}`) ??
        expect(describeReply(real[3]) === 'integer 0', `real DBSIZE after access: ${describeReply(real[3])}`) ??
        expect(describeReply(sim[1]) === 'integer 0' && describeReply(sim[3]) === 'integer 0', `sim DBSIZE: ${describeReply(sim[1])}, ${describeReply(sim[3])}`),
    ),
  },
  {
    name: 'UNSUBSCRIBE and PUNSUBSCRIBE with no argument go in subscription order',
    reason:
      'Redis walks a connection\'s channels in hash-table order, which is arbitrary (patterns it keeps in a list, in order). The simulator answers both in the order they were subscribed: deterministic, the same confirmations, one of the orders Redis may give.',
    lines: ['SUBSCRIBE c1 c2 c3 c4 c5 c6', 'UNSUBSCRIBE'],
    check: (real, sim) => {
      const names = (o: Observation) => stream(o).map((r) => (r.type === 'array' && r.value[1]?.type === 'bulk' ? r.value[1].value : '?'));
      const counts = (o: Observation) => stream(o).map((r) => (r.type === 'array' && r.value[2]?.type === 'integer' ? r.value[2].value : '?'));
      return (
        expect(JSON.stringify([...names(real[1])].sort()) === JSON.stringify(names(sim[1])), `same channels: real ${names(real[1]).join(',')}, sim ${names(sim[1]).join(',')}`) ??
        expect(JSON.stringify(counts(real[1])) === JSON.stringify(counts(sim[1])), `same counts: real ${counts(real[1]).join(',')}, sim ${counts(sim[1]).join(',')}`) ??
        expect(names(sim[1]).join(',') === 'c1,c2,c3,c4,c5,c6', `sim in subscription order: ${names(sim[1]).join(',')}`)
      );
    },
  },
  {
    name: 'a script reply nests at most 1000 levels',
    reason:
      'A table that contains itself makes Redis nest 7995 one-element arrays around "ERR reached lua stack limit" (it runs out of Lua C stack). The simulator gives the same error 1000 levels deep: a reply 7995 levels deep overflows the JS stack of what reads it (JSON.stringify, structuredClone, the page).',
    lines: ['EVAL "local a = {} a[1] = a return a" 0', 'PING'],
    check: replies(([real, realPing], [sim, simPing]) => {
      const r = chain(real);
      const s = chain(sim);
      return (
        expect(r.depth === 7995 && describeReply(r.end) === 'error ERR reached lua stack limit', `real: ${r.depth} levels, then ${describeReply(r.end)}`) ??
        expect(s.depth === 1000 && describeReply(s.end) === 'error ERR reached lua stack limit', `sim: ${s.depth} levels, then ${describeReply(s.end)}`) ??
        expect(describeReply(realPing) === 'status PONG' && describeReply(simPing) === 'status PONG', 'both still answer PING')
      );
    }),
  },
  {
    name: 'scripts run on a memory budget',
    reason:
      'Redis lets a script use memory until the machine runs out. The simulator runs in a browser tab: a script whose live strings and tables (or reply) would pass 256 MiB, as fengari lays them out, ends with "ERR Script exceeded Lockstep\'s memory budget", and the server goes on.',
    lines: [`EVAL "local s = string.rep('x', 2^20) local t = {} for i = 1, 300 do t[i] = s .. i end return #t" 0`, 'PING'],
    check: replies(
      ([real, realPing], [sim, simPing]) =>
        expect(describeReply(real) === 'integer 300', `real keeps 300 MiB of strings: ${describeReply(real)}`) ??
        expect(sim.type === 'error' && sim.value.startsWith("ERR Script exceeded Lockstep's memory budget (256 MiB"), `sim: ${describeReply(sim)}`) ??
        expect(describeReply(realPing) === 'status PONG' && describeReply(simPing) === 'status PONG', 'both still answer PING'),
    ),
  },
];
