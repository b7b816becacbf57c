import fc from 'fast-check';
import { describe, it } from 'vitest';
import { checkCase, diffCase, near, useRealRedis, type StepInput } from './harness';
import { runs } from '../support/size';

/**
 * Random sequences of the commands lock protocols are made of give the same replies on the
 * simulator and on a real redis-server. Time cannot matter: relative TTLs are long (no key
 * expires during a run) and GT/LT only ever compare an absolute far-future time, so no reply
 * depends on the milliseconds between the two executions; PTTL and PEXPIRETIME (which after a
 * relative expiry depends on when each server ran the command) compare within a tolerance.
 *
 * The seed is pinned so CI explores the same sequences every run; set LOCKSTEP_DIFF_SEED to
 * explore others. A failure prints the seed, the shrunk sequence and the mismatch report.
 */
const SEED = Number(process.env.LOCKSTEP_DIFF_SEED ?? 20_240_611);
const RUN_COUNT = 100;
const SEQUENCE_LENGTH_MAX = 24;

const keyArb = fc.constantFrom('lock', 'lock2', 'counter');
const hashKeyArb = fc.constantFrom('h', 'lock');
const tokenArb = fc.constantFrom('tokA', 'tokB', '1', '41', '9223372036854775806');
const relativeMsArb = fc.constantFrom(100_000, 200_000, 300_000);
/** 2100-01-01 plus a few seconds: far in the future, and never equal to a relative expiry. */
const absoluteMsArb = fc.constantFrom(4_102_444_800_000, 4_102_444_801_000, 4_102_444_802_000);

const UNLOCK = `"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"`;
const RENEW = `"if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"`;
const ACQUIRE = `"return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])"`;
const REENTER = `"if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[1]) == 1 then redis.call('hincrby', KEYS[1], ARGV[1], 1); redis.call('pexpire', KEYS[1], ARGV[2]); return 1 end; return 0"`;

const setArb = fc
  .tuple(
    keyArb,
    tokenArb,
    fc.constantFrom('', 'NX', 'XX', 'nx'),
    fc.boolean(),
    fc.oneof(
      fc.constant(''),
      fc.constant('KEEPTTL'),
      relativeMsArb.map((ms) => `PX ${ms}`),
      relativeMsArb.map((ms) => `EX ${ms / 1000}`),
      absoluteMsArb.map((ms) => `PXAT ${ms}`),
    ),
  )
  .map(([key, token, condition, get, expiry]) => ['SET', key, token, condition, get ? 'GET' : '', expiry].filter((w) => w !== '').join(' '));

const stepArb: fc.Arbitrary<StepInput> = fc.oneof(
  { arbitrary: setArb, weight: 5 },
  { arbitrary: keyArb.map((k) => `GET ${k}`), weight: 2 },
  { arbitrary: fc.tuple(keyArb, fc.option(keyArb, { nil: undefined })).map(([a, b]) => `DEL ${a}${b ? ` ${b}` : ''}`), weight: 2 },
  { arbitrary: keyArb.map((k) => `INCR ${k}`), weight: 2 },
  { arbitrary: fc.tuple(keyArb, relativeMsArb, fc.constantFrom('', 'NX', 'XX')).map(([k, ms, f]) => `PEXPIRE ${k} ${ms} ${f}`.trim()), weight: 2 },
  { arbitrary: fc.tuple(keyArb, relativeMsArb, fc.constantFrom('', 'NX', 'XX')).map(([k, ms, f]) => `EXPIRE ${k} ${ms / 1000} ${f}`.trim()), weight: 1 },
  { arbitrary: fc.tuple(keyArb, absoluteMsArb, fc.constantFrom('', 'GT', 'LT', 'XX GT', 'NX')).map(([k, ms, f]) => `PEXPIREAT ${k} ${ms} ${f}`.trim()), weight: 2 },
  { arbitrary: keyArb.map((k) => near(`PTTL ${k}`)), weight: 2 },
  // After a relative expiry (PX, PEXPIRE, a script's SET PX), the absolute time depends on when each server ran it.
  { arbitrary: keyArb.map((k) => near(`PEXPIRETIME ${k}`)), weight: 1 },
  { arbitrary: keyArb.map((k) => `PERSIST ${k}`), weight: 1 },
  { arbitrary: keyArb.map((k) => `TYPE ${k}`), weight: 1 },
  { arbitrary: fc.tuple(hashKeyArb, tokenArb, tokenArb).map(([k, f, v]) => `HSET ${k} ${f} ${v}`), weight: 2 },
  { arbitrary: fc.tuple(hashKeyArb, tokenArb, fc.constantFrom('1', '-1', '5')).map(([k, f, n]) => `HINCRBY ${k} ${f} ${n}`), weight: 2 },
  { arbitrary: fc.tuple(hashKeyArb, tokenArb).map(([k, f]) => `HEXISTS ${k} ${f}`), weight: 1 },
  { arbitrary: fc.tuple(hashKeyArb, tokenArb).map(([k, f]) => `HDEL ${k} ${f}`), weight: 1 },
  { arbitrary: hashKeyArb.map((k) => `HGETALL ${k}`), weight: 1 },
  { arbitrary: fc.tuple(keyArb, tokenArb).map(([k, t]) => `EVAL ${UNLOCK} 1 ${k} ${t}`), weight: 2 },
  { arbitrary: fc.tuple(keyArb, tokenArb, relativeMsArb).map(([k, t, ms]) => `EVAL ${RENEW} 1 ${k} ${t} ${ms}`), weight: 2 },
  { arbitrary: fc.tuple(keyArb, tokenArb, relativeMsArb).map(([k, t, ms]) => `EVAL ${ACQUIRE} 1 ${k} ${t} ${ms}`), weight: 2 },
  { arbitrary: fc.tuple(hashKeyArb, tokenArb, relativeMsArb).map(([k, t, ms]) => `EVAL ${REENTER} 1 ${k} ${t} ${ms}`), weight: 1 },
);

const real = useRealRedis();
describe('differential: random lock command sequences', () => {
  it(`give the same replies on the simulator and redis-server (seed ${SEED}, ${RUN_COUNT} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: SEQUENCE_LENGTH_MAX }), async (steps) => {
        await checkCase(real(), diffCase('random sequence', ...steps));
      }),
      { seed: SEED, numRuns: runs(RUN_COUNT) },
    );
  });
});
