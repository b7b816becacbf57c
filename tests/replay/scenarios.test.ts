// Goal: every single-node scenario and variant, under its default schedule, replays on a real
// redis-server with every reply matching the simulation's and the same violation verdict; the few
// that cannot be replayed reliably are refused with the reason docs/REPLAY.md names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlan, ReplayRefusal, timeScaleMax } from '../../src/cli/replay/plan';
import { SCENARIOS } from '../../src/scenarios';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { prepared, startLine, type JsonReport } from './support';

/** Each replay runs as fast as leaves at least this many real ms between a command and an expiry (4x the refusal threshold). */
const testMarginMs = 200;

/** Replays that fall behind on a busy machine are run again at half the speed, at most this many times in all. */
const fellBehindAttemptCountMax = 4;

/** Refused on purpose, with the reason docs/REPLAY.md gives. */
const REFUSED: Record<string, RegExp> = {
  'lease-sizing/average': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'cache-breakdown/mutex-expires': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'release-result/ignored': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'release-result/checked': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'release-result/fenced': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'cache-avalanche/same-ttl': /tightest timing margin is 0 ms .*no time scale can replay it reliably/,
  'cache-avalanche/jittered-ttl': /tightest timing margin is 1 ms .*no time scale can replay it reliably/,
  'get-then-del/delex': /variant delex needs Redis 8\.4 or later; the server runs 7\.0\.\d+/,
  // C, told by PTTL to wait 5000 ms for the crashed B's lease, retries in the very millisecond it expires.
  'redisson-lock/pubsub': /tightest timing margin is 0 ms of virtual time \(step 6, C's EVAL at t=7000.*no time scale can replay it reliably/,
  'long-script/read-only': /runs for 15000 ms of virtual time .*scriptTiming/,
  'long-script/wrote-first': /runs for 15001 ms of virtual time .*scriptTiming/,
  'long-script/no-rollback': /runs for 15001 ms of virtual time .*scriptTiming/,
  // Which keys share a hash slot is the lesson: replayed on a cluster in tests/replay/cluster.test.ts.
  'cluster-hash-slots/unsafe': /runs on a Redis Cluster .*replay it with --cluster/,
  'cluster-hash-slots/hash-tags': /runs on a Redis Cluster .*replay it with --cluster/,
};
/** Scenarios with several nodes replay on one server per node: tests/replay/nodes.test.ts. */
const singleNode = (s: (typeof SCENARIOS)[number], v: (typeof SCENARIOS)[number]['variants'][number]) => (v.nodes ?? s.nodes) === undefined;
/** SCRIPT FLUSH empties the whole script cache: these run alone, after the others, with --allow-server-wide. */
const SERVER_WIDE = new Set(['script-cache']);

/**
 * Runs replayed under another schedule as well, named `<scenario>/<variant>@<name>`: the Pub/Sub
 * wake-up of redisson-lock/pubsub, whose default schedule is refused above, with both unlocks
 * publishing (three messages, each compared on its subscriber).
 */
const EXTRA_SCHEDULES: Record<string, string> = {
  'redisson-lock/pubsub@unlock': 'A B C +9000',
};

const variants = [
  ...SCENARIOS.flatMap((s) => s.variants.filter((v) => singleNode(s, v)).map((v) => ({ scenario: s, variant: v, id: `${s.id}/${v.id}`, schedule: undefined as string | undefined }))),
  ...Object.entries(EXTRA_SCHEDULES).map(([id, schedule]) => {
    const [scenarioId, variantId] = id.split('@')[0].split('/');
    const scenario = SCENARIOS.find((s) => s.id === scenarioId)!;
    return { scenario, variant: scenario.variants.find((v) => v.id === variantId)!, id, schedule };
  }),
];

function fastestScale(id: string): number {
  const entry = variants.find((v) => v.id === id)!;
  const plan = buildPlan(entry.scenario, { variantId: entry.variant.id, seed: 1, schedule: entry.schedule, timeScale: 1, keyPrefix: 'probe:', allowServerWide: true });
  if (plan.margin === null) return 100;
  return Math.max(1, Math.min(timeScaleMax, Math.floor(plan.margin.virtualMs / testMarginMs)));
}

let redis: RealRedis;
const results = new Map<string, { code: number; report: JsonReport | null; stderr: string }>();

beforeAll(async () => {
  redis = await startRealRedis();
  const url = `redis://127.0.0.1:${redis.port}`;
  const plan = (id: string, line: ReturnType<typeof startLine> | null) => {
    const [scenario, variant] = id.split('@')[0].split('/');
    const schedule = EXTRA_SCHEDULES[id];
    const allowServerWide = SERVER_WIDE.has(scenario);
    let timeScale = id in REFUSED ? 1 : fastestScale(id);
    // Only the first attempt starts together with the others; a retry starts on its own.
    let started = false;
    const beforeStart = async () => {
      if (started || line === null) return;
      started = true;
      await line.ready();
    };
    let start = prepared({ scenario, variant, schedule, redis: url, timeScale, allowServerWide }, beforeStart);
    return async () => {
      
      for (let attempt = 1; ; attempt++) {
        const out = await start();

        // A replay that fell behind its schedule (a busy machine) measured nothing: it says so
        // itself. Try again at half the speed, as a person would; a divergence is never retried.
        if (/fell behind/.test(out.stderr) && attempt < fellBehindAttemptCountMax && timeScale > 1) {
          timeScale = Math.max(1, Math.floor(timeScale / 2));
          if (!started) line?.done();
          started = true;
          start = prepared({ scenario, variant, schedule, redis: url, timeScale, allowServerWide });
          continue;
        }
        if (!started) line?.done();
        started = true;
        results.set(id, { code: out.code, report: out.stdout === '' ? null : (JSON.parse(out.stdout) as JsonReport), stderr: out.stderr });
        return;
      }
    };
  };
  // Replays of different variants share the server, each under its own key prefix, concurrently.
  const concurrent = variants.filter((v) => !SERVER_WIDE.has(v.scenario.id));
  const line = startLine(concurrent.length);
  const together = concurrent.map((v) => plan(v.id, line));
  await Promise.all(together.map((run) => run()));
  for (const v of variants.filter((x) => SERVER_WIDE.has(x.scenario.id))) await plan(v.id, null)();
}, 120_000);

afterAll(async () => {
  await redis?.stop();
});

describe('replay on a real redis-server', () => {
  it.each(variants.map((v) => v.id))('%s', (id) => {
    const result = results.get(id)!;
    if (id in REFUSED) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(REFUSED[id]);
      // Refused before anything was written: no report (refused by the plan) or nothing to clean up (by the server's version).
      expect(result.report?.cleanup ?? null).toBeNull();
      return;
    }
    const report = result.report!;
    expect(result.stderr).not.toMatch(/lockstep:/);
    expect(report.error).toBeNull();
    expect(report.firstDivergence, JSON.stringify(report.commands.filter((c) => c.match !== 'same' && c.match !== 'near'))).toBeNull();
    expect(report.commands.every((c) => c.match === 'same' || c.match === 'near')).toBe(true);
    expect(report.verdicts.real.complete).toBe(true);
    expect(report.verdicts.real.violations.map((v) => v.kind)).toEqual(report.verdicts.simulation.map((v) => v.kind));
    expect(report.messages.every((m) => m.match === true)).toBe(true);
    expect(report.unexpectedMessages).toEqual([]);
    expect(report.cleanup?.left).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(result.code).toBe(0);
  });

  it('compares the Pub/Sub messages: the three unlock messages of redisson-lock/pubsub reached their subscribers', () => {
    const report = results.get('redisson-lock/pubsub@unlock')!.report!;
    expect(report.messages.map((m) => [m.afterCommand, m.connection, m.payload, m.match])).toEqual([
      [8, 'B/pubsub', '0', true],
      [8, 'C/pubsub', '0', true],
      [12, 'C/pubsub', '0', true],
    ]);
  });

  it('leaves no key behind on the server', async () => {
    const { RespClient } = await import('../support/resp-client');
    const client = await RespClient.connect(redis.port);
    try {
      expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '0' });
    } finally {
      await client.close();
    }
  });

  it('refuses a plan it cannot replay before connecting (a ReplayRefusal)', () => {
    const entry = variants.find((v) => v.id === 'lease-sizing/average')!;
    expect(() => buildPlan(entry.scenario, { variantId: 'average', seed: 1, timeScale: 1, keyPrefix: 'p:', allowServerWide: false })).toThrow(ReplayRefusal);
  });
});
