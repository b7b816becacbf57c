/**
 * The workbench slice: edit the scenario on screen (its Lua scripts, parameters, programs) and the
 * run's schedule as text. Every edit is a new scenario definition, validated with the definition
 * schema, then replayed in the draft-check worker under every variant before the page runs it:
 * a script the budget must stop (an endless loop) is reported there and never reaches the page's
 * thread. A draft that passes replaces the run, keeping its schedule and cursor.
 */
import { definitionBounds, formatProblems, parseDefinition, type ScenarioDefinition } from '../../../definition';
import { formatReplyShort } from '../../../engine/redis/reply';
import { parseSchedule, ScheduleSyntaxError } from '../../../engine/schedule';
import { scriptErrorLine, scriptSyntaxProblem } from '../../../engine/shared-scripts';
import type { DraftBudgetStop, DraftCheckService } from '../../worker/draft-check-protocol';
import type { SliceStore, WorkbenchPort } from '../ports';
import { editedId, editProgram, paramsOf, scriptsOf, setParam, setScriptSource, type ProgramEdit, type ScriptEntry } from '../workbench-edits';
import type { StepOption } from '../workbench-client-edits';
import { editProperties, propertiesOf, type PropertyDraft, type PropertyEdit } from '../workbench-property-edits';

export type { ProgramEdit } from '../workbench-edits';
export type { StepOption } from '../workbench-client-edits';
export type { PropertyDraft } from '../workbench-property-edits';

export type WorkbenchTab = 'program' | 'scripts' | 'schedule' | 'properties' | 'console' | 'mine' | 'io';

/** A problem at a place in a text: a script's line, or a schedule's character offset. */
interface TextProblem {
  readonly message: string;
  /** 1-based line of a script, or null when the error names none. */
  readonly line: number | null;
  /** 0-based character offset and length in a schedule's text, or null. */
  readonly offset: number | null;
  readonly length: number;
}

interface ScriptCall {
  readonly clientId: string | null;
  readonly step: number;
  readonly keys: readonly string[];
  readonly args: readonly string[];
  /** The reply as redis-cli prints it, or null while a slow script still runs. */
  readonly reply: string | null;
}

interface WorkbenchState {
  readonly open: boolean;
  readonly tab: WorkbenchTab;
  /**
   * idle: nothing pending; checking: a draft runs in the worker; refused: a budget stopped a
   * script (`stops`); invalid: the draft is not a valid definition (`problems`); uneditable: the
   * scenario cannot be a definition (a client runs code outside the engine).
   */
  readonly status: 'idle' | 'checking' | 'refused' | 'invalid' | 'uneditable';
  readonly problems: string;
  readonly stops: readonly DraftBudgetStop[];
  /** The scripts and parameters of the scenario on screen, as the current variant reads them. */
  readonly scripts: readonly ScriptEntry[];
  readonly params: readonly { readonly name: string; readonly value: string }[];
  /** The scenario's own properties (the Properties tab), in its order. */
  readonly properties: readonly PropertyDraft[];
  /** Clients whose program a new client may run (started by the schedule, starting no helper). */
  readonly clientSources: readonly string[];
  /** Steps the program editor can insert (work and sleep with 1000 ms; the panel sets the duration). */
  readonly stepOptions: readonly StepOption[];
  /** Why the schedule text last typed did not replay, or null. */
  readonly scheduleProblem: TextProblem | null;
  /** Edits applied since the workbench opened (the tests wait on it). */
  readonly revision: number;
}

export interface WorkbenchSlice {
  readonly workbench: WorkbenchState;
  openWorkbench(tab?: WorkbenchTab): void;
  closeWorkbench(): void;
  setWorkbenchTab(tab: WorkbenchTab): void;
  /** Re-reads the scripts and parameters after the scenario or variant on screen changed. */
  refreshWorkbench(): void;
  /** A script's compile error (the engine's Lua 5.1 parser) with its line, or null: runs nothing. */
  checkScript(source: string): TextProblem | null;
  /** Runtime errors the run's replies carry from a script, by line (`ERR user_script:3: ...`). */
  scriptRunErrors(name: string): TextProblem[];
  /** The script's last call before the cursor: what KEYS and ARGV it got, and its reply (text), or null. */
  scriptLastCall(name: string): ScriptCall | null;
  applyScript(name: string, source: string): Promise<void>;
  applyParam(name: string, value: string): Promise<void>;
  applyProgramEdit(edit: ProgramEdit, sameForAll: boolean): Promise<void>;
  /** Adds, replaces or removes one of the scenario's own properties (the Properties tab). */
  applyPropertyEdit(edit: PropertyEdit): Promise<void>;
  /** Adds a client (the next free letter) running `fromId`'s program; the schedule stays (the new client starts when it is first stepped). */
  applyClientAdd(fromId: string): Promise<void>;
  /** Removes a client and its choices from the schedule (the cursor keeps its place among the rest). */
  applyClientRemove(clientId: string): Promise<void>;
  /** Replays the schedule typed as text (docs/SCHEDULES.md), or says where it is wrong. */
  applyScheduleText(text: string): void;
  /** Back to the built-in scenario the edits started from (same schedule as far as it fits). */
  discardEdits(): void;
}

export interface WorkbenchInit {
  /** Replays an edited scenario off the page's thread before the page runs it (the draft-check worker); inline without it. */
  readonly draftChecker?: DraftCheckService | null;
}

const idle = { status: 'idle', problems: '', stops: [] } as const;

/** What the workbench's parts share in one store: its port, its options, its own state and the draft-check counter. */
interface WorkbenchContext {
  readonly port: WorkbenchPort;
  readonly init: WorkbenchInit;
  readonly get: () => WorkbenchSlice;
  readonly patch: (change: Partial<WorkbenchState>) => void;
  /** Counts draft checks: a check whose id is no longer the last was superseded. */
  readonly checks: { id: number };
}

/** The scripts and parameters of the scenario on screen (and, loaded with the editor, the clients and steps it offers). */
function describer({ port, patch }: WorkbenchContext): () => Partial<WorkbenchState> {
  /** The clients a new one may copy and the steps one may insert: loaded with the editor, not the first screen. */
  const describeClients = async (definition: ScenarioDefinition): Promise<void> => {
    const scenario = port.scenario();
    const { variantId } = port.run();
    const { copyableClients, stepOptions } = await import('../workbench-client-edits');
    if (port.scenario() !== scenario || port.run().variantId !== variantId) return; // Another scenario, variant or edit since.
    const names = scriptsOf(definition, variantId).map((s) => s.name);
    patch({ clientSources: copyableClients(definition, variantId), stepOptions: stepOptions(definition, variantId, names, 1000) });
  };
  return () => {
    const definition = port.definitionOnScreen();
    if (definition === null) return { status: 'uneditable', scripts: [], params: [], properties: [], clientSources: [], stepOptions: [] };
    void describeClients(definition);
    const { variantId } = port.run();
    return { scripts: scriptsOf(definition, variantId), params: paramsOf(definition, variantId), properties: propertiesOf(definition) };
  };
}

/** A draft's way to the run: validated, replayed in the draft-check worker, then loaded in place of the run (same schedule and cursor). */
function draftApplier(ctx: WorkbenchContext, describe: () => Partial<WorkbenchState>) {
  const { port, init, get, patch, checks } = ctx;
  /** `run`: the schedule (text) and cursor to replay instead of the run's own (a removed client's choices taken out). */
  return async (next: ScenarioDefinition, run?: { readonly schedule: string; readonly cursor: number }): Promise<void> => {
    const parsed = parseDefinition({ ...next, id: editedId(next.id) });
    if (!parsed.ok) return patch({ status: 'invalid', problems: formatProblems(parsed.problems), stops: [] });
    const id = ++checks.id;
    const onScreen = port.run();
    const { seed, variantId } = onScreen;
    const schedule = run?.schedule ?? onScreen.schedule;
    const cursor = run?.cursor ?? onScreen.cursor;
    patch({ status: 'checking', problems: '', stops: [] });
    const checker = init.draftChecker ?? (await import('../../worker/draft-check')).createInlineDraftCheckService();
    const report = await checker.check({ id, definition: parsed.definition, seed, schedule });
    if (id !== checks.id) return; // A newer edit superseded this one.
    if (report.failure !== null) return patch({ status: 'invalid', problems: report.failure, stops: [] });
    if (report.stops.length > 0) return patch({ status: 'refused', problems: '', stops: report.stops });
    const custom = { scenario: parsed.scenario, definition: parsed.definition };
    const result = port.loadRun({ scenarioId: parsed.definition.id, variantId, seed, schedule, cursor, cutToFit: true, custom });
    if (!result.ok) return patch({ status: 'invalid', problems: `${result.error.reason}: ${result.error.detail}`, stops: [] });
    patch({ ...idle, revision: get().workbench.revision + 1, ...describe() });
  };
}

/** What the run says of a script: its compile error, its runtime errors, its last call. Reads only. */
function scriptReaders({ port, get }: WorkbenchContext): Pick<WorkbenchSlice, 'checkScript' | 'scriptRunErrors' | 'scriptLastCall'> {
  const sourceOf = (name: string) => get().workbench.scripts.find((s) => s.name === name)?.source;
  return {
    checkScript(source) {
      if (source.length > definitionBounds.scriptSourceCharsMax) {
        return { message: `the script is ${source.length} characters long; at most ${definitionBounds.scriptSourceCharsMax} are accepted`, line: null, offset: null, length: 0 };
      }
      const problem = scriptSyntaxProblem(source);
      return problem === null ? null : { message: problem.message, line: problem.line, offset: null, length: 0 };
    },
    scriptRunErrors(name) {
      const source = sourceOf(name);
      if (source === undefined) return [];
      const out: TextProblem[] = [];
      const seen = new Set<string>();
      for (const event of port.events().events) {
        if (event.kind !== 'command' || event.argv[0]?.toUpperCase() !== 'EVAL' || event.argv[1] !== source) continue;
        if (event.reply?.type !== 'error' || seen.has(event.reply.value)) continue;
        seen.add(event.reply.value);
        out.push({ message: event.reply.value, line: scriptErrorLine(event.reply.value), offset: null, length: 0 });
      }
      return out;
    },
    scriptLastCall(name) {
      const source = sourceOf(name);
      const { events, eventCountToCursor } = port.events();
      for (let i = eventCountToCursor - 1; i >= 0 && source !== undefined; i--) {
        const event = events[i];
        if (event.kind !== 'command' || event.argv[0]?.toUpperCase() !== 'EVAL' || event.argv[1] !== source) continue;
        const numkeys = Number(event.argv[2]);
        const keyCount = Number.isInteger(numkeys) && numkeys >= 0 ? numkeys : 0;
        const reply = event.reply === null ? null : formatReplyShort(event.reply);
        return { clientId: event.clientId, step: event.step, keys: event.argv.slice(3, 3 + keyCount), args: event.argv.slice(3 + keyCount), reply };
      }
      return null;
    },
  };
}

/** The schedule typed as text: replayed as the run's, or its problem with where it is. */
function scheduleTextAction({ port, get, patch }: WorkbenchContext): WorkbenchSlice['applyScheduleText'] {
  return (text) => {
    if (text.length > definitionBounds.scheduleCharsMax) {
      patch({ scheduleProblem: { message: `the schedule is ${text.length} characters long; at most ${definitionBounds.scheduleCharsMax} are accepted`, line: null, offset: null, length: 0 } });
      return;
    }
    let choices;
    try {
      choices = parseSchedule(text, port.clientIds(), port.nodeIds());
    } catch (error) {
      if (!(error instanceof ScheduleSyntaxError)) throw error;
      // The position is shown (and the token marked) by the panel: the parser's own suffix would repeat it.
      const message = error.message.replace(/ at position \d+: "[^"]*"$/, '');
      patch({ scheduleProblem: { message, line: null, offset: error.offset, length: Math.max(1, error.token.length) } });
      return;
    }
    const { definition, variantId, seed } = port.run();
    const scenario = port.scenario();
    const result = port.loadRun({ scenarioId: scenario.id, variantId, seed, schedule: choices, cursor: null, ...(definition ? { custom: { scenario, definition } } : {}) });
    const problem = result.ok ? null : { message: result.error.detail, line: null, offset: null, length: 0 };
    patch({ scheduleProblem: problem, ...(result.ok ? { revision: get().workbench.revision + 1 } : {}) });
  };
}

/** The edits of the scenario on screen: each a new definition through `apply`; and back to the built-in. */
function editActions(ctx: WorkbenchContext, describe: () => Partial<WorkbenchState>): Pick<WorkbenchSlice, 'applyScript' | 'applyParam' | 'applyProgramEdit' | 'applyPropertyEdit' | 'applyClientAdd' | 'applyClientRemove' | 'discardEdits'> {
  const { port, get, patch, checks } = ctx;
  const apply = draftApplier(ctx, describe);
  const edit = (change: (definition: ScenarioDefinition, variantId: string) => ScenarioDefinition): Promise<void> => {
    const definition = port.definitionOnScreen();
    if (definition === null) return Promise.resolve();
    return apply(change(definition, port.run().variantId));
  };
  return {
    applyScript: (name, source) => edit((definition, variantId) => setScriptSource(definition, variantId, name, source)),
    applyParam: (name, value) => edit((definition, variantId) => setParam(definition, variantId, name, value)),
    applyProgramEdit: (programEdit, sameForAll) => edit((definition, variantId) => editProgram(definition, variantId, programEdit, sameForAll)),
    applyPropertyEdit: (propertyEdit) => edit((definition) => editProperties(definition, propertyEdit)),
    async applyClientAdd(fromId) {
      const definition = port.definitionOnScreen();
      if (definition === null) return;
      const { addClient } = await import('../workbench-client-edits');
      const added = addClient(definition, port.run().variantId, fromId);
      if (added !== null) await apply(added.definition);
    },
    async applyClientRemove(clientId) {
      const definition = port.definitionOnScreen();
      if (definition === null) return;
      const { removeClient, scheduleWithout } = await import('../workbench-client-edits');
      const { schedule, cursor } = scheduleWithout(port.timeline(), port.run().cursor, clientId);
      await apply(removeClient(definition, clientId), { schedule, cursor });
    },
    discardEdits() {
      const run = port.run();
      const original = run.definition?.id.replace(/-edited$/, '');
      if (original === undefined || !port.isBuiltIn(original)) return;
      checks.id++;
      port.loadRun({ scenarioId: original, variantId: run.variantId, seed: run.seed, schedule: run.schedule, cursor: run.cursor, cutToFit: true });
      patch({ ...idle, revision: get().workbench.revision + 1, ...describe() });
    },
  };
}

export function createWorkbenchSlice(port: WorkbenchPort, init: WorkbenchInit): (store: SliceStore<WorkbenchSlice>) => WorkbenchSlice {
  const checks = { id: 0 };
  return ({ set, get }) => {
    const patch = (change: Partial<WorkbenchState>) => set({ workbench: { ...get().workbench, ...change } });
    const ctx: WorkbenchContext = { port, init, get, patch, checks };
    const describe = describer(ctx);
    return {
      workbench: { open: false, tab: 'scripts', ...idle, scripts: [], params: [], properties: [], clientSources: [], stepOptions: [], scheduleProblem: null, revision: 0 },
      openWorkbench(tab) {
        // The workbench compiles scripts and runs edited copies in the page: it opens once the
        // page's Lua engine is there (loaded in the background after the first paint; at once after).
        if (!port.lua.ready()) {
          void port.lua.load().then(() => get().openWorkbench(tab), (error: unknown) => port.notify({ key: 'actionRefused', params: { detail: error instanceof Error ? error.message : String(error) }, tone: 'warning' }));
          return;
        }
        patch({ open: true, tab: tab ?? get().workbench.tab, scheduleProblem: null, ...describe() });
      },
      closeWorkbench: () => patch({ open: false }),
      setWorkbenchTab: (tab) => patch({ tab }),
      refreshWorkbench: () => patch(describe()),
      ...scriptReaders(ctx),
      ...editActions(ctx, describe),
      applyScheduleText: scheduleTextAction(ctx),
    };
  };
}
