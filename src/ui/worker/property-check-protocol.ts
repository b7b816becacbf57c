/**
 * What the page asks the engine worker to judge a definition's own properties with, and what it
 * answers (docs/EXPLORER.md, "Your own properties"). The workbench's Properties tab sends the
 * definition on screen (edited or not); each property is searched on its own, within the
 * lesson's declared bounds (or the explorer's defaults), as `explore` judges them.
 */
import type { ScenarioDefinition } from '../../definition';
import type { BoundsOverrides, ExploreBounds, PropertyVerdict } from '../../engine/explore';

export type { ExploreBounds, PropertyVerdict };

export interface PropertyCheckRequest {
  readonly id: number;
  readonly definition: ScenarioDefinition;
  readonly variantId: string;
  readonly seed: number;
  /** Bounds over the definition's (which declares none): the lesson's declared ones, as the page's explorer uses; the defaults when absent. */
  readonly bounds?: BoundsOverrides;
}

/** How far the check has got: the property being searched (0-based of `count`) and its states so far. */
export interface PropertyCheckProgress {
  readonly id: number;
  readonly index: number;
  readonly count: number;
  readonly statesExplored: number;
}

export interface PropertyCheckDone {
  readonly id: number;
  /** One per property, in the definition's order. */
  readonly verdicts: readonly PropertyVerdict[];
  /** The bounds every property was searched within (the request's over the defaults). */
  readonly bounds: ExploreBounds;
  readonly elapsedMs: number;
}

export type PropertyCheckWorkerMessage =
  | ({ readonly kind: 'progress' } & PropertyCheckProgress)
  | ({ readonly kind: 'done' } & PropertyCheckDone)
  | { readonly kind: 'error'; readonly id: number; readonly message: string };

export type PropertyCheckCommand = { readonly kind: 'start'; readonly request: PropertyCheckRequest } | { readonly kind: 'cancel'; readonly id: number };

export interface PropertyCheckHandlers {
  onProgress(progress: PropertyCheckProgress): void;
  onDone(done: PropertyCheckDone): void;
  onError(message: string): void;
}

/** Runs one check at a time off the page's thread; starting another cancels the one running. */
export interface PropertyCheckService {
  start(request: PropertyCheckRequest, handlers: PropertyCheckHandlers): void;
  /** Stops the running check: its handlers get `done` with the verdicts so far (the cut one says cancelled). */
  cancel(id: number): void;
  dispose(): void;
}
