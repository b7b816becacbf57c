// Goal: every scenario and variant with several Redis nodes, under its default schedule, replays
// on one real redis-server per node that the replay starts itself (--start-server): replicas
// replicate through a delaying proxy, node crashes, restarts and promotions happen on the real
// servers, partitions and lost messages are emulated (nothing is sent, the client's timeout is
// the recording's), and every reply that was sent matches with the same violations; what a real
// server cannot do (a node's clock jump) is refused with its reason. Also: several --redis, in
// node order, on servers the test started; node faults refused on those; no key left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPlan, timeScaleMax } from '../../src/cli/replay/plan';
import { nodesOf } from '../../src/engine/scenario';
import { SCENARIOS } from '../../src/scenarios';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { replay, type JsonReport } from './support';

/** Each replay runs as fast as leaves at least this many real ms for its tightest margin (as scenarios.test.ts). */
const testMarginMs = 200;
/** Replays that fall behind (a restart takes real time; a busy machine) run again at half the speed, at most this many times. */
const fellBehindAttemptCountMax = 4;

/** Refused on purpose, with the reason docs/REPLAY.md gives. */
const REFUSED: Record<string, RegExp> = {
  'redlock-clock-jump/clock-jump': /step 7: @r3's clock jumps 11000 ms at t=200\. A real redis-server reads its host's clock/,
};

const variants = SCENARIOS.flatMap((s) => s.variants.filter((v) => nodesOf(s, v) !== null).map((v) => ({ scenario: s, variant: v, id: `${s.id}/${v.id}` })));

function fastestScale(id: string): number {
  const { scenario, variant } = variants.find((v) => v.id === id)!;
  const plan = buildPlan(scenario, { variantId: variant.id, seed: 1, timeScale: 1, keyPrefix: 'probe:', allowServerWide: false });
  const tightest = Math.min(plan.margin?.virtualMs ?? Infinity, plan.waitMargin?.virtualMs ?? Infinity);
  return tightest === Infinity ? 10 : Math.max(1, Math.min(timeScaleMax, Math.floor(tightest / testMarginMs)));
}

type Result = { code: number; report: JsonReport | null; stderr: string; timeScale: number };
const results = new Map<string, Result>();

async function replayOwned(id: string): Promise<Result> {
  const [scenario, variant] = id.split('/');
  let timeScale = id in REFUSED ? 1 : fastestScale(id);
  for (let attempt = 1; ; attempt++) {
    const out = await replay({ scenario, variant, redis: null, timeScale });
    // A replay that fell behind measured nothing (it says so itself): again, slower, or at 1 again.
    if (/fell behind/.test(out.stderr) && attempt < fellBehindAttemptCountMax) {
      timeScale = Math.max(1, Math.floor(timeScale / 2));
      continue;
    }
    return { code: out.code, report: out.stdout === '' ? null : (JSON.parse(out.stdout) as JsonReport), stderr: out.stderr, timeScale };
  }
}

beforeAll(async () => {
  // One at a time: each starts a server per node (up to five) on a machine other tests share.
  for (const v of variants) results.set(v.id, await replayOwned(v.id));
}, 300_000);

describe('replay of the node scenarios on servers it starts (--start-server)', () => {
  it('covers every variant with several nodes', () => {
    expect(variants.length).toBe(11);
  });

  it.each(variants.map((v) => v.id))('%s', (id) => {
    const result = results.get(id)!;
    if (id in REFUSED) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(REFUSED[id]);
      expect(result.report).toBeNull();
      return;
    }
    const report = result.report!;
    expect(report.error, result.stderr).toBeNull();
    expect(report.firstDivergence, JSON.stringify(report.commands.filter((c) => c.match === 'different'))).toBeNull();
    expect(report.commands.every((c) => c.match === 'same' || c.match === 'near' || c.match === 'emulated')).toBe(true);
    expect(report.verdicts.real.complete).toBe(true);
    expect(report.verdicts.real.violations.map((v) => v.kind)).toEqual(report.verdicts.simulation.map((v) => v.kind));
    expect(report.cleanup?.left).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('sends nothing for a request the simulation lost, and shows the client timeout it recorded', () => {
    const report = results.get('redlock-happy-path/majority')!.report! as unknown as { commands: { match: string; notSent: string | null; simReply: { value?: string } }[] };
    const lost = report.commands.filter((c) => c.match === 'emulated');
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((c) => c.notSent === 'partition' && /^client timeout: no reply from r[45] in time$/.test(c.simReply.value ?? ''))).toBe(true);
  });

  it('causes the node faults on the real servers: the failover promotes r2, r1 is shut down, r3 is restarted', () => {
    const failover = results.get('failover-before-replication/async')!.report! as JsonReport & { nodeActions: { fault: string; node: string }[] };
    expect(failover.nodeActions.map((a) => `${a.fault} ${a.node}`)).toEqual(['node-crash r1', 'promote r2']);
    // B's SET on the promoted replica answers OK on the real server too: r2 had not received A's lock (the proxy held it 1 s).
    const restart = results.get('redlock-restart-without-fsync/no-fsync')!.report! as JsonReport & { nodeActions: { fault: string; node: string }[] };
    expect(restart.nodeActions.map((a) => `${a.fault} ${a.node}`)).toEqual(['node-crash r3', 'node-restart r3']);
    expect(restart.verdicts.real.violations.map((v) => v.kind)).toContain('mutual-exclusion');
  });
});

describe('several --redis, one per node, on servers the test started', () => {
  const servers: RealRedis[] = [];
  const urls = () => servers.map((s) => `redis://127.0.0.1:${s.port}`);

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) servers.push(await startRealRedis());
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });

  it('replays redlock-split-vote on five servers given in node order, and leaves no key on any', async () => {
    const out = await replay({ scenario: 'redlock-split-vote', redis: urls(), timeScale: 10 });
    const report = JSON.parse(out.stdout) as JsonReport;
    expect(report.error, out.stderr).toBeNull();
    expect(report.firstDivergence).toBeNull();
    expect(out.code).toBe(0);
    for (const server of servers) {
      const client = await RespClient.connect(server.port);
      try {
        expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '0' });
      } finally {
        await client.close();
      }
    }
  });

  it('says how many servers the scenario needs when the count differs', async () => {
    const out = await replay({ scenario: 'redlock-happy-path', redis: urls().slice(0, 3), timeScale: 10 });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/redlock-happy-path runs on 5 Redis nodes \(r1, r2, r3, r4, r5\): give --redis 5 times, one server per node in that order \(got 3\), or --start-server/);
  });

  it('refuses node faults and replicas on servers it did not start, before writing anything', async () => {
    const out = await replay({ scenario: 'redlock-restart-without-fsync', redis: urls(), timeScale: 4 });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/needs step 7's node-crash of @r3; the replay causes node faults and configures replication only on servers it started itself/);
    expect((JSON.parse(out.stdout) as JsonReport).cleanup).toBeNull();
    const failover = await replay({ scenario: 'failover-before-replication', redis: urls().slice(0, 2), timeScale: 1 });
    expect(failover.code).toBe(2);
    expect(failover.stderr).toMatch(/on servers it started itself/);
  });

  it('refuses to overwrite a key that exists on any of the servers', async () => {
    const client = await RespClient.connect(servers[3].port);
    try {
      await client.send(['SET', 'lockstep:taken:lock', 'somebody else']);
      const out = await replay({ scenario: 'redlock-split-vote', redis: urls(), timeScale: 10, keyPrefix: 'lockstep:taken:' });
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(new RegExp(`already holds "lockstep:taken:lock" \\(on redis://127\\.0\\.0\\.1:${servers[3].port}\\)`));
      expect(await client.send(['GET', 'lockstep:taken:lock'])).toEqual({ type: 'bulk', value: 'somebody else' });
    } finally {
      await client.send(['DEL', 'lockstep:taken:lock']);
      await client.close();
    }
  });
});
