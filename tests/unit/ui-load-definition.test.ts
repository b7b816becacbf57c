// Goal: `window.lockstep.load({ definition })` shows a scenario definition like a built-in (same
// trace as the Node API), keeps it out of the saved session, gives the worker the definition to
// replay the other variants, and refuses a bad definition or spec with every problem's path while
// changing nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/api';
import { definitionOfScenario } from '../../src/definition';
import { findScenario } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { installTestApi, type LockstepApi } from '../../src/ui/test-api';
import type { OutcomeReport, OutcomeRequest, OutcomeService } from '../../src/ui/worker/protocol';
import { computeOutcomes } from '../../src/ui/worker/outcomes';
import { runs } from '../support/size';

const mine = {
  version: 1,
  id: 'my-release',
  title: 'My release',
  defaultSchedule: 'A +6000 B',
  variants: [
    {
      id: 'naive',
      clients: [
        { id: 'A', program: [{ op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '5000'] }, { op: 'command', argv: ['DEL', 'lock'] }] },
        { id: 'B', program: [{ op: 'command', argv: ['SET', 'lock', '${token}', 'NX', 'PX', '5000'] }] },
      ],
    },
    { id: 'quiet', clients: [{ id: 'A', program: [] }, { id: 'B', program: [] }] },
  ],
};

function page(): { api: LockstepApi; store: ReturnType<typeof createSimStore>; requests: OutcomeRequest[] } {
  const requests: OutcomeRequest[] = [];
  const outcomes: OutcomeService = {
    request(request, onReport: (report: OutcomeReport) => void) {
      requests.push(request);
      onReport(computeOutcomes(request, 'page'));
    },
    dispose() {},
  };
  const store = createSimStore({ outcomes });
  const win = {} as Window;
  installTestApi(store, win);
  return { api: win.lockstep as LockstepApi, store, requests };
}

describe('lockstep.load({ definition })', () => {
  it('runs a definition: the same trace as simulate(), outside the saved session, the definition sent to the worker', async () => {
    const { api, store, requests } = page();
    expect(await api.load({ definition: mine, seed: 7 })).toEqual({ ok: true });
    const expected = await simulate({ scenario: mine, seed: 7 });
    expect(JSON.stringify(await api.trace())).toBe(JSON.stringify(expected.trace));
    expect(await api.state()).toMatchObject({ scenario: 'my-release', variant: 'naive', schedule: 'A +6000 B', cursor: 3 });
    expect(store.getState().persistRun).toBe(false);
    expect(requests.at(-1)?.definition?.id).toBe('my-release');
    const report = await api.outcomes();
    expect(report.outcomes.map((o) => o.variantId)).toEqual(['naive', 'quiet']);
    // Stepping on keeps the run out of the saved session too.
    store.getState().stepClient('B');
    expect(store.getState().persistRun).toBe(false);
  });

  it('a built-in exported as a definition gives the built-in trace', async () => {
    const { api } = page();
    expect(await api.load({ scenario: 'get-then-del', variant: 'lua' })).toEqual({ ok: true });
    const builtIn = JSON.stringify(await api.trace());
    expect(await api.load({ definition: definitionOfScenario(findScenario('get-then-del')), variant: 'lua' })).toEqual({ ok: true });
    expect(JSON.stringify(await api.trace())).toBe(builtIn);
  });

  const refusals: [string, unknown, string, RegExp][] = [
    ['a goto to no label', { definition: { ...mine, variants: [{ id: 'v', clients: [{ id: 'A', program: [{ op: 'goto', goto: 'x' }] }] }] } }, 'definition.variants[0].clients[0].program[0].goto', /no step of client A has the label "x"/],
    ['a definition that is not an object', { definition: 'nope' }, 'definition', /expected a scenario definition/],
    ['an unknown field in the spec', { definition: mine, sed: 3 }, 'sed', /unknown field/],
    ['both a scenario and a definition', { scenario: 'get-then-del', definition: mine }, '', /exactly one of scenario/],
    ['a schedule of the wrong type', { definition: mine, schedule: 3 }, 'schedule', /schedule text/],
  ];
  for (const [name, spec, path, message] of refusals) {
    it(`refuses ${name}, naming ${path || 'the spec'}, and changes nothing`, async () => {
      const { api } = page();
      const before = JSON.stringify(await api.trace());
      const result = await api.load(spec as Parameters<LockstepApi['load']>[0]);
      expect(result.ok).toBe(false);
      if (result.ok || !('problems' in result.error)) throw new Error('expected problems');
      expect(result.error.problems).toContainEqual({ path, message: expect.stringMatching(message) });
      expect(JSON.stringify(await api.trace())).toBe(before);
    });
  }

  // Seed pinned in the name: a failure replays with the same inputs.
  it('fuzz (seed 16): no spec or definition throws past load; a refusal names paths and changes nothing', async () => {
    const { api } = page();
    const step = fc.record({ op: fc.constantFrom('command', 'eval', 'goto', 'if', 'work', 'end', 'nope'), argv: fc.array(fc.string(), { maxLength: 3 }), goto: fc.string() }, { requiredKeys: ['op'] });
    const definition = fc.oneof(
      fc.anything(),
      fc.record({ version: fc.constantFrom(1, 2, '1'), id: fc.string(), variants: fc.array(fc.record({ id: fc.string(), clients: fc.array(fc.record({ id: fc.string(), program: fc.array(step, { maxLength: 3 }) }), { maxLength: 2 }) }), { maxLength: 2 }) }, { requiredKeys: [] }),
    );
    const spec = fc.record({ definition, variant: fc.option(fc.string(), { nil: undefined }), seed: fc.option(fc.oneof(fc.integer(), fc.double()), { nil: undefined }), schedule: fc.option(fc.oneof(fc.string(), fc.integer()), { nil: undefined }) }, { requiredKeys: [] });
    await fc.assert(
      fc.asyncProperty(fc.oneof(spec, fc.anything()), async (input) => {
        const before = JSON.stringify(await api.trace());
        const result = await api.load(input as Parameters<LockstepApi['load']>[0]);
        if (result.ok) return;
        expect(typeof result.error.detail).toBe('string');
        if ('problems' in result.error) expect(result.error.problems.length).toBeGreaterThan(0);
        expect(JSON.stringify(await api.trace())).toBe(before);
      }),
      { seed: 16, numRuns: runs(300) },
    );
  });

  it('a schedule that does not fit the definition: the store reason, nothing changed', async () => {
    const { api } = page();
    const before = JSON.stringify(await api.trace());
    expect(await api.load({ definition: mine, variant: 'quiet', schedule: 'A A A' })).toMatchObject({ ok: false, error: { reason: 'schedule-does-not-fit' } });
    expect(await api.load({ definition: mine, variant: 'nope' })).toMatchObject({ ok: false, error: { reason: 'unknown-variant' } });
    expect(JSON.stringify(await api.trace())).toBe(before);
  });

  it('answers every malformed argument with { ok: false } and changes nothing (null, a number, an array, no scenario)', async () => {
    const { api } = page();
    const before = JSON.stringify(await api.trace());
    const load = api.load as (spec: unknown) => ReturnType<LockstepApi['load']>;
    for (const spec of [null, undefined, 42, 'get-then-del', [], {}, { scenario: 7 }, { scenario: 'get-then-del', seed: 'one' }]) {
      expect(await load(spec), JSON.stringify(spec)).toMatchObject({ ok: false, error: { reason: 'bad-spec' } });
    }
    expect(JSON.stringify(await api.trace())).toBe(before);
  });
});
