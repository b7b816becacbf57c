/**
 * The timeline's zoom (pure): how many screen units a unit of the layout takes. `auto` stretches a
 * short run to fill the view and keeps a long one at its natural size; `fit` shows as much of the
 * run as the smallest zoom allows; a number is the reader's own choice (zoom in, zoom out).
 */
export type ZoomChoice = 'auto' | 'fit' | number;

/** Below this, marks are too narrow to tell apart (and a window would hold too many). */
export const ZOOM_MIN = 0.25;
export const ZOOM_MAX = 4;
/** One press of zoom in or out. */
const ZOOM_FACTOR = 1.5;
/** A short run is stretched at most this much to fill the view. */
const STRETCH_MAX = 2.5;
/** A run a little wider than the view is squeezed to fit it, down to this factor. */
const SQUEEZE_MIN = 0.7;

const clamp = (zoom: number) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));

/** The zoom of `choice` for a run `naturalWidthPx` wide (at zoom 1) in a view `viewWidthPx` wide. */
export function zoomOf(choice: ZoomChoice, naturalWidthPx: number, viewWidthPx: number): number {
  if (typeof choice === 'number') return clamp(choice);
  const fit = viewWidthPx > 0 && naturalWidthPx > 0 ? viewWidthPx / naturalWidthPx : 1;
  if (choice === 'fit') return clamp(Math.min(STRETCH_MAX, fit));
  if (fit > 1) return Math.min(STRETCH_MAX, fit);
  return fit >= SQUEEZE_MIN ? fit : 1;
}

export function zoomIn(zoom: number): number {
  return clamp(zoom * ZOOM_FACTOR);
}

export function zoomOut(zoom: number): number {
  return clamp(zoom / ZOOM_FACTOR);
}

/** `zoom` scaled by a gesture's factor (a pinch's spread, a wheel's notch), within the bounds. */
export function zoomBy(zoom: number, factor: number): number {
  return Number.isFinite(factor) && factor > 0 ? clamp(zoom * factor) : zoom;
}
