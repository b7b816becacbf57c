/**
 * Zoom by gesture on a scroller: two fingers spread or pinch (touch pointers), or the wheel with
 * Ctrl (a trackpad's pinch arrives so in Chromium and Firefox). One finger still pans natively:
 * the scroller's `touch-action: pan-x pan-y` leaves panning to the browser and gives the pinch
 * to us, so the page itself does not zoom.
 */
import { useEffect, useRef, type RefObject } from 'react';

/** A wheel notch (deltaY 100) zooms by this factor; trackpads send many small deltas. */
const wheelZoomPerNotch = 1.25;
/** Most touch pointers followed at once (a palm can add more). */
const touchPointerCountMax = 10;

type Point = { readonly x: number; readonly y: number };
const spread = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Calls `onZoom(factor)` with the gesture's factor relative to its start (pinch) or to the last
 * event (wheel); `begin()` at a pinch's start lets the caller remember the zoom it scales.
 */
export function usePinchZoom(scrollRef: RefObject<HTMLElement | null>, handlers: { readonly begin: () => void; readonly zoom: (factor: number) => void; readonly wheel: (factor: number) => void }): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const touches = new Map<number, Point>();
    let startSpread: number | null = null;
    const pair = (): [Point, Point] | null => {
      const points = [...touches.values()];
      return points.length === 2 ? [points[0], points[1]] : null;
    };
    const down = (e: PointerEvent) => {
      if (e.pointerType !== 'touch' || touches.size >= touchPointerCountMax) return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const p = pair();
      startSpread = p === null ? null : spread(p[0], p[1]);
      if (startSpread !== null) latest.current.begin();
    };
    const move = (e: PointerEvent) => {
      if (!touches.has(e.pointerId)) return;
      touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const p = pair();
      if (p === null || startSpread === null || startSpread < 1) return;
      latest.current.zoom(spread(p[0], p[1]) / startSpread);
    };
    const up = (e: PointerEvent) => {
      touches.delete(e.pointerId);
      startSpread = null;
    };
    const wheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      latest.current.wheel(wheelZoomPerNotch ** (-e.deltaY / 100));
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener('wheel', wheel, { passive: false });
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      el.removeEventListener('wheel', wheel);
    };
  }, [scrollRef]);
}
