/**
 * The drafts slice: durations typed into the clock and lane fields before they are applied, kept
 * in the store so a keyboard shortcut applies the same value a click would (Advance, Pause).
 */
import type { SliceStore } from '../ports';

export const defaultAdvanceMs = 1000;
export const defaultStallMs = 6000;

export interface DraftsSlice {
  readonly advanceDraftMs: number;
  /** Client id -> the stall typed for it (absent: defaultStallMs). */
  readonly stallDraftMs: Readonly<Record<string, number>>;
  setAdvanceDraft(ms: number): void;
  setStallDraft(clientId: string, ms: number): void;
}

export function createDraftsSlice(): (store: SliceStore<DraftsSlice>) => DraftsSlice {
  return ({ set, get }) => ({
    advanceDraftMs: defaultAdvanceMs,
    stallDraftMs: {},
    setAdvanceDraft(ms) {
      set({ advanceDraftMs: ms });
    },
    setStallDraft(clientId, ms) {
      set({ stallDraftMs: { ...get().stallDraftMs, [clientId]: ms } });
    },
  });
}

/** The stall typed for a client. */
export const stallDraftOf = (s: Pick<DraftsSlice, 'stallDraftMs'>, clientId: string): number => s.stallDraftMs[clientId] ?? defaultStallMs;
