/**
 * The page ships the engine to workers once: one worker script (engine.worker.ts) does every job
 * that runs the engine off the page's thread. Each job still gets its own worker instance (a job
 * is cancelled by terminating its worker), but they share one file, downloaded and cached once.
 * A message names its job; the replies are each job's own protocol.
 */
import type { DraftCheckRequest } from './draft-check-protocol';
import type { ExploreCommandMessage } from './explore-protocol';
import type { HistoryCheckRequest } from './history-check-protocol';
import type { PropertyCheckCommand } from './property-check-protocol';
import type { OutcomeRequest } from './protocol';
import type { SessionRequest } from '../../session/wire';

export type EngineJob =
  | { readonly job: 'outcomes'; readonly body: OutcomeRequest }
  | { readonly job: 'explore'; readonly body: ExploreCommandMessage }
  | { readonly job: 'draft-check'; readonly body: DraftCheckRequest }
  | { readonly job: 'history'; readonly body: HistoryCheckRequest }
  | { readonly job: 'session'; readonly body: SessionRequest }
  | { readonly job: 'properties'; readonly body: PropertyCheckCommand };

export type EngineJobName = EngineJob['job'];
