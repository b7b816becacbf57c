// Goal: the program editor changes who runs and what they run: a third client running a program
// the scenario has (the next free letter, no other client's token changes), a client removed with
// its choices taken out of the schedule, and a step of any offered kind inserted at any position;
// each re-runs through the draft check and keeps the schedule and the cursor.
import { describe, expect, it, vi } from 'vitest';
import { definitionOfScenario } from '../../src/definition';
import { parseSchedule } from '../../src/engine/schedule';
import { findScenario } from '../../src/scenarios';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { addClient, copyableClients, nextClientId, scheduleWithout } from '../../src/ui/store/workbench-client-edits';
import { createInlineDraftCheckService } from '../../src/ui/worker/draft-check';

function store(schedule = 'A A A~5000 +4000 B +1000') {
  const s = createSimStore({ run: { scenarioId: 'get-then-del', schedule, cursor: null }, draftChecker: createInlineDraftCheckService() });
  s.getState().openWorkbench('program');
  return s;
}

describe('client edits (pure)', () => {
  it('names a new client with the next free letter, never the console', () => {
    expect(nextClientId(['A', 'B'])).toBe('C');
    expect(nextClientId(['A', 'C'])).toBe('B');
  });

  it('offers only clients the schedule starts and that start no helper', () => {
    const watchdog = definitionOfScenario(findScenario('watchdog'));
    const variant = watchdog.variants[0];
    const copyable = copyableClients(watchdog, variant.id);
    for (const client of variant.clients) {
      const helperOrStarter = client.startedBy !== undefined || client.program.some((s) => s.op === 'start');
      expect(copyable.includes(client.id)).toBe(!helperOrStarter);
    }
    expect(addClient(watchdog, variant.id, 'W')).toBeNull();
  });

  it('drops a removed client\'s choices and keeps the cursor among the rest', () => {
    const choices = parseSchedule('A B A~10 !B +5 B A');
    expect(scheduleWithout(choices, 4, 'B')).toEqual({ schedule: 'A A~10 +5 A', cursor: 2, dropped: 3 });
  });
});

describe('client and step edits (store)', () => {
  it('adds a third client that runs A\'s program when the schedule steps it', async () => {
    const s = store();
    const tokensBefore = { ...s.getState().tokens };
    await s.getState().applyClientAdd('A');
    expect(s.getState().workbench.status).toBe('idle');
    expect(s.getState().clientIds).toEqual(['A', 'B', 'C']);
    expect(s.getState().schedule).toBe('A A A~5000 +4000 B +1000');
    expect(s.getState().tokens.A).toBe(tokensBefore.A);
    expect(s.getState().tokens.B).toBe(tokensBefore.B);
    s.getState().stepClient('C');
    const last = s.getState().lastStepEvents.find((e) => e.kind === 'command');
    expect(last).toMatchObject({ clientId: 'C', argv: ['SET', 'lock', s.getState().tokens.C, 'NX', 'PX', '5000'] });
  });

  it('removes a client and its choices from the schedule', async () => {
    const s = store();
    await s.getState().applyClientRemove('B');
    expect(s.getState().workbench.status).toBe('idle');
    expect(s.getState().clientIds).toEqual(['A']);
    expect(s.getState().schedule).toBe('A A A~5000 +4000 +1000');
    expect(s.getState().violations).toEqual([]);
  });

  it('inserts an offered step at a chosen position', async () => {
    const s = store('A');
    // The editor's options load with its code (a dynamic import), just after the workbench opens.
    await vi.waitFor(() => expect(s.getState().workbench.stepOptions.length).toBeGreaterThan(0));
    const options = s.getState().workbench.stepOptions;
    const pttl = options.find((o) => o.kind === 'command' && o.text.startsWith('GET'));
    expect(options.map((o) => o.kind)).toEqual(expect.arrayContaining(['command', 'script', 'work', 'sleep']));
    if (!pttl) throw new Error('no GET offered');
    await s.getState().applyProgramEdit({ kind: 'insert', clientId: 'A', pc: 0, step: pttl.step }, false);
    expect(s.getState().workbench.status).toBe('idle');
    expect(s.getState().runInfo.programs.A[0].code).toMatch(/^GET lock/);
    expect(s.getState().runInfo.programs.B[0].code).toMatch(/^SET lock/);
    expect(s.getState().lastStepEvents.find((e) => e.kind === 'command')).toMatchObject({ clientId: 'A', argv: ['GET', 'lock'] });
  });
});
