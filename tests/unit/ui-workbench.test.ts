// Goal: the workbench edits the scenario on screen as data and replays the run: turning
// get-then-del's release into the Lua compare-and-delete removes the foreign release; a syntax
// error is found at its line before anything runs; an endless script is refused by the draft check
// (the budget stops it there) and never reaches the run; typed schedules replay or say where they
// are wrong.
import { describe, expect, it } from 'vitest';
import { COMPARE_AND_DELETE } from '../../src/scenarios/scripts';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { editProgram, editedId, setParam, setScriptSource, scriptsOf } from '../../src/ui/store/workbench-edits';
import { definitionOfScenario } from '../../src/definition';
import { findScenario } from '../../src/scenarios';
import { createInlineDraftCheckService } from '../../src/ui/worker/draft-check';
import type { DraftCheckService } from '../../src/ui/worker/draft-check-protocol';

function store(draftChecker: DraftCheckService = createInlineDraftCheckService()) {
  const s = createSimStore({ run: { scenarioId: 'get-then-del', cursor: null }, draftChecker });
  s.getState().openWorkbench('program');
  return s;
}

/** A's program lines by their code, to find a step's pc. */
function pcOf(s: ReturnType<typeof store>, clientId: string, code: RegExp): number {
  const line = s.getState().runInfo.programs[clientId].find((l) => code.test(l.code));
  if (!line) throw new Error(`no step ${code} in ${clientId}'s program`);
  return line.pc;
}

describe('workbench edits', () => {
  it('turns the GET-then-DEL release into the compare-and-delete script: the violation disappears', async () => {
    const s = store();
    expect(s.getState().violations.map((v) => v.violation)).toContain('foreign-release');
    // Removing the GET first is refused: the `if` still reads its reply (${current}).
    await s.getState().applyProgramEdit({ kind: 'remove', clientId: 'A', pc: pcOf(s, 'A', /^GET/) }, true);
    expect(s.getState().workbench.status).toBe('invalid');
    expect(s.getState().workbench.problems).toMatch(/variants\[0\]\.clients\[0\]\.program\[7\]\.when\.left: \$\{current\}/);
    await s.getState().applyProgramEdit({ kind: 'remove', clientId: 'A', pc: pcOf(s, 'A', /^if \$\{current\}/) }, true);
    await s.getState().applyProgramEdit({ kind: 'remove', clientId: 'A', pc: pcOf(s, 'A', /^GET/) }, true);
    await s.getState().applyProgramEdit({ kind: 'callScript', clientId: 'A', pc: pcOf(s, 'A', /^DEL/), script: 'compareAndDelete' }, true);
    const state = s.getState();
    expect(state.workbench.status).toBe('idle');
    expect(state.scenarioId).toBe('get-then-del-edited');
    expect(state.violations).toEqual([]);
    expect(state.runInfo.programs.A.map((l) => l.code).filter((c) => /^(GET|DEL|if \$\{current)/.test(c))).toEqual([]);
    // Both clients ran the same program, so both changed.
    expect(state.runInfo.programs.B.some((l) => /^EVAL/.test(l.code))).toBe(true);
    // The schedule and the cursor stayed.
    expect(state.schedule).toBe('A A A~5000 +4000 B +1000');
    expect(state.cursor).toBe(state.length);
  });

  it('finds a syntax error at its line before running, and runs nothing', () => {
    const s = store();
    const eventsBefore = s.getState().events;
    const problem = s.getState().checkScript('local v = redis.call("GET", KEYS[1])\nif v == ARGV[1] then\n  return redis.call("DEL", KEYS[1])\n');
    expect(problem?.line).toBe(4);
    expect(problem?.message).toMatch(/^ERR Error compiling script .*user_script:4: 'end' expected/);
    expect(s.getState().checkScript(COMPARE_AND_DELETE.source)).toBeNull();
    expect(s.getState().events).toBe(eventsBefore);
  });

  it('refuses an endless script the budget stopped in the draft check, and keeps the run', async () => {
    const stops = [{ variantId: 'lua', step: 1, clientId: 'A', message: "ERR Script exceeded Lockstep's work budget (80000000 units: Lua instructions and the work done on its behalf)" }];
    const checker: DraftCheckService = { check: (r) => Promise.resolve({ id: r.id, stops, failure: null }), dispose() {} };
    const s = store(checker);
    const before = s.getState().runLog;
    await s.getState().applyScript('compareAndDelete', 'while true do end');
    expect(s.getState().workbench.status).toBe('refused');
    expect(s.getState().workbench.stops).toEqual(stops);
    expect(s.getState().runLog).toBe(before);
    expect(s.getState().scenarioId).toBe('get-then-del');
  });

  it('an invalid edit is reported with its path and changes nothing', async () => {
    const s = store();
    await s.getState().applyParam('ttlMs', 'x'.repeat(5000));
    expect(s.getState().workbench.status).toBe('invalid');
    expect(s.getState().workbench.problems).toMatch(/params\.ttlMs/);
    expect(s.getState().scenarioId).toBe('get-then-del');
  });

  it('a shorter lease replays the same schedule under the new TTL', async () => {
    const s = store();
    await s.getState().applyParam('ttlMs', '1000');
    expect(s.getState().workbench.params.find((p) => p.name === 'ttlMs')?.value).toBe('1000');
    expect(s.getState().events.some((e) => e.kind === 'command' && e.argv.join(' ').endsWith('PX 1000'))).toBe(true);
  });

  it('a newer edit supersedes one still being checked', async () => {
    let release: () => void = () => {};
    const slow: DraftCheckService = {
      check: (r) => new Promise((resolve) => { release = () => resolve({ id: r.id, stops: [], failure: null }); }),
      dispose() {},
    };
    const s = store(slow);
    const first = s.getState().applyParam('ttlMs', '1000');
    expect(s.getState().workbench.status).toBe('checking');
    const releaseFirst = release;
    const second = s.getState().applyParam('ttlMs', '3000');
    release();
    releaseFirst();
    await Promise.all([first, second]);
    expect(s.getState().workbench.params.find((p) => p.name === 'ttlMs')?.value).toBe('3000');
  });
});

describe('workbench schedule text', () => {
  it('replays a typed schedule and shows its end', () => {
    const s = store();
    s.getState().applyScheduleText('A A +6000 B');
    expect(s.getState().schedule).toBe('A A +6000 B');
    expect(s.getState().cursor).toBe(4);
    expect(s.getState().workbench.scheduleProblem).toBeNull();
  });

  it('points at the bad token and keeps the run', () => {
    const s = store();
    s.getState().applyScheduleText('A A +6000 C');
    const problem = s.getState().workbench.scheduleProblem;
    expect(problem?.offset).toBe(10);
    expect(problem?.length).toBe(1);
    expect(problem?.message).toBe('unknown client "C" (clients: A, B)');
    expect(s.getState().schedule).toBe('A A A~5000 +4000 B +1000');
  });

  it('refuses a schedule too long to read, with a message', () => {
    const s = store();
    s.getState().applyScheduleText('A '.repeat(70_000));
    expect(s.getState().workbench.scheduleProblem?.message).toMatch(/at most 131072/);
  });
});

describe('workbench-edits (pure)', () => {
  const base = definitionOfScenario(findScenario('get-then-del'));
  it('a removed labelled step hands its label on, so jumps still land', () => {
    const A = base.variants[0].clients[0].program;
    const at = A.findIndex((s) => s.label === 'locked');
    const next = editProgram(base, 'get-then-del', { kind: 'remove', clientId: 'A', pc: at }, false);
    expect(next.variants[0].clients[0].program[at].label).toBe('locked');
    // B was not touched without sameForAll.
    expect(next.variants[0].clients[1].program).toBe(base.variants[0].clients[1].program);
  });
  it('edits a script where the variant reads it, and a new name becomes a scenario script', () => {
    const next = setScriptSource(base, 'lua', 'mine', 'return 1');
    expect(scriptsOf(next, 'lua').map((s) => s.name)).toEqual(['compareAndDelete', 'mine']);
    expect(setParam(base, 'lua', 'ttlMs', '42').params?.ttlMs).toBe(42);
    expect(base.params?.ttlMs).not.toBe(42);
  });
  it('an edited id stays a valid id', () => {
    expect(editedId('a'.repeat(64))).toHaveLength(64);
    expect(editedId('x-edited')).toBe('x-edited');
  });
});

describe('draft check (the worker side)', () => {
  it('reports an endless script the work budget stopped, per variant, with Redis-style error text', async () => {
    const definition = setScriptSource(definitionOfScenario(findScenario('get-then-del')), 'lua', 'compareAndDelete', 'while true do end');
    const report = await createInlineDraftCheckService().check({ id: 7, definition, seed: 1, schedule: 'A A' });
    expect(report.failure).toBeNull();
    expect(report.stops).toEqual([{ variantId: 'lua', step: 1, clientId: 'A', message: expect.stringMatching(/^ERR Script exceeded Lockstep's work budget/) }]);
  }, 120_000);
});
