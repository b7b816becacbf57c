/**
 * The session's protocol as plain data: commands in, results out. Nothing here holds a function
 * or an engine object, so the same messages can later cross into a Web Worker unchanged.
 */
import type { MessageRef } from '../i18n';
import type { Choice } from '../engine/schedule';

/** What a user (or a test) does to the run. */
export type SessionCommand =
  | { readonly kind: 'step'; readonly clientId: string }
  /** Steps one client until it sends a Redis command (bounded: runToCommandStepCountMax). */
  | { readonly kind: 'runToNextCommand'; readonly clientId: string }
  | { readonly kind: 'stall'; readonly clientId: string; readonly ms: number }
  | { readonly kind: 'crash'; readonly clientId: string }
  | { readonly kind: 'advance'; readonly ms: number }
  /** Advances the clock just past the next key expiry (nothing when no key expires). */
  | { readonly kind: 'jumpToNextExpiry' }
  /** Any one schedule choice: a node fault, a console line, autoplay's pick. */
  /** `checkFirst`: asked the engine's refusal first, so a refused choice changes nothing (the future after the cursor stays). */
  | { readonly kind: 'choice'; readonly choice: Choice; readonly checkFirst?: boolean }
  | { readonly kind: 'appendChoices'; readonly choices: readonly Choice[] }
  /** Schedule text after the cursor (`!@r1`, `A B +100`), parsed against the run's clients and nodes. */
  | { readonly kind: 'appendSchedule'; readonly text: string }
  | { readonly kind: 'stepBack' }
  | { readonly kind: 'stepForward' }
  | { readonly kind: 'seek'; readonly cursor: number }
  /** The same scenario and schedule under another variant or seed, keeping what fits. */
  | { readonly kind: 'rebuild'; readonly variantId: string; readonly seed: number }
  /**
   * One autoplay step: forward along the timeline, else the next choice of a seeded random policy.
   * `play` names one press of Play: a new one starts a new policy from `policySeed`.
   */
  | { readonly kind: 'autoplay'; readonly play: number; readonly policySeed: number };

/** Why a command changed nothing (or, for a choice refused after a cut, nothing more). */
export type Refusal =
  /** A choice that does not fit: `detail` is the engine's ChoiceError message, `ref` its catalog form. */
  | { readonly kind: 'choice'; readonly detail: string; readonly ref: MessageRef | null }
  /** Schedule text that does not parse: the ScheduleSyntaxError message. */
  | { readonly kind: 'schedule'; readonly detail: string }
  /** A scenario is loading: the run on hand is a stand-in nobody sees. */
  | { readonly kind: 'loading'; readonly scenarioId: string }
  /** Stopped before it finished (Stop pressed during a long script): the run is as it was before it. */
  | { readonly kind: 'stopped' };

/** Choices of a rebuilt or loaded run that did not fit: the run keeps the `step` before. */
export interface ScheduleCut {
  readonly step: number;
  readonly reason: string;
}

export type CommandResult =
  /** `ended`: autoplay's policy had nothing more to do (the run is over). */
  | { readonly ok: true; readonly noop?: boolean; readonly ended?: boolean; readonly timelineChanged: boolean; readonly cut?: ScheduleCut | null }
  | { readonly ok: false; readonly refusal: Refusal; readonly timelineChanged: boolean };

/** A run to load: the scenario's default variant, seed 1, default schedule and the start unless told. */
export interface SessionSpec {
  readonly variantId?: string;
  readonly seed?: number;
  /** Schedule text or choices; the scenario's default schedule when absent. */
  readonly schedule?: string | readonly Choice[];
  /** Step to show; the start (0) when absent, null for the end. */
  readonly cursor?: number | null;
  /** Keep the choices that fit instead of refusing a schedule that does not. */
  readonly cutToFit?: boolean;
}

export type LoadErrorReason = 'unknown-scenario' | 'unknown-variant' | 'not-ready' | 'bad-seed' | 'bad-schedule' | 'bad-cursor' | 'schedule-does-not-fit' | 'stopped';

export interface LoadError {
  readonly reason: LoadErrorReason;
  readonly detail: string;
}

export type LoadOutcome = { readonly ok: true; readonly cut: ScheduleCut | null } | { readonly ok: false; readonly error: LoadError };
