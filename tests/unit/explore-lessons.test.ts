/**
 * Goal: every lesson is checked by the explorer. For each scenario, within the bounds it declares
 * (`scenario.explore`: its fault budget, depth, horizon), the breadth-first search finds exactly
 * the violation kinds this table lists for each variant (a "fix" that turns unsafe, or a lesson
 * that becomes unreachable, fails here), each found schedule replays with a plain Simulation to
 * the same violation at its last choice, and the table says which verdicts are exhaustive.
 * Every kind a variant's default schedule shows (`expect.violations`) is among those found.
 * Scenarios with several Redis nodes are in the table too, with the node faults their budgets declare.
 */
import { describe, expect, it } from 'vitest';
import { explore, verdictLines } from '../../src/engine/explore';
import { Simulation } from '../../src/engine/simulation';
import type { ViolationKind } from '../../src/engine/trace';
import { SCENARIOS, findScenario } from '../../src/scenarios';

interface Row {
  /** Kinds found within the declared bounds. */
  readonly found: readonly ViolationKind[];
  /** Whether the search saw every state within the bounds (no depth, horizon or budget cut). */
  readonly exhaustive: boolean;
}

const TABLE: Record<string, Record<string, Row>> = {
  'setnx-no-ttl': { setnx: { found: ['lock-never-released'], exhaustive: true }, 'set-nx-px': { found: [], exhaustive: true } },
  'setnx-then-expire': { 'setnx-expire': { found: ['lock-never-released'], exhaustive: true }, 'set-nx-px': { found: [], exhaustive: true } },
  'sub-second-lease': {
    'expire-zero': { found: ['mutual-exclusion'], exhaustive: true },
    'set-ex-zero': { found: [], exhaustive: true },
    px: { found: [], exhaustive: true },
  },
  'plain-del': { 'plain-del': { found: ['mutual-exclusion', 'foreign-release'], exhaustive: true }, lua: { found: ['mutual-exclusion'], exhaustive: true } },
  // The headline: the foreign release needs the stall between GET and DEL; no atomic release has it.
  // A 7 s stall during the work outlives the lease under every release (the lease lesson).
  'get-then-del': {
    'get-then-del': { found: ['mutual-exclusion', 'foreign-release'], exhaustive: true },
    lua: { found: ['mutual-exclusion'], exhaustive: true },
    delex: { found: ['mutual-exclusion'], exhaustive: true },
  },
  'lease-expires-mid-work': {
    'lua-release': { found: ['mutual-exclusion', 'stale-write'], exhaustive: true },
    fencing: { found: ['mutual-exclusion'], exhaustive: true },
    watchdog: { found: ['mutual-exclusion', 'stale-write'], exhaustive: true },
  },
  'lease-sizing': { average: { found: ['mutual-exclusion'], exhaustive: false }, tail: { found: [], exhaustive: false } },
  watchdog: {
    renewal: { found: [], exhaustive: true },
    starved: { found: ['mutual-exclusion'], exhaustive: true },
    zombie: { found: ['lock-held-too-long'], exhaustive: false },
    capped: { found: ['mutual-exclusion', 'lock-held-too-long'], exhaustive: true },
  },
  reentrant: { reentrant: { found: [], exhaustive: true }, 'non-reentrant': { found: [], exhaustive: true } },
  'redisson-lock': { pubsub: { found: [], exhaustive: true }, polling: { found: [], exhaustive: true } },
  'stock-oversell': {
    'no-lock': { found: ['oversell'], exhaustive: true },
    lock: { found: [], exhaustive: true },
    'lua-decr': { found: [], exhaustive: true },
    'decr-check': { found: [], exhaustive: true },
    watch: { found: [], exhaustive: true },
  },
  'cache-breakdown': {
    'no-mutex': { found: ['duplicate-rebuild'], exhaustive: false },
    mutex: { found: [], exhaustive: false },
    'mutex-expires': { found: ['duplicate-rebuild'], exhaustive: false },
  },
  'retry-and-backoff': {
    spin: { found: [], exhaustive: false },
    'fixed-interval': { found: [], exhaustive: false },
    'jittered-backoff': { found: [], exhaustive: false },
  },
  'release-result': {
    ignored: { found: ['mutual-exclusion', 'stale-write'], exhaustive: true },
    checked: { found: ['mutual-exclusion', 'stale-write'], exhaustive: true },
    fenced: { found: ['mutual-exclusion'], exhaustive: true },
  },
  // Caching the miss leaves the race of two simultaneous misses (the scenario's note says so).
  'cache-penetration': {
    'no-cache': { found: ['duplicate-rebuild'], exhaustive: true },
    'cache-null': { found: ['duplicate-rebuild'], exhaustive: true },
    filter: { found: [], exhaustive: true },
  },
  // A cold start spikes under either TTL (the scenario's note says so).
  'cache-avalanche': { 'same-ttl': { found: ['load-spike'], exhaustive: false }, 'jittered-ttl': { found: ['load-spike'], exhaustive: false } },
  // The refresh keeps a slow holder's place through the story's 2.5 s pause; a pause past the
  // 5 s timeout beats it (the lesson's challenge, with a 7 s stall).
  'counting-semaphore': { 'no-refresh': { found: ['over-limit'], exhaustive: false }, refresh: { found: [], exhaustive: false } },
  // One crash of B at any point: entry leases let the queue move on, exhaustively.
  'fair-lock': { 'no-timeout': { found: ['starvation'], exhaustive: true }, 'entry-lease': { found: [], exhaustive: true } },
  'read-write-lock': { 'reader-preference': { found: ['starvation'], exhaustive: false }, 'writer-preference': { found: [], exhaustive: false } },
  'script-cache': { 'evalsha-only': { found: [], exhaustive: true }, fallback: { found: [], exhaustive: true } },
  'long-script': {
    'read-only': { found: [], exhaustive: true },
    'wrote-first': { found: [], exhaustive: true },
    'no-rollback': { found: [], exhaustive: true },
  },
  // Not a race: the unsafe acquire fails with CROSSSLOT for everyone (no holder, no violation).
  'cluster-hash-slots': { unsafe: { found: [], exhaustive: true }, 'hash-tags': { found: [], exhaustive: true } },
  // Several Redis nodes (node faults within each scenario's declared budget; none of these spaces
  // is exhausted within a test's time, so none claims it). A promotion alone loses the lock; a
  // fencing counter apart from the lock still lets a stale write through (the scenario's note).
  'failover-before-replication': {
    async: { found: ['mutual-exclusion', 'stale-write'], exhaustive: false },
    wait: { found: ['mutual-exclusion', 'stale-write'], exhaustive: false },
    fencing: { found: ['mutual-exclusion', 'stale-write'], exhaustive: false },
  },
  'redlock-happy-path': { majority: { found: [], exhaustive: false } },
  'redlock-clock-jump': { 'clock-jump': { found: ['mutual-exclusion'], exhaustive: false } },
  // No horizon: the fixes are searched past the delayed restart's 10 s. Each is set on every node
  // (on r3 alone, a crash of r4 broke both: A A B B B B !@r4 ^@r4 +1000).
  'redlock-restart-without-fsync': {
    'no-fsync': { found: ['mutual-exclusion'], exhaustive: false },
    fsync: { found: [], exhaustive: false },
    'delayed-restart': { found: [], exhaustive: false },
  },
  // Kleppmann's pause: checking the validity stops the write only when the pause comes before the check.
  'redlock-gc-pause': {
    'no-check': { found: ['mutual-exclusion', 'stale-write'], exhaustive: false },
    'check-validity': { found: ['mutual-exclusion'], exhaustive: false },
  },
  'redlock-split-vote': { 'jittered-retry': { found: [], exhaustive: false } },
};

/** Scenarios with several Redis nodes: each variant its own test, with room for a loaded machine (their searches take seconds). */
const withNodes = new Set(SCENARIOS.filter((s) => s.nodes !== undefined || s.variants.some((v) => v.nodes !== undefined)).map((s) => s.id));
const nodeTestTimeoutMs = 300_000;

function checkRow(scenarioId: string, variantId: string, row: Row): void {
  const scenario = findScenario(scenarioId);
  const result = explore({ scenario, variantId });
  const label = `${scenarioId}/${variantId}`;
  expect(
    { found: result.violations.map((v) => v.kind).sort(), exhaustive: result.exhaustive, stateBudget: result.cut.stateBudget },
    label,
  ).toEqual({ found: [...row.found].sort(), exhaustive: row.exhaustive, stateBudget: false });
  const lesson = scenario.variants.find((v) => v.id === variantId)?.expect.violations ?? [];
  for (const kind of lesson) expect(row.found, `${label}: the lesson's ${kind} is reachable`).toContain(kind);
  for (const violation of result.violations) {
    const sim = new Simulation(scenario, { variantId });
    sim.applySchedule(violation.schedule);
    const last = sim.eventsOfStep(violation.steps - 1);
    expect(
      last.some((e) => e.kind === 'violation' && e.violation === violation.kind),
      `${label}: ${violation.schedule} shows ${violation.kind} at its last choice`,
    ).toBe(true);
  }
  // The verdict never claims more than was checked.
  const absent = verdictLines(result).find((line) => line.startsWith('No violation'));
  if (row.found.length < result.invariants.length) {
    expect(absent, label).toBeDefined();
    expect(absent?.endsWith(', exhaustive.') ?? false, label).toBe(row.exhaustive);
  }
}

describe('every lesson, checked by the explorer within its declared bounds', () => {
  it('the table covers every scenario and variant', () => {
    const all = SCENARIOS.flatMap((s) => s.variants.map((v) => `${s.id}/${v.id}`)).sort();
    const listed = Object.entries(TABLE)
      .flatMap(([s, variants]) => Object.keys(variants).map((v) => `${s}/${v}`))
      .sort();
    expect(listed).toEqual(all);
  });

  for (const [scenarioId, variants] of Object.entries(TABLE)) {
    if (withNodes.has(scenarioId)) {
      for (const [variantId, row] of Object.entries(variants)) {
        it(`${scenarioId}/${variantId} (several nodes): found kinds, exhaustiveness, replays`, () => checkRow(scenarioId, variantId, row), nodeTestTimeoutMs);
      }
      continue;
    }
    it(`${scenarioId}: found kinds, exhaustiveness, replays`, () => {
      for (const [variantId, row] of Object.entries(variants)) checkRow(scenarioId, variantId, row);
    });
  }
});
