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
const cleanName = (name: string) => name.trim().slice(0, myScenarioNameCharsMax);

/** The stored list of one store: read fresh before every change, written with the next revision. */
interface StoredList {
  /** Reads the document; keeps aside and reports what could not be read. */
  read(): ReturnType<typeof readMyScenarios>;
  /**
   * Applies `change` to the list as stored now and writes it with the next revision. Returns the
   * written entries, or null when nothing could be written (reported).
   */
  commit(change: (entries: readonly MyScenario[]) => MyScenario[] | null): readonly MyScenario[] | null;
  /** The last commit found another tab's write (its notice must not be replaced by a plain "saved"). */
  merged(): boolean;
  /** The revision this store last read or wrote. */
  known(revision: number): void;
}

function storedList(storage: MyScenarioStorage | null, notify: MyScenariosPort['notify'], written: (entries: readonly MyScenario[]) => void, initialRevision: number): StoredList {
  let knownRevision = initialRevision;
  let merged = false;
  const read = () => {
    const result = readMyScenarios(storage?.read() ?? null);
    if (result.corrupt.length > 0) {
      storage?.keepAside(result.corrupt);
      notify({ key: 'myScenariosCorrupt', params: { n: result.corrupt.length, reason: result.corrupt[0].reason.slice(0, 300) }, tone: 'warning' });
    }
    return result;
  };
  const commit: StoredList['commit'] = (change) => {
    if (storage === null) {
      notify({ key: 'myScenariosNoStorage', tone: 'warning' });
      return null;
    }
    const fresh = read();
    const next = change(fresh.entries);
    if (next === null) return null;
    if (next.length > myScenarioCountMax) {
      notify({ key: 'myScenariosFull', params: { n: myScenarioCountMax }, tone: 'warning' });
      return null;
    }
    const failure = storage.write(writeMyScenarios({ revision: fresh.revision + 1, entries: next }));
    if (failure !== null) {
      notify({ key: 'myScenariosWriteFailed', params: { detail: failure.slice(0, 300) }, tone: 'warning' });
      return null;
    }
    merged = fresh.revision !== knownRevision;
    if (merged) notify({ key: 'myScenariosMerged', tone: 'info' });
    knownRevision = fresh.revision + 1;
    written(next);
    return next;
  };
  return { read, commit, merged: () => merged, known: (revision) => void (knownRevision = revision) };
}

interface MyScenariosContext {
  readonly port: MyScenariosPort;
  readonly list: StoredList;
  readonly store: SliceStore<MyScenariosSlice>;
}

/** Save the scenario on screen as the user's; open one of theirs as the run. */
function saveAndOpen({ port, list, store: { set, get } }: MyScenariosContext): Pick<MyScenariosSlice, 'saveAsMyScenario' | 'openMyScenario'> {
  return {
    saveAsMyScenario(name) {
      const title = cleanName(name);
      if (title === '') return;
      const definition = port.definitionOnScreen();
      if (definition === null) return port.notify({ key: 'myScenariosNotExpressible', tone: 'warning' });
      let id = '';
      const { variantId, schedule, seed } = port.run();
      const written = list.commit((entries) => {
        id = nextMyScenarioId(entries);
        return [...entries, { id, name: title, variant: variantId, schedule, seed, definition: { ...definition, id, title } }];
      });
      if (!written) return;
      if (!list.merged()) port.notify({ key: 'myScenarioSaved', params: { name: title }, tone: 'info' });
      set({ myScenarioId: id });
    },
    openMyScenario(id) {
      const entry = list.read().entries.find((e) => e.id === id);
      if (!entry) return;
      const parsed = parseDefinition(entry.definition);
      if (!parsed.ok) return; // read() validated it; a race with another tab finds it next time.
      // The page loads the Lua engine on demand: open the entry once it is there.
      if (!port.lua.ready()) {
        void port.lua.load().then(
          () => get().openMyScenario(id),
          (error: unknown) => port.notify({ key: 'actionRefused', params: { detail: error instanceof Error ? error.message : String(error) }, tone: 'warning' }),
        );
        return;
      }
      const variantId = parsed.scenario.variants.some((v) => v.id === entry.variant) ? entry.variant : undefined;
      const custom = { scenario: parsed.scenario, definition: parsed.definition };
      const result = port.loadRun({ scenarioId: entry.id, variantId, seed: entry.seed, schedule: entry.schedule, cursor: null, cutToFit: true, custom });
      if (result.ok) set({ myScenarioId: id });
    },
  };
}

/** Rename, duplicate, delete (with undo): each a change of the stored list. */
function listEdits({ list, store: { set } }: MyScenariosContext): Pick<MyScenariosSlice, 'renameMyScenario' | 'duplicateMyScenario' | 'deleteMyScenario' | 'undoDeleteMyScenario'> {
  let deleted: { entry: MyScenario; index: number } | null = null;
  return {
    renameMyScenario(id, name) {
      const title = cleanName(name);
      if (title === '') return;
      list.commit((entries) => (entries.some((e) => e.id === id) ? entries.map((e) => (e.id === id ? { ...e, name: title, definition: { ...e.definition, title } } : e)) : null));
    },
    duplicateMyScenario(id) {
      list.commit((entries) => {
        const source = entries.find((e) => e.id === id);
        if (!source) return null;
        const copyId = nextMyScenarioId(entries);
        const name = cleanName(`${source.name} (2)`);
        return [...entries, { ...source, id: copyId, name, definition: { ...source.definition, id: copyId, title: name } }];
      });
    },
    deleteMyScenario(id) {
      let removed: { entry: MyScenario; index: number } | null = null;
      const written = list.commit((entries) => {
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
      const written = list.commit((entries) => {
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
  };
}

/** Read the list again (another tab wrote it), find an entry by name, store an imported one. */
function listLookups({ list, store: { set } }: MyScenariosContext): Pick<MyScenariosSlice, 'reloadMyScenarios' | 'findMyScenarioByName' | 'putMyScenario'> {
  return {
    reloadMyScenarios() {
      const result = list.read();
      list.known(result.revision);
      set({ myScenarios: summaries(result.entries) });
    },
    findMyScenarioByName(name) {
      const entry = list.read().entries.find((e) => e.name === cleanName(name));
      return entry ? { id: entry.id, name: entry.name } : null;
    },
    putMyScenario(entry, replaceId) {
      const title = cleanName(entry.name) || entry.definition.id;
      let id = '';
      const written = list.commit((entries) => {
        const at = replaceId === null ? -1 : entries.findIndex((e) => e.id === replaceId);
        id = at === -1 ? nextMyScenarioId(entries) : entries[at].id;
        const stored = { ...entry, id, name: title, definition: { ...entry.definition, id, title } };
        return at === -1 ? [...entries, stored] : entries.map((e, i) => (i === at ? stored : e));
      });
      return written ? id : null;
    },
  };
}

export function createMyScenariosSlice(port: MyScenariosPort, init: MyScenariosInit): (store: SliceStore<MyScenariosSlice>) => MyScenariosSlice {
  const storage = init.myScenarioStorage ?? null;
  return (store) => {
    const initial = storage ? readMyScenarios(storage.read()) : { revision: 0, entries: [], corrupt: [] };
    if (initial.corrupt.length > 0) storage?.keepAside(initial.corrupt);
    const list = storedList(storage, (notice) => port.notify(notice), (entries) => store.set({ myScenarios: summaries(entries) }), initial.revision);
    storage?.subscribe(() => store.get().reloadMyScenarios());
    const ctx: MyScenariosContext = { port, list, store };
    return {
      myScenarios: summaries(initial.entries),
      myScenarioUndo: null,
      myScenarioId: null,
      ...saveAndOpen(ctx),
      ...listEdits(ctx),
      ...listLookups(ctx),
    };
  };
}
