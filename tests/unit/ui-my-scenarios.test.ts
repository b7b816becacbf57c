// Goal: the user's own scenarios survive as a versioned, validated document: save, list, open,
// rename, duplicate, delete and undo; a bad entry or a document from a newer Lockstep is kept
// aside and reported, never dropped; a second tab's write is merged, never overwritten; and any
// stored text at all reads without an exception (fast-check).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { definitionOfScenario } from '../../src/definition';
import { findScenario } from '../../src/scenarios';
import { memoryMyScenarioStorage } from '../../src/ui/share/my-scenarios-storage';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { readMyScenarios, writeMyScenarios } from '../../src/ui/store/my-scenarios';
import { runs } from '../support/size';

const definition = { ...definitionOfScenario(findScenario('get-then-del')), id: 'my-1', title: 'Mine' };
const entry = { id: 'my-1', name: 'Mine', variant: 'lua', schedule: 'A A', definition };

function page(text: string | null = null) {
  const storage = memoryMyScenarioStorage(text);
  const store = createSimStore({ run: { scenarioId: 'get-then-del' }, myScenarioStorage: storage });
  return { storage, store };
}

describe('my scenarios: the document', () => {
  it('round-trips entries, with their definitions validated again', () => {
    const read = readMyScenarios(writeMyScenarios({ revision: 3, entries: [entry] }));
    expect(read.corrupt).toEqual([]);
    expect(read.revision).toBe(3);
    expect(read.entries.map((e) => [e.id, e.name, e.variant, e.schedule])).toEqual([['my-1', 'Mine', 'lua', 'A A']]);
  });

  it('keeps a bad entry aside with its reason and reads the rest', () => {
    const text = JSON.stringify({ version: 1, revision: 1, scenarios: [entry, { ...entry, id: 'my-2', definition: { version: 1 } }, 42] });
    const read = readMyScenarios(text);
    expect(read.entries.map((e) => e.id)).toEqual(['my-1']);
    expect(read.corrupt).toHaveLength(2);
    expect(read.corrupt[0].reason).toMatch(/^definition\./);
    expect(read.corrupt[0].text).toContain('"my-2"');
  });

  it('refuses a newer version as a whole, keeping its text', () => {
    const text = JSON.stringify({ version: 2, revision: 9, scenarios: [entry] });
    const read = readMyScenarios(text);
    expect(read.entries).toEqual([]);
    expect(read.corrupt).toEqual([{ text, reason: 'version 2 is newer than this Lockstep reads (1)' }]);
  });

  it('any stored text reads without throwing (fuzz)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ version: 1, revision: 0, scenarios: [v] }))), (text) => {
        const read = readMyScenarios(text);
        expect(read.entries.length + read.corrupt.length).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('my scenarios: the store', () => {
  it('saves the scenario on screen with its variant and schedule, and opens it after a reload', () => {
    const first = page();
    first.store.getState().selectVariant('lua');
    first.store.getState().saveAsMyScenario('  My <img src=x onerror=alert(1)> lock  ');
    expect(first.store.getState().myScenarios).toEqual([{ id: 'my-1', name: 'My <img src=x onerror=alert(1)> lock' }]);
    // A reload: a new store on the same storage.
    const second = createSimStore({ run: { scenarioId: 'plain-del' }, myScenarioStorage: first.storage });
    expect(second.getState().myScenarios.map((e) => e.id)).toEqual(['my-1']);
    second.getState().openMyScenario('my-1');
    expect(second.getState().scenarioId).toBe('my-1');
    expect(second.getState().variantId).toBe('lua');
    expect(second.getState().schedule).toBe('A A A~5000 +4000 B +1000');
    expect(second.getState().violations).toEqual([]);
  });

  it('renames, duplicates, deletes and undoes the delete', () => {
    const { store } = page();
    store.getState().saveAsMyScenario('One');
    store.getState().duplicateMyScenario('my-1');
    store.getState().renameMyScenario('my-2', 'Two');
    expect(store.getState().myScenarios).toEqual([{ id: 'my-1', name: 'One' }, { id: 'my-2', name: 'Two' }]);
    store.getState().deleteMyScenario('my-1');
    expect(store.getState().myScenarios.map((e) => e.id)).toEqual(['my-2']);
    expect(store.getState().myScenarioUndo).toEqual({ id: 'my-1', name: 'One' });
    store.getState().undoDeleteMyScenario();
    expect(store.getState().myScenarios.map((e) => e.id)).toEqual(['my-1', 'my-2']);
  });

  it('a second tab’s write is merged, not overwritten, and the page says so', () => {
    const { storage, store } = page();
    store.getState().saveAsMyScenario('Mine');
    // Another tab saved its own scenario meanwhile (without a storage event reaching this one yet).
    const other = readMyScenarios(storage.read());
    storage.text = writeMyScenarios({ revision: other.revision + 1, entries: [...other.entries, { ...entry, id: 'my-7', name: 'Theirs' }] });
    store.getState().saveAsMyScenario('Mine again');
    expect(store.getState().myScenarios.map((e) => e.name)).toEqual(['Mine', 'Theirs', 'Mine again']);
    expect(store.getState().notice?.key).toBe('myScenariosMerged');
    // With the storage event, the list follows at once.
    storage.changeFromOtherTab(writeMyScenarios({ revision: 10, entries: [] }));
    expect(store.getState().myScenarios).toEqual([]);
  });

  it('keeps unreadable entries aside at start and reports them when the list is next read', () => {
    const text = JSON.stringify({ version: 1, revision: 1, scenarios: [entry, 'junk'] });
    const { storage, store } = page(text);
    expect(store.getState().myScenarios.map((e) => e.id)).toEqual(['my-1']);
    expect(storage.aside.map((a) => a.text)).toEqual(['"junk"']);
    store.getState().reloadMyScenarios();
    expect(store.getState().notice?.key).toBe('myScenariosCorrupt');
  });

  it('reports a write the storage refused (quota) and keeps the list as it was', () => {
    const { storage, store } = page();
    storage.write = () => 'QuotaExceededError: the quota has been exceeded';
    store.getState().saveAsMyScenario('Mine');
    expect(store.getState().myScenarios).toEqual([]);
    expect(store.getState().notice).toMatchObject({ key: 'myScenariosWriteFailed' });
  });
});
