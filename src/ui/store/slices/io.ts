/**
 * The io slice: a scenario in and out of the page. Export the scenario on screen (built-in, edited
 * or one of the user's) with its run as a JSON file, or as regression tests; import a file into My
 * scenarios (asking before anything is replaced); share links that carry a scenario only this page
 * knows (`def=`), both ways. The codecs, the file format and the test generator load on demand: the
 * first screen holds only this slice's state and the calls.
 *
 * Nothing here changes the run or saved work until the input has passed every check: the schema
 * (problems with their JSON paths), the run (variant, schedule), and a replay in the draft-check
 * worker (a script only a budget stops never reaches the page's thread).
 */
import type { StateCreator } from 'zustand/vanilla';
import { definitionOfScenario, type DefinitionProblem, type ScenarioDefinition } from '../../../definition';
import { definitionLinkCharsMax } from '../../../definition/bounds';
import type { Scenario } from '../../../engine/scenario';
import { formatSchedule } from '../../../engine/schedule';
import type { DraftCheckService } from '../../worker/draft-check-protocol';
import type { SimState, SimStoreInit } from '../createSimStore';
import type { Runtime } from '../runtime';
import type { LinkError } from '../types';

/** What a share link of the scenario on screen carries. */
export interface IoLinkState {
  /** `builtin`: the id is enough; `encoding`: the payload is being made; `ready`: `payload` set; `too-long`: over the link limit (`chars`). */
  readonly status: 'builtin' | 'encoding' | 'ready' | 'too-long';
  readonly scenarioId: string;
  readonly payload: string | null;
  /** The payload's length when too long, for the message. */
  readonly chars: number;
}

export type IoImportStatus = 'idle' | 'checking' | 'invalid' | 'clash' | 'imported';

export interface IoImportState {
  readonly status: IoImportStatus;
  /** The file's name as the user picked it (shown as text). */
  readonly fileName: string;
  /** Every problem found, with its JSON path (`definition.variants[0].clients[0].program[3].goto`). */
  readonly problems: readonly DefinitionProblem[];
  /** The scenario's name (clash: the name already in My scenarios). */
  readonly name: string;
}

export interface IoDownload {
  readonly fileName: string;
  readonly text: string;
  readonly mime: string;
}

export type IoClashChoice = 'replace' | 'keep' | 'cancel';

export interface IoSlice {
  readonly ioLink: IoLinkState;
  /** A link that carries its scenario is being decoded and checked (the run changes when it is done). */
  readonly ioLinkPending: boolean;
  readonly ioImport: IoImportState;
  /** Opens a share link that carries its scenario (`def=`); refuses it in words, keeping the run on screen. */
  ioOpenLink(hash: string, options?: { readonly startup?: boolean }): Promise<void>;
  /** The scenario on screen with its run as a scenario file, or null when it cannot be one (a hosted client). */
  ioScenarioFile(): Promise<IoDownload | null>;
  /** Reads a scenario file's text; imports it into My scenarios and opens it, or says why not, or asks (a name clash). */
  ioImportText(text: string, fileName: string): Promise<void>;
  /** The answer to a name clash: replace the stored scenario, keep both (the import renamed), or cancel. */
  ioResolveClash(choice: IoClashChoice): Promise<void>;
  ioDismissImport(): void;
  /** A file refused before it was read (too big, unreadable): `message` says why, in the reader's language. */
  ioRefuseFile(fileName: string, message: string): void;
  /** "Copy link" on a scenario too large for a link: say so, and open the panel that exports the file. */
  ioLinkRefused(): void;
  /** Resolves once the run's link is complete (an edited scenario's definition encoded). */
  ioLinkSettled(): Promise<void>;
  /** The run on screen as a Vitest test (Node API) or a Playwright spec (the fixture). */
  ioRegressionTest(kind: 'vitest' | 'playwright'): Promise<IoDownload | null>;
}

/** A file the import read and checked, waiting for the answer to a name clash. */
interface Pending {
  readonly name: string;
  readonly variant: string;
  readonly seed: number;
  readonly schedule: string;
  readonly definition: ScenarioDefinition;
  readonly scenario: Scenario;
  readonly clashId: string;
}

const idleImport: IoImportState = { status: 'idle', fileName: '', problems: [], name: '' };

/** A name the stored list does not use: `name (2)`, `name (3)`, ... */
function freeName(name: string, taken: (candidate: string) => boolean): string {
  for (let n = 2; n < 1000; n++) {
    const candidate = `${name} (${n})`;
    if (!taken(candidate)) return candidate;
  }
  return `${name} (imported)`;
}

export function createIoSlice(rt: Runtime, init: SimStoreInit & { readonly draftChecker?: DraftCheckService | null }): StateCreator<SimState, [], [], IoSlice> {
  const { engine } = rt;
  let linkRequest = 0;
  let checkId = 1_000_000;
  let pending: Pending | null = null;
  /** The definition the current `ioLink` was made for (null: a built-in). */
  let encodedFor: ScenarioDefinition | null = null;

  return (set, get, api) => {
    const patchImport = (change: Partial<IoImportState>) => set({ ioImport: { ...get().ioImport, ...change } });

    /** The definition of the scenario on screen, or null when it cannot be one. */
    const current = (): ScenarioDefinition | null => {
      if (engine.definition) return engine.definition;
      try {
        return definitionOfScenario(engine.scenario);
      } catch {
        return null;
      }
    };

    /** Replays a scenario off the page's thread; a problem in words, or null when it may run here. */
    const dryRun = async (definition: ScenarioDefinition, seed: number, schedule: string, fitVariant: string): Promise<string | null> => {
      const checker = init.draftChecker ?? (await import('../../worker/draft-check')).createInlineDraftCheckService();
      const report = await checker.check({ id: ++checkId, definition, seed, schedule, fitVariant });
      if (report.failure !== null) return report.failure;
      if (report.misfit !== undefined) return `the schedule does not fit variant ${fitVariant}: ${report.misfit}`;
      const stop = report.stops[0];
      return stop ? `variant ${stop.variantId}, step ${stop.step}${stop.clientId ? `, client ${stop.clientId}` : ''}: ${stop.message}` : null;
    };

    /** Keeps `ioLink` in step with the scenario on screen: encodes an edited or saved one's definition. */
    const followDefinition = () => {
      const definition = engine.definition;
      if (definition === encodedFor) return;
      encodedFor = definition;
      const scenarioId = engine.scenario.id;
      if (definition === null) {
        set({ ioLink: { status: 'builtin', scenarioId, payload: null, chars: 0 } });
        return;
      }
      set({ ioLink: { status: 'encoding', scenarioId, payload: null, chars: 0 } });
      void import('../definition-link').then(async ({ encodeDefinitionPayload }) => {
        const encoded = await encodeDefinitionPayload(definition);
        if (encodedFor !== definition) return; // Another scenario came on screen meanwhile.
        set({ ioLink: encoded.ok ? { status: 'ready', scenarioId, payload: encoded.payload, chars: encoded.payload.length } : { status: 'too-long', scenarioId, payload: null, chars: encoded.chars } });
      });
    };
    api.subscribe(followDefinition);

    /** Loads a checked file's run and stores it in My scenarios; the run stays unless both succeed. */
    const land = (file: Pending, replaceId: string | null, name: string) => {
      const id = get().putMyScenario({ name, variant: file.variant, seed: file.seed, schedule: file.schedule, definition: file.definition }, replaceId);
      if (id === null) {
        patchImport({ status: 'invalid', problems: [{ path: '', message: 'My scenarios could not be written (see the notice)' }] });
        return;
      }
      get().openMyScenario(id);
      patchImport({ status: 'imported', problems: [], name });
    };

    return {
      ioLink: { status: 'builtin', scenarioId: '', payload: null, chars: 0 },
      ioLinkPending: false,
      ioImport: idleImport,

      async ioOpenLink(hash, options = {}) {
        const request = ++linkRequest;
        set({ ioLinkPending: true });
        const refuse = (error: LinkError) => {
          if (request !== linkRequest) return;
          // The run on screen stays (at startup, the default one) and is not saved over the reader's work.
          set(options.startup ? { ioLinkPending: false, persistRun: false, linkError: error } : { ioLinkPending: false, linkError: { ...error, keptCurrent: true } });
        };
        const { parseDefinitionLink } = await import('../definition-link');
        const parsed = await parseDefinitionLink(hash);
        if (request !== linkRequest) return;
        if (parsed.kind === 'error') return refuse(parsed.error);
        const { link, custom, payload } = parsed;
        const problem = await dryRun(custom.definition, link.seed, formatSchedule(link.schedule), link.variantId);
        if (request !== linkRequest) return;
        if (problem !== null) return refuse({ reason: 'bad-definition', detail: problem.slice(0, 1_000) });
        const result = get().loadRun({ ...link, custom });
        if (!result.ok) return refuse(result.error);
        // The link's own payload is this definition's: no need to encode it again.
        encodedFor = engine.definition;
        set({ ioLinkPending: false, linkError: null, ioLink: { status: 'ready', scenarioId: custom.definition.id, payload, chars: payload.length } });
        get().applyLinkExtras(link);
      },

      async ioScenarioFile() {
        const definition = current();
        if (definition === null) return null;
        const { formatScenarioFile } = await import('../../../definition/file');
        const { variantId, seed, schedule, myScenarioId, myScenarios } = get();
        const title = typeof definition.title === 'string' ? definition.title : (definition.title?.en ?? definition.id);
        const name = myScenarios.find((m) => m.id === myScenarioId && m.id === definition.id)?.name ?? title;
        return { fileName: `lockstep-${definition.id}.json`, mime: 'application/json', text: formatScenarioFile({ name, run: { variant: variantId, seed, schedule }, definition }) };
      },

      async ioImportText(text, fileName) {
        pending = null;
        set({ ioImport: { status: 'checking', fileName, problems: [], name: '' } });
        const { parseScenarioFileText } = await import('../../../definition/file');
        const parsed = parseScenarioFileText(text);
        if (!parsed.ok) return patchImport({ status: 'invalid', problems: parsed.problems });
        const { file, scenario } = parsed;
        // Replayed off the page's thread: the schedule must fit the variant whole (a file never loads
        // half of its run), and no script may need a budget to stop.
        const problem = await dryRun(file.definition, file.run.seed, file.run.schedule, file.run.variant);
        if (problem !== null) return patchImport({ status: 'invalid', problems: [{ path: problem.startsWith('the schedule') ? 'run.schedule' : 'run', message: problem }] });
        const next: Pending = { name: file.name, variant: file.run.variant, seed: file.run.seed, schedule: file.run.schedule, definition: file.definition, scenario, clashId: '' };
        const clash = get().findMyScenarioByName(file.name);
        if (clash) {
          pending = { ...next, clashId: clash.id };
          return patchImport({ status: 'clash', name: clash.name });
        }
        land(next, null, file.name);
      },

      async ioResolveClash(choice) {
        const file = pending;
        pending = null;
        if (!file || choice === 'cancel') return set({ ioImport: idleImport });
        if (choice === 'replace') return land(file, file.clashId, file.name);
        const name = freeName(file.name, (candidate) => get().findMyScenarioByName(candidate) !== null);
        land(file, null, name);
      },

      ioDismissImport() {
        pending = null;
        set({ ioImport: idleImport });
      },

      ioRefuseFile(fileName, message) {
        pending = null;
        set({ ioImport: { status: 'invalid', fileName, name: '', problems: [{ path: '', message }] } });
      },

      ioLinkRefused() {
        const { ioLink } = get();
        set({ notice: { key: 'linkTooLongForScenario', params: { length: ioLink.chars, max: definitionLinkCharsMax }, tone: 'warning' } });
        get().openWorkbench('io');
      },

      ioLinkSettled() {
        if (get().ioLink.status !== 'encoding') return Promise.resolve();
        return new Promise<void>((resolve) => {
          const stop = api.subscribe((s) => {
            if (s.ioLink.status === 'encoding') return;
            stop();
            resolve();
          });
        });
      },

      async ioRegressionTest(kind) {
        const definition = current();
        if (definition === null) return null;
        const generator = await import('../../../definition/regression-test');
        const { variantId, seed, schedule, runLog } = get();
        const run = { definition, variant: variantId, seed, schedule, violations: runLog.projection.violations.map((v) => ({ kind: v.violation, step: v.step })) };
        const base = generator.regressionFileBase(run);
        return kind === 'vitest'
          ? { fileName: `${base}.test.ts`, mime: 'text/typescript', text: generator.vitestRegressionTest(run) }
          : { fileName: `${base}.spec.ts`, mime: 'text/typescript', text: generator.playwrightRegressionSpec(run) };
      },
    };
  };
}
