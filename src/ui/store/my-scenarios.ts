/**
 * The user's own scenarios as stored text: a versioned document read with a valibot schema, entry
 * by entry, so one bad entry never costs the others. Pure (text in, data out): the browser's
 * storage is reached only through `MyScenarioStorage` (src/ui/share/my-scenarios-storage.ts).
 *
 * Document, version 1: `{ "version": 1, "revision": n, "scenarios": [entry...] }`, an entry
 * `{ "id", "name", "variant", "schedule", "seed"?, "definition" }` (`seed` added compatibly: absent
 * means the default seed; the definition in the format of
 * docs/scenario-definition.schema.json, validated again when read). `revision` grows by one per
 * write: a tab that writes reads the document first and applies its change to what it finds, so
 * two tabs never overwrite each other's work (the page says when another tab changed the list).
 *
 * Reading never throws and never drops anything silently: an entry that does not validate, and a
 * whole document that cannot be read (bad JSON, a newer version), come back as `corrupt` with the
 * reason, for the caller to keep aside and report.
 */
import * as v from 'valibot';
import { definitionBounds, parseDefinition, type ScenarioDefinition } from '../../definition';

const MY_SCENARIOS_VERSION = 1;
/** Entries kept at most (each holds a whole definition; localStorage has a few MB). */
export const myScenarioCountMax = 100;
export const myScenarioNameCharsMax = 200;

export interface MyScenario {
  readonly id: string;
  readonly name: string;
  readonly variant: string;
  readonly schedule: string;
  /** The run's seed (absent in entries saved before it was kept: the default seed). */
  readonly seed?: number;
  readonly definition: ScenarioDefinition;
}

export interface MyScenarioList {
  readonly revision: number;
  readonly entries: readonly MyScenario[];
}

/** Something read that could not be used: its text kept whole, and why. */
interface CorruptEntry {
  readonly text: string;
  readonly reason: string;
}

export interface ReadResult extends MyScenarioList {
  readonly corrupt: readonly CorruptEntry[];
}

const documentSchema = v.object({
  version: v.pipe(v.number(), v.integer()),
  revision: v.pipe(v.number(), v.integer(), v.minValue(0)),
  scenarios: v.pipe(v.array(v.unknown()), v.maxLength(myScenarioCountMax * 2)),
});

const entrySchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^my-[a-z0-9-]{1,40}$/, 'an id such as my-3')),
  name: v.pipe(v.string(), v.minLength(1, 'a name'), v.maxLength(myScenarioNameCharsMax, `at most ${myScenarioNameCharsMax} characters`)),
  variant: v.pipe(v.string(), v.maxLength(definitionBounds.nameCharsMax)),
  schedule: v.pipe(v.string(), v.maxLength(definitionBounds.scheduleCharsMax)),
  seed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0xffff_ffff))),
  definition: v.unknown(),
});

/**
 * Upgrades from older document versions, by the version they upgrade from. Version 1 is the
 * first, so there is none yet; a future version 2 adds `1: (doc) => ...` here and reads every
 * older document through the chain.
 */
const migrations: Readonly<Record<number, (doc: { version: number; revision: number; scenarios: unknown[] }) => { version: number; revision: number; scenarios: unknown[] }>> = {};

function issuesText(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = (issue.path ?? []).map((p) => String((p as { key: unknown }).key)).join('.');
      return path === '' ? issue.message : `${path}: ${issue.message}`;
    })
    .join('; ');
}

function readEntry(raw: unknown): { ok: true; entry: MyScenario } | { ok: false; reason: string } {
  const parsed = v.safeParse(entrySchema, raw);
  if (!parsed.success) return { ok: false, reason: issuesText(parsed.issues) };
  const definition = parseDefinition(parsed.output.definition);
  if (!definition.ok) return { ok: false, reason: definition.problems.slice(0, 5).map((p) => `definition.${p.path}: ${p.message}`).join('; ') };
  return { ok: true, entry: { ...parsed.output, definition: definition.definition } };
}

/** Reads the stored document (null: nothing stored yet). */
export function readMyScenarios(text: string | null): ReadResult {
  if (text === null || text === '') return { revision: 0, entries: [], corrupt: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { revision: 0, entries: [], corrupt: [{ text, reason: `not JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  const parsed = v.safeParse(documentSchema, raw);
  if (!parsed.success) return { revision: 0, entries: [], corrupt: [{ text, reason: issuesText(parsed.issues) }] };
  let doc = parsed.output;
  if (doc.version > MY_SCENARIOS_VERSION) {
    return { revision: doc.revision, entries: [], corrupt: [{ text, reason: `version ${doc.version} is newer than this Lockstep reads (${MY_SCENARIOS_VERSION})` }] };
  }
  while (doc.version < MY_SCENARIOS_VERSION) {
    const migrate = migrations[doc.version];
    if (!migrate) return { revision: doc.revision, entries: [], corrupt: [{ text, reason: `version ${doc.version} has no migration` }] };
    doc = migrate(doc);
  }
  const entries: MyScenario[] = [];
  const corrupt: CorruptEntry[] = [];
  const ids = new Set<string>();
  for (const item of doc.scenarios) {
    const read = readEntry(item);
    if (read.ok && !ids.has(read.entry.id) && entries.length < myScenarioCountMax) {
      ids.add(read.entry.id);
      entries.push(read.entry);
    } else {
      corrupt.push({ text: JSON.stringify(item) ?? String(item), reason: read.ok ? `a second entry with id ${read.entry.id}, or more than ${myScenarioCountMax}` : read.reason });
    }
  }
  return { revision: doc.revision, entries, corrupt };
}

export function writeMyScenarios(list: MyScenarioList): string {
  return JSON.stringify({ version: MY_SCENARIOS_VERSION, revision: list.revision, scenarios: list.entries });
}

/** An id no entry has: `my-<n>`, n one more than the largest in use. */
export function nextMyScenarioId(entries: readonly MyScenario[]): string {
  let n = 0;
  for (const e of entries) {
    const m = /^my-([0-9]+)$/.exec(e.id);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return `my-${n + 1}`;
}
