/**
 * The io slice: a scenario in and out of the page. Export the scenario on screen (built-in, edited
 * or one of the user's) with its run as a JSON file, or as regression tests; import a file into My
 * scenarios (asking before anything is replaced); share links that carry a scenario only this page
 * knows (`def=`), both ways. The actions (../io-actions.ts), the codecs, the file format and the
 * test generator load on demand: the first screen holds only this slice's state and the calls.
 */
import { definitionLinkCharsMax } from '../../../definition/bounds';
import type { DraftCheckService } from '../../worker/draft-check-protocol';
import type { IoActions, IoClashChoice, IoDownload, IoImportState, IoLinkState, IoShared } from '../io-types';
import type { IoPort, SliceStore } from '../ports';
import { IO_HISTORY_IDLE, createIoHistoryActions, type IoHistoryActions, type IoHistoryState } from '../io-history';

export type { IoDownload, IoImportState, IoLinkState } from '../io-types';

export interface IoSlice extends IoHistoryActions {
  /** A recorded history opened read-only (./io-history.ts). */
  readonly ioHistory: IoHistoryState;
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

export interface IoInit {
  /** Replays an imported or linked scenario off the page's thread before the page runs it; inline without it. */
  readonly draftChecker?: DraftCheckService | null;
}

/** Keeps `ioLink` in step with the scenario on screen: encodes an edited or saved one's definition. */
function linkFollower(port: IoPort, shared: IoShared, set: (patch: Partial<IoSlice>) => void): () => void {
  return () => {
    const { definition } = port.run();
    if (definition === shared.encodedFor) return;
    shared.encodedFor = definition;
    const scenarioId = port.scenario().id;
    if (definition === null) return set({ ioLink: { status: 'builtin', scenarioId, payload: null, chars: 0 } });
    set({ ioLink: { status: 'encoding', scenarioId, payload: null, chars: 0 } });
    void import('../definition-link').then(async ({ encodeDefinitionPayload }) => {
      const encoded = await encodeDefinitionPayload(definition);
      if (shared.encodedFor !== definition) return; // Another scenario came on screen meanwhile.
      set({ ioLink: encoded.ok ? { status: 'ready', scenarioId, payload: encoded.payload, chars: encoded.payload.length } : { status: 'too-long', scenarioId, payload: null, chars: encoded.chars } });
    });
  };
}

export function createIoSlice(port: IoPort, init: IoInit): (store: SliceStore<IoSlice>) => IoSlice {
  const shared: IoShared = { linkRequest: 0, encodedFor: null };

  return (store) => {
    /** Callers of ioLinkSettled waiting for the link's encoding to end. */
    let settledWaiters: (() => void)[] = [];
    /** The slice's own writes: a link that is no longer encoding releases the waiters. */
    const set = (patch: Partial<IoSlice>) => {
      store.set(patch);
      if (patch.ioLink === undefined || patch.ioLink.status === 'encoding' || settledWaiters.length === 0) return;
      const waiters = settledWaiters;
      settledWaiters = [];
      for (const resolve of waiters) resolve();
    };
    const own: SliceStore<IoSlice> = { get: store.get, set };
    // The actions' code loads on first use: the first screen holds only this slice's state.
    let actions: Promise<IoActions> | null = null;
    const load = () => (actions ??= import('../io-actions').then((m) => m.createIoActions({ port, init, store: own, shared })));

    // Inside the update that put another scenario on screen: its link state joins that update.
    port.onRunChanged(linkFollower(port, shared, set));

    return {
      ...createIoHistoryActions(store.get, set),
      ioHistory: IO_HISTORY_IDLE,
      ioLink: { status: 'builtin', scenarioId: '', payload: null, chars: 0 },
      ioLinkPending: false,
      ioImport: { status: 'idle', fileName: '', problems: [], name: '' },
      async ioOpenLink(hash, options) {
        set({ ioLinkPending: true });
        return (await load()).ioOpenLink(hash, options);
      },
      ioScenarioFile: async () => (await load()).ioScenarioFile(),
      ioImportText: async (text, fileName) => (await load()).ioImportText(text, fileName),
      ioResolveClash: async (choice) => (await load()).ioResolveClash(choice),
      ioRegressionTest: async (kind) => (await load()).ioRegressionTest(kind),
      ioDismissImport() {
        void load().then((a) => a.ioDismissImport());
      },
      ioRefuseFile(fileName, message) {
        set({ ioImport: { status: 'invalid', fileName, name: '', problems: [{ path: '', message }] } });
      },
      ioLinkRefused() {
        const { ioLink } = store.get();
        port.notify({ key: 'linkTooLongForScenario', params: { length: ioLink.chars, max: definitionLinkCharsMax }, tone: 'warning' });
        port.openExportPanel();
      },
      ioLinkSettled() {
        if (store.get().ioLink.status !== 'encoding') return Promise.resolve();
        return new Promise<void>((resolve) => settledWaiters.push(resolve));
      },
    };
  };
}
