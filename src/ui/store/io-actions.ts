/**
 * The io slice's actions (slices/io.ts), loaded on first use: opening a link that carries its
 * scenario, exporting the scenario file and the regression tests, importing a file with its name
 * clash question. Nothing changes the run or saved work until the input has passed every check:
 * the schema (problems with their JSON paths), the run (variant, schedule), and a replay in the
 * draft-check worker (the schedule fits whole; no script needs a budget to stop).
 */
import type { ScenarioDefinition } from '../../definition';
import { formatScenarioFile, parseScenarioFileText } from '../../definition/file';
import { playwrightRegressionSpec, regressionFileBase, vitestRegressionTest } from '../../definition/regression-test';
import { formatSchedule } from '../../engine/schedule';
import type { DraftCheckService } from '../worker/draft-check-protocol';
import { parseDefinitionLink } from './definition-link';
import type { IoPort, SliceStore } from './ports';
import type { IoActions, IoImportState, IoLinkState, IoShared } from './io-types';
import type { LinkError } from './types';

/** The io slice's own state, as these actions read and write it. */
interface IoActionsState {
  readonly ioLink: IoLinkState;
  readonly ioLinkPending: boolean;
  readonly ioImport: IoImportState;
}

interface IoContext {
  readonly port: IoPort;
  readonly init: { readonly draftChecker?: DraftCheckService | null };
  readonly store: SliceStore<IoActionsState>;
  readonly shared: IoShared;
}

/** A file the import read and checked, waiting for the answer to a name clash. */
interface Pending {
  readonly name: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
  readonly definition: ScenarioDefinition;
  readonly clashId: string;
}

const idleImport: IoImportState = { status: 'idle', fileName: '', problems: [], name: '' };
/** Characters of a refusal's detail at most (it lists problems with their paths). */
const detailCharsMax = 1_000;

/** A name the stored list does not use: `name (2)`, `name (3)`, ... */
function freeName(name: string, taken: (candidate: string) => boolean): string {
  for (let n = 2; n < 1000; n++) {
    const candidate = `${name} (${n})`;
    if (!taken(candidate)) return candidate;
  }
  return `${name} (imported)`;
}

/** Replays a scenario off the page's thread; a problem in words, or null when it may run here. */
function dryRunner(init: IoContext['init']) {
  /** Draft checks of this module are numbered apart from the workbench's. */
  let checkId = 1_000_000;
  return async (definition: ScenarioDefinition, seed: number, schedule: string, fitVariant: string): Promise<string | null> => {
    const checker = init.draftChecker ?? (await import('../worker/draft-check')).createInlineDraftCheckService();
    const report = await checker.check({ id: ++checkId, definition, seed, schedule, fitVariant });
    if (report.failure !== null) return report.failure;
    if (report.misfit !== undefined) return `the schedule does not fit variant ${fitVariant}: ${report.misfit}`;
    const stop = report.stops[0];
    return stop ? `variant ${stop.variantId}, step ${stop.step}${stop.clientId ? `, client ${stop.clientId}` : ''}: ${stop.message}` : null;
  };
}

type DryRun = ReturnType<typeof dryRunner>;

/** A link that carries its scenario: decoded, checked off the page's thread, then loaded (or refused in words). */
function linkOpener({ port, store: { set }, shared }: IoContext, dryRun: DryRun): IoActions['ioOpenLink'] {
  return async (hash, options = {}) => {
    const request = ++shared.linkRequest;
    set({ ioLinkPending: true });
    const refuse = (error: LinkError) => {
      if (request !== shared.linkRequest) return;
      // The run on screen stays (at startup, the default one) and is not saved over the reader's work.
      if (options.startup) port.setPersistRun(false);
      port.showLinkError(options.startup ? error : { ...error, keptCurrent: true });
      set({ ioLinkPending: false });
    };
    const parsed = await parseDefinitionLink(hash);
    if (request !== shared.linkRequest) return;
    if (parsed.kind === 'error') return refuse(parsed.error);
    const { link, custom, payload } = parsed;
    const problem = await dryRun(custom.definition, link.seed, formatSchedule(link.schedule), link.variantId);
    if (request !== shared.linkRequest) return;
    if (problem !== null) return refuse({ reason: 'bad-definition', detail: problem.slice(0, detailCharsMax) });
    // The page loads the Lua engine on demand: a link's scenario may evaluate scripts before it has.
    if (!port.lua.ready()) {
      try {
        await port.lua.load();
      } catch (error) {
        return refuse({ reason: 'bad-definition', detail: error instanceof Error ? error.message : String(error) });
      }
      if (request !== shared.linkRequest) return;
    }
    const result = port.loadRun({ ...link, custom });
    // Not ready cannot happen here (its scenario is the link's own, Lua loaded above); say so if it does.
    if (!result.ok) return refuse(result.error.reason === 'not-ready' ? { reason: 'bad-definition', detail: `not ready: ${result.error.detail}` } : result.error);
    // The link's own payload is this definition's: no need to encode it again.
    shared.encodedFor = port.run().definition;
    port.showLinkError(null);
    set({ ioLinkPending: false, ioLink: { status: 'ready', scenarioId: custom.definition.id, payload, chars: payload.length } });
    port.applyLinkExtras(link);
  };
}

/** A scenario file in: checked, then stored in My scenarios and opened, or a name clash asked about. */
function fileImport({ port, store: { get, set } }: IoContext, dryRun: DryRun): Pick<IoActions, 'ioImportText' | 'ioResolveClash' | 'ioDismissImport'> {
  let pending: Pending | null = null;
  const patchImport = (change: Partial<IoImportState>) => set({ ioImport: { ...get().ioImport, ...change } });

  /** Stores a checked file in My scenarios, then opens it there. */
  const land = (file: Pending, replaceId: string | null, name: string) => {
    const id = port.myScenarios.put({ name, variant: file.variant, seed: file.seed, schedule: file.schedule, definition: file.definition }, replaceId);
    if (id === null) return patchImport({ status: 'invalid', problems: [{ path: '', message: 'My scenarios could not be written (see the notice)' }] });
    port.myScenarios.open(id);
    patchImport({ status: 'imported', problems: [], name });
  };

  return {
    async ioImportText(text, fileName) {
      pending = null;
      set({ ioImport: { status: 'checking', fileName, problems: [], name: '' } });
      const parsed = parseScenarioFileText(text);
      if (!parsed.ok) return patchImport({ status: 'invalid', problems: parsed.problems });
      const { file } = parsed;
      // Replayed off the page's thread: the schedule must fit the variant whole (a file never loads
      // half of its run), and no script may need a budget to stop.
      const problem = await dryRun(file.definition, file.run.seed, file.run.schedule, file.run.variant);
      if (problem !== null) return patchImport({ status: 'invalid', problems: [{ path: problem.startsWith('the schedule') ? 'run.schedule' : 'run', message: problem }] });
      const next: Pending = { name: file.name, variant: file.run.variant, seed: file.run.seed, schedule: file.run.schedule, definition: file.definition, clashId: '' };
      const clash = port.myScenarios.find(file.name);
      if (clash) {
        pending = { ...next, clashId: clash.id };
        return patchImport({ status: 'clash', name: clash.name });
      }
      land(next, null, file.name);
    },

    ioResolveClash(choice) {
      const file = pending;
      pending = null;
      if (!file || choice === 'cancel') set({ ioImport: idleImport });
      else if (choice === 'replace') land(file, file.clashId, file.name);
      else land(file, null, freeName(file.name, (candidate) => port.myScenarios.find(candidate) !== null));
      return Promise.resolve();
    },

    ioDismissImport() {
      pending = null;
      set({ ioImport: idleImport });
    },
  };
}

/** The scenario on screen out: as a scenario file, or as a regression test. */
function fileExports({ port }: IoContext): Pick<IoActions, 'ioScenarioFile' | 'ioRegressionTest'> {
  return {
    ioScenarioFile() {
      const definition = port.definitionOnScreen();
      if (definition === null) return Promise.resolve(null);
      const { variantId, seed, schedule } = port.run();
      const title = typeof definition.title === 'string' ? definition.title : (definition.title?.en ?? definition.id);
      const name = port.myScenarios.nameOnScreen(definition.id) ?? title;
      return Promise.resolve({ fileName: `lockstep-${definition.id}.json`, mime: 'application/json', text: formatScenarioFile({ name, run: { variant: variantId, seed, schedule }, definition }) });
    },

    ioRegressionTest(kind) {
      const definition = port.definitionOnScreen();
      if (definition === null) return Promise.resolve(null);
      const { variantId, seed, schedule } = port.run();
      const run = { definition, variant: variantId, seed, schedule, violations: port.violations().map((v) => ({ kind: v.violation, step: v.step })) };
      const base = regressionFileBase(run);
      return Promise.resolve(
        kind === 'vitest'
          ? { fileName: `${base}.test.ts`, mime: 'text/typescript', text: vitestRegressionTest(run) }
          : { fileName: `${base}.spec.ts`, mime: 'text/typescript', text: playwrightRegressionSpec(run) },
      );
    },
  };
}

export function createIoActions(ctx: IoContext): IoActions {
  const dryRun = dryRunner(ctx.init);
  return { ioOpenLink: linkOpener(ctx, dryRun), ...fileImport(ctx, dryRun), ...fileExports(ctx) };
}
