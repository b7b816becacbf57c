/**
 * The io feature's types, shared by its slice (slices/io.ts) and its actions loaded on demand
 * (io-actions.ts). Types only: both import this file and it imports neither.
 */
import type { DefinitionProblem, ScenarioDefinition } from '../../definition';

/** What a share link of the scenario on screen carries. */
export interface IoLinkState {
  /** `builtin`: the id is enough; `encoding`: the payload is being made; `ready`: `payload` set; `too-long`: over the link limit (`chars`). */
  readonly status: 'builtin' | 'encoding' | 'ready' | 'too-long';
  readonly scenarioId: string;
  readonly payload: string | null;
  /** The payload's length when too long, for the message. */
  readonly chars: number;
}

type IoImportStatus = 'idle' | 'checking' | 'invalid' | 'clash' | 'imported';

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

/** What the slice and its on-demand actions (../io-actions.ts) share for one store. */
export interface IoShared {
  linkRequest: number;
  /** The definition the current `ioLink` was made for (null: a built-in). */
  encodedFor: ScenarioDefinition | null;
}

/** The io slice's actions whose code loads on first use (io-actions.ts). */
export interface IoActions {
  ioOpenLink(hash: string, options?: { readonly startup?: boolean }): Promise<void>;
  ioScenarioFile(): Promise<IoDownload | null>;
  ioImportText(text: string, fileName: string): Promise<void>;
  ioResolveClash(choice: IoClashChoice): Promise<void>;
  ioDismissImport(): void;
  ioRegressionTest(kind: 'vitest' | 'playwright'): Promise<IoDownload | null>;
}
