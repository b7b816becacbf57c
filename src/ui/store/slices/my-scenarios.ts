/**
 * The user's own scenarios: save the scenario on screen (a lesson or an edited copy) with its
 * variant and schedule, list them beside the built-in ones, open, rename, duplicate, delete (with
 * undo). Every change reads the stored document first and applies itself to what it finds, so a
 * second tab's work is never overwritten (and the page says so when it merged one). What could not
 * be read is kept aside by the storage and reported, never dropped.
 */
import { parseDefinition } from '../../../definition';
import { myScenarioCountMax, myScenarioNameCharsMax, nextMyScenarioId, readMyScenarios, writeMyScenarios, type MyScenario } from '../my-scenarios';
import type { MyScenariosPort, SliceStore } from '../ports';
import type { MyScenarioStorage } from '../types';

export interface MyScenarioSummary {
  readonly id: string;
  readonly name: string;
}

export interface MyScenariosSlice {
  readonly myScenarios: readonly MyScenarioSummary[];
  /** The last deleted entry, while it can be brought back. */
  readonly myScenarioUndo: MyScenarioSummary | null;
  /** The user's scenario on screen (opened or just saved), or null. */
  readonly myScenarioId: string | null;
  saveAsMyScenario(name: string): void;
  openMyScenario(id: string): void;
  renameMyScenario(id: string, name: string): void;
  duplicateMyScenario(id: string): void;
  deleteMyScenario(id: string): void;
  undoDeleteMyScenario(): void;
  /** Re-reads the stored list (another tab wrote it). */
  reloadMyScenarios(): void;
  /** The stored entry of this name (read fresh: another tab may have added it), or null. */
  findMyScenarioByName(name: string): MyScenarioSummary | null;
  /**
   * Stores a scenario (an imported file): a new entry, or in place of `replaceId`. Returns its id,
   * or null when it could not be written (the notice says why). Opens nothing.
   */
  putMyScenario(entry: Omit<MyScenario, 'id'>, replaceId: string | null): string | null;
}

export interface MyScenariosInit {
  /** Where the user's own scenarios live (localStorage in the page); without it they cannot be saved. */
  readonly myScenarioStorage?: MyScenarioStorage | null;
}

const summaries = (entries: readonly MyScenario[]): MyScenarioSummary[] => entries.map((e) => ({ id: e.id, name: e.name }));

export function createMyScenariosSlice(port: MyScenariosPort, init: MyScenariosInit): (store: SliceStore<MyScenariosSlice>) => MyScenariosSlice {
  const storage = init.myScenarioStorage ?? null;
  let knownRevision = 0;
  let deleted: { entry: MyScenario; index: number } | null = null;
  /** The last commit found another tab's write (its notice must not be replaced by a plain "saved"). */
  let merged = false;

  return ({ set, get }) => {
    const notice: MyScenariosPort['notify'] = (n) => port.notify(n);

    /** Reads the document; keeps aside and reports what could not be read. */
    const read = () => {
      const result = readMyScenarios(storage?.read() ?? null);
      if (result.corrupt.length > 0) {
        storage?.keepAside(result.corrupt);
        notice({ key: 'myScenariosCorrupt', params: { n: result.corrupt.length, reason: result.corrupt[0].reason.slice(0, 300) }, tone: 'warning' });
      }
      return result;
    };

    /**
     * Applies `change` to the list as stored now and writes it with the next revision. Returns the
     * written entries, or null when nothing could be written (reported).
     */
    const commit = (change: (entries: readonly MyScenario[]) => MyScenario[] | null): readonly MyScenario[] | null => {
      if (storage === null) {
        notice({ key: 'myScenariosNoStorage', tone: 'warning' });
        return null;
      }
      const fresh = read();
      const next = change(fresh.entries);
      if (next === null) return null;
      if (next.length > myScenarioCountMax) {
        notice({ key: 'myScenariosFull', params: { n: myScenarioCountMax }, tone: 'warning' });
        return null;
      }
      const failure = storage.write(writeMyScenarios({ revision: fresh.revision + 1, entries: next }));
      if (failure !== null) {
        notice({ key: 'myScenariosWriteFailed', params: { detail: failure.slice(0, 300) }, tone: 'warning' });
        return null;
      }
      merged = fresh.revision !== knownRevision;
      if (merged) notice({ key: 'myScenariosMerged', tone: 'info' });
      knownRevision = fresh.revision + 1;
      set({ myScenarios: summaries(next) });
      return next;
    };

    const cleanName = (name: string) => name.trim().slice(0, myScenarioNameCharsMax);

    const initial = storage ? readMyScenarios(storage.read()) : { revision: 0, entries: [], corrupt: [] };
    knownRevision = initial.revision;
    if (initial.corrupt.length > 0) storage?.keepAside(initial.corrupt);
    storage?.subscribe(() => get().reloadMyScenarios());

    return {
      myScenarios: summaries(initial.entries),
      myScenarioUndo: null,
      myScenarioId: null,
      saveAsMyScenario(name) {
        const title = cleanName(name);
        if (title === '') return;
        const definition = port.definitionOnScreen();
        if (definition === null) {
          notice({ key: 'myScenariosNotExpressible', tone: 'warning' });
          return;
        }
        let id = '';
        const { variantId, schedule, seed } = port.run();
        const written = commit((entries) => {
          id = nextMyScenarioId(entries);
          return [...entries, { id, name: title, variant: variantId, schedule, seed, definition: { ...definition, id, title } }];
        });
        if (!written) return;
        if (!merged) notice({ key: 'myScenarioSaved', params: { name: title }, tone: 'info' });
        set({ myScenarioId: id });
      },
      openMyScenario(id) {
        const entry = read().entries.find((e) => e.id === id);
        if (!entry) return;
        const parsed = parseDefinition(entry.definition);
        if (!parsed.ok) return; // read() validated it; a race with another tab finds it next time.
        // The page loads the Lua engine on demand: open the entry once it is there.
        if (!port.lua.ready()) {
          void port.lua.load().then(
            () => get().openMyScenario(id),
            (error: unknown) => notice({ key: 'actionRefused', params: { detail: error instanceof Error ? error.message : String(error) }, tone: 'warning' }),
          );
          return;
        }
        const result = port.loadRun({
          scenarioId: entry.id,
          variantId: parsed.scenario.variants.some((v) => v.id === entry.variant) ? entry.variant : undefined,
          seed: entry.seed,
          schedule: entry.schedule,
          cursor: null,
          cutToFit: true,
          custom: { scenario: parsed.scenario, definition: parsed.definition },
        });
        if (result.ok) set({ myScenarioId: id });
      },
      renameMyScenario(id, name) {
        const title = cleanName(name);
        if (title === '') return;
        commit((entries) => (entries.some((e) => e.id === id) ? entries.map((e) => (e.id === id ? { ...e, name: title, definition: { ...e.definition, title } } : e)) : null));
      },
      duplicateMyScenario(id) {
        commit((entries) => {
          const source = entries.find((e) => e.id === id);
          if (!source) return null;
          const copyId = nextMyScenarioId(entries);
          const name = cleanName(`${source.name} (2)`);
          return [...entries, { ...source, id: copyId, name, definition: { ...source.definition, id: copyId, title: name } }];
        });
      },
      deleteMyScenario(id) {
        let removed: { entry: MyScenario; index: number } | null = null;
        const written = commit((entries) => {
          const index = entries.findIndex((e) => e.id === id);
          if (index < 0) return null;
          removed = { entry: entries[index], index };
          return entries.filter((e) => e.id !== id);
        });
        if (written && removed) {
          deleted = removed;
          set({ myScenarioUndo: { id, name: (removed as { entry: MyScenario }).entry.name } });
        }
      },
      undoDeleteMyScenario() {
        const undo = deleted;
        if (!undo) return;
        const written = commit((entries) => {
          const entry = entries.some((e) => e.id === undo.entry.id) ? { ...undo.entry, id: nextMyScenarioId(entries) } : undo.entry;
          const out = [...entries];
          out.splice(Math.min(undo.index, out.length), 0, entry);
          return out;
        });
        if (written) {
          deleted = null;
          set({ myScenarioUndo: null });
        }
      },
      reloadMyScenarios() {
        const result = read();
        knownRevision = result.revision;
        set({ myScenarios: summaries(result.entries) });
      },
      findMyScenarioByName(name) {
        const entry = read().entries.find((e) => e.name === cleanName(name));
        return entry ? { id: entry.id, name: entry.name } : null;
      },
      putMyScenario(entry, replaceId) {
        const title = cleanName(entry.name) || entry.definition.id;
        let id = '';
        const written = commit((entries) => {
          const at = replaceId === null ? -1 : entries.findIndex((e) => e.id === replaceId);
          id = at === -1 ? nextMyScenarioId(entries) : entries[at].id;
          const stored = { ...entry, id, name: title, definition: { ...entry.definition, id, title } };
          return at === -1 ? [...entries, stored] : entries.map((e, i) => (i === at ? stored : e));
        });
        return written ? id : null;
      },
    };
  };
}
