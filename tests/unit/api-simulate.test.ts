/**
 * Goal: the Node API runs built-in scenarios and definitions headlessly, gives the same trace the
 * engine gives, judges each run against its expected verdict, and answers every bad option,
 * definition or schedule with a typed error that names the path of the problem.
 */
import { describe, expect, it } from 'vitest';
import {
  ArgumentError,
  DefinitionError,
  LockstepError,
  ScheduleDoesNotFitError,
  ScheduleError,
  builtinDefinition,
  explore,
  scenarioIds,
  simulate,
  simulateAll,
  type ScenarioDefinition,
} from '../../src/api';
import { runSchedule } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';

const myLock: ScenarioDefinition = {
  version: 1,
  id: 'my-lock',
  params: { ttlMs: 5000 },
  scripts: { release: { source: 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end' } },
  defaultSchedule: 'A A~7000 +6000 B +1000',
  variants: [
    {
      id: 'del',
      clients: ['A', 'B'].map((id) => ({
        id,
        program: [
          { op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
          { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: 'done' },
          { op: 'work', durationMs: 1000 },
          { op: 'command', argv: ['DEL', 'lock'], releases: true },
          { op: 'end', label: 'done' },
        ],
      })),
      expect: { violations: ['foreign-release'] },
    },
    {
      id: 'script',
      clients: ['A', 'B'].map((id) => ({
        id,
        program: [
          { op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'ok' },
          { op: 'if', when: { test: 'nil', reply: 'ok' }, goto: 'done' },
          { op: 'work', durationMs: 1000 },
          { op: 'eval', script: 'release', keys: ['lock'], args: ['${token}'], releases: true },
          { op: 'end', label: 'done' },
        ],
      })),
      expect: { absent: ['foreign-release'] },
    },
  ],
};

async function rejection(promise: Promise<unknown>): Promise<LockstepError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LockstepError);
    return error as LockstepError;
  }
  throw new Error('expected a rejection');
}

describe('simulate', () => {
  it('runs a built-in scenario by id: the same trace as the engine', async () => {
    const result = await simulate({ scenario: 'get-then-del' });
    expect(JSON.stringify(result.trace)).toBe(JSON.stringify(runSchedule(findScenario('get-then-del'), {})));
    expect(result.verdict).toEqual({ expected: { violations: ['foreign-release'], absent: ['mutual-exclusion', 'lock-never-released'] }, got: ['foreign-release'], missing: [], unexpected: [], ok: true });
    expect(result.violations[0]).toMatchObject({ kind: 'foreign-release', message: "A deleted B's lock", clients: ['A', 'B'] });
  });

  it('runs a definition with a schedule, variant and seed of its own', async () => {
    const result = await simulate({ scenario: myLock, variant: 'script', seed: 7, schedule: 'A A~7000 +6000 B +1000' });
    expect(result.scenario).toBe('my-lock');
    expect(result.variant).toBe('script');
    expect(result.seed).toBe(7);
    expect(result.verdict.ok).toBe(true);
    expect(result.verdict.got).not.toContain('foreign-release');
    expect(result.finalTimeMs).toBe(7000);
  });

  it('says what is missing when the verdict is not the expected one', async () => {
    const result = await simulate({ scenario: myLock, variant: 'del', schedule: 'A +2000 B' });
    expect(result.verdict).toMatchObject({ got: [], missing: ['foreign-release'], ok: false });
    const flipped = await simulate({ scenario: myLock, variant: 'del', expect: { absent: ['foreign-release'] } });
    expect(flipped.verdict).toMatchObject({ unexpected: ['foreign-release'], ok: false });
  });

  it('simulateAll runs every variant under one schedule', async () => {
    const results = await simulateAll({ scenario: myLock });
    expect(results.map((r) => [r.variant, r.verdict.ok, r.verdict.got])).toEqual([
      ['del', true, ['foreign-release']],
      ['script', true, []],
    ]);
  });

  it('every built-in, as a definition, gives every variant its expected verdict', async () => {
    for (const id of scenarioIds) {
      const results = await simulateAll({ scenario: builtinDefinition(id) as ScenarioDefinition });
      for (const r of results) expect(r.verdict.ok, `${id}/${r.variant}: ${JSON.stringify(r.verdict)}`).toBe(true);
    }
  });
});

describe('bad input: typed errors naming the path', () => {
  const cases: [string, () => Promise<unknown>, abstract new (...args: never[]) => LockstepError, string, RegExp][] = [
    ['no options object', () => simulate(null as never), ArgumentError, '', /options object/],
    ['an unknown option', () => simulate({ scenario: 'get-then-del', sched: 'A' } as never), ArgumentError, 'sched', /unknown option/],
    ['an unknown scenario id', () => simulate({ scenario: 'get-then-dell' }), ArgumentError, 'scenario', /no built-in scenario "get-then-dell"/],
    ['an unknown variant', () => simulate({ scenario: 'get-then-del', variant: 'lua2' }), ArgumentError, 'variant', /no variant "lua2"/],
    ['a bad seed', () => simulate({ scenario: 'get-then-del', seed: -1 }), ArgumentError, 'seed', /integer from 0 to 4294967295/],
    ['a schedule that does not parse', () => simulate({ scenario: 'get-then-del', schedule: 'A +4OOO' }), ScheduleError, 'schedule', /position 3/],
    ['a schedule naming no client', () => simulate({ scenario: 'get-then-del', schedule: 'A C' }), ScheduleError, 'schedule', /"C"/],
    ['a schedule that does not fit', () => simulate({ scenario: 'get-then-del', variant: 'lua', schedule: 'A A A A' }), ScheduleDoesNotFitError, 'schedule', /cannot step A: it has finished/],
    ['a broken definition', () => simulate({ scenario: { ...myLock, variants: [{ ...myLock.variants[0], id: 'Bad' }] } }), DefinitionError, 'variants[0].id', /an id/],
    ['an unknown expected kind', () => simulate({ scenario: 'get-then-del', expect: { violations: ['race' as never] } }), ArgumentError, 'expect.violations[0]', /a violation kind/],
    ['no scenario and no clients', () => simulate({}), ArgumentError, 'scenario', /give a scenario/],
  ];
  for (const [name, call, type, path, message] of cases) {
    it(`${name}: ${type.name} at "${path}"`, async () => {
      const error = await rejection(call());
      expect(error).toBeInstanceOf(type);
      expect(error.path).toBe(path);
      expect(error.message).toMatch(message);
    });
  }

  it('a broken definition lists every problem', async () => {
    const bad = { ...myLock, id: 'Bad', defaultVariant: 'none' };
    const error = (await rejection(simulate({ scenario: bad }))) as DefinitionError;
    expect(error.problems.map((p) => p.path)).toEqual(['id']);
    const semantic = (await rejection(simulate({ scenario: { ...myLock, defaultVariant: 'none', defaultSchedule: 'A Z' } }))) as DefinitionError;
    expect(semantic.problems.map((p) => p.path)).toEqual(['defaultVariant', 'defaultSchedule']);
  });

  it('explore searches a built-in lesson with the engine explorer and its declared bounds, as the CLI does', async () => {
    const found = await explore({ scenario: 'get-then-del', invariants: ['foreign-release'] });
    expect(found.violations[0]).toMatchObject({ kind: 'foreign-release', message: "A deleted B's lock" });
    const replay = await simulate({ scenario: 'get-then-del', schedule: found.violations[0].schedule });
    expect(replay.violations.map((v) => v.kind)).toContain('foreign-release');
    // The fix, proved within the lesson's declared bounds (docs/EXPLORER.md's table says the same).
    const proof = await explore({ scenario: 'get-then-del', variant: 'lua', invariants: ['foreign-release'] });
    expect(proof).toMatchObject({ violations: [], exhaustive: true });
    expect(proof.statesExplored).toBeGreaterThan(100);
    expect((await rejection(explore({ scenario: 'get-then-del', properties: { p: () => true } }))).path).toBe('properties');
  });

  it('explore checks its bounds', async () => {
    const client = async () => {};
    expect((await rejection(explore({ clients: { A: client }, depthMax: 0 }))).path).toBe('depthMax');
    expect((await rejection(explore({ clients: { A: client }, faults: { stalls: 1 } }))).path).toBe('faults.stallLengthsMs');
    expect((await rejection(explore({ clients: { A: client }, faults: { clients: ['Z'] } }))).path).toBe('faults.clients[0]');
  });
});
