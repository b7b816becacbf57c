/**
 * What lies in a window of the timeline (pure): the items to draw for content x in [x0, x1].
 * Lookups are binary searches over lists in time order, so the cost depends on what is visible,
 * never on the run's length.
 */
import { itemsInSteps, spansIn, type TimeTick, type TimelineLayout } from './timeline-layout';
import type {
  BeliefBand,
  BlockSpan,
  ClientPoint,
  ClockMark,
  CommandMark,
  HolderBand,
  Span,
  StaleBelief,
  TimelineModel,
  TtlBar,
  ViolationMarker,
} from './timeline-types';

export interface VisibleRow {
  readonly commands: readonly CommandMark[];
  readonly blocks: readonly BlockSpan[];
  readonly points: readonly ClientPoint[];
  readonly beliefs: readonly BeliefBand[];
  readonly sections: readonly Span[];
  readonly stale: readonly StaleBelief[];
}

export interface Visible {
  readonly rows: readonly VisibleRow[];
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly violations: readonly ViolationMarker[];
  readonly clocks: readonly ClockMark[];
  readonly ticks: readonly TimeTick[];
}

/** Marks are drawn centred on their x: one this far outside the window still shows a part. */
const MARK_REACH_PX = 160;

/** Everything of `model` that meets content x [x0, x1] (null: everything, for export). */
export function visibleIn(model: TimelineModel, layout: TimelineLayout, window: readonly [number, number] | null, tickSpacingPx: number): Visible {
  const x0 = window ? window[0] : Number.NEGATIVE_INFINITY;
  const x1 = window ? window[1] : Number.POSITIVE_INFINITY;
  const [from, to] = window ? layout.stepRange(x0 - MARK_REACH_PX, x1 + MARK_REACH_PX) : [0, Number.POSITIVE_INFINITY];
  const marks = <T extends { readonly step: number }>(list: readonly T[]) => itemsInSteps(list, from, to);
  const spans = <S extends Span>(list: readonly S[]) => (window ? spansIn(list, layout, x0, x1) : list);
  return {
    rows: model.rows.map((r) => ({
      commands: marks(r.commands),
      blocks: spans(r.blocks),
      points: marks(r.points),
      beliefs: spans(r.beliefs),
      sections: spans(r.criticalSections),
      stale: spans(r.staleBeliefs),
    })),
    holders: spans(model.holders),
    ttlBars: spans(model.ttlBars),
    violations: marks(model.violations),
    clocks: marks(model.clocks).filter((c) => c.reason === 'advance'),
    ticks: layout.ticksIn(x0 - MARK_REACH_PX, x1 + MARK_REACH_PX, tickSpacingPx),
  };
}
