/**
 * The content x range a drawing on screen covers. Shapes are cut to it: a lease, a belief or a
 * separator as long as a 10,000-event run is hundreds of thousands of px wide, and a frame that
 * draws one (a hatched band most of all) took Chromium seconds to rasterize. Cut, every shape is
 * at most as wide as the window, so a frame costs the same at event 10 and at event 10,000.
 */
export type DrawExtent = readonly [number, number];

/** No cut (an export draws the whole run). */
const WHOLE_RUN: DrawExtent = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];

/** Cut ends lie this far outside the window, so neither a rounded corner nor a stroke shows. */
const CUT_MARGIN_PX = 40;

/** The extent of a drawn window (content x), or the whole run. */
export function extentOf(window: readonly [number, number] | null): DrawExtent {
  return window === null ? WHOLE_RUN : [window[0] - CUT_MARGIN_PX, window[1] + CUT_MARGIN_PX];
}

/** `[x, width]` of a shape from x0 to x1 cut to `extent`, at least `minWidth` wide. */
export function cutSpan(extent: DrawExtent, x0: number, x1: number, minWidth: number): readonly [number, number] {
  const from = Math.max(x0, extent[0]);
  const to = Math.min(x1, extent[1]);
  return [from, Math.max(minWidth, to - from)];
}
