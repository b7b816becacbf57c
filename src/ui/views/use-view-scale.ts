import { useSyncExternalStore } from 'react';

/**
 * Presentation mode (`<html data-presentation="on">`, set by the app shell) draws the SVG views
 * larger: their geometry is in SVG units, so one scale factor enlarges text and marks together.
 * Only on a large screen: on a 1280x720 projector the timeline keeps its normal size so it fits
 * under the lanes (src/ui/styles/presentation.css uses the same query for its large layout).
 */
/** The views' smallest text (12 units) becomes 18 px: readable from the back of a room at 1080p. */
const PRESENTATION_SCALE = 1.5;
const PRESENTATION_LARGE_SCREEN_QUERY = '(min-width: 1600px) and (min-height: 900px)';

let largeScreenQuery: MediaQueryList | null | undefined;

/** The query's live list, made once (snapshots run on every render). Null without matchMedia. */
function largeScreen(): MediaQueryList | null {
  if (largeScreenQuery === undefined) {
    largeScreenQuery = typeof window === 'undefined' || typeof window.matchMedia !== 'function' ? null : window.matchMedia(PRESENTATION_LARGE_SCREEN_QUERY);
  }
  return largeScreenQuery;
}

function subscribe(onChange: () => void): () => void {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-presentation'] });
  const query = largeScreen();
  query?.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    query?.removeEventListener('change', onChange);
  };
}

function snapshot(): number {
  if (typeof document === 'undefined') return 1;
  const mode = document.documentElement.dataset.presentation;
  if (mode !== 'on' && mode !== 'true') return 1;
  return largeScreen()?.matches === false ? 1 : PRESENTATION_SCALE;
}

export function useViewScale(): number {
  return useSyncExternalStore(subscribe, snapshot, () => 1);
}
