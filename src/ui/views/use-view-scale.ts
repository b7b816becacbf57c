import { useSyncExternalStore } from 'react';

/**
 * Presentation mode (`<html data-presentation="on">`, set by the app shell) draws the SVG views
 * larger: their geometry is in SVG units, so one scale factor enlarges text and marks together.
 */
export const PRESENTATION_SCALE = 1.3;

function subscribe(onChange: () => void): () => void {
  if (typeof MutationObserver === 'undefined' || typeof document === 'undefined') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-presentation'] });
  return () => observer.disconnect();
}

function snapshot(): number {
  if (typeof document === 'undefined') return 1;
  const mode = document.documentElement.dataset.presentation;
  return mode === 'on' || mode === 'true' ? PRESENTATION_SCALE : 1;
}

export function useViewScale(): number {
  return useSyncExternalStore(subscribe, snapshot, () => 1);
}
