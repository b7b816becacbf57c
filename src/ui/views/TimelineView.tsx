/**
 * The interactive timeline: scrolling, zoom, following the cursor. The drawing is as wide as the
 * view, whatever the run's length: a spacer as wide as the run gives the native scrollbar, the
 * SVG stays in place (sticky) and draws the window of the run under it.
 */
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { translator } from '../../i18n';
import { TIMELINE_GEOMETRY, densityFor, type TimelineDensity } from './timeline-geometry';
import { zoomLayout } from './timeline-layout';
import { TimelineSource, useTimelineModel } from './timeline-source';
import { TimelineSvg } from './timeline-svg';
import { ZOOM_MAX, ZOOM_MIN, zoomBy, zoomIn, zoomOf, zoomOut, type ZoomChoice } from './timeline-zoom';
import { usePinchZoom } from './use-pinch-zoom';
import type { RunViewProps } from './types';
import { useViewScale } from './use-view-scale';

/** Drawn beyond the visible area on each side, so a short scroll shows no gap. */
const CULL_MARGIN_PX = 600;
/** The drawn window moves in steps of this much scroll, so scrolling re-renders rarely. */
const CULL_STEP_PX = 300;
/** The cursor is kept at least this far inside the view's edges. */
const FOLLOW_MARGIN_PX = 24;
/** Where the cursor lands (fraction of the view) when the view jumps to it. */
const FOLLOW_AT = 0.4;

type Window = readonly [number, number];

export interface TimelineViewProps extends RunViewProps {
  /** Receives the drawn <svg>. */
  readonly svgRef?: Ref<SVGSVGElement>;
  /** 'auto' (default): the roomiest density whose drawing fits the height the view is given. */
  readonly density?: TimelineDensity | 'auto';
}

/** The window to draw for a scroll position, in content units, snapped to CULL_STEP_PX. */
function windowAt(leftPx: number, widthPx: number): Window {
  const x0 = Math.floor((leftPx - CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX;
  const x1 = Math.ceil((leftPx + widthPx + CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX;
  return [Math.max(0, x0), x1];
}

const NO_NODES: readonly string[] = [];

/**
 * The run as swimlanes: one row per client (what it believes, the commands it sent, its waits) and
 * one for Redis (who Redis says holds the lock, and the lease). Only the window near the viewport
 * is drawn, and the model grows by appending, so a step costs the same at event 10 and 10,000.
 */
export const TimelineView = memo(function TimelineView(props: TimelineViewProps) {
  const { events, eventCount, generation, clientIds, tokenOwners, cursorStep, nowMs, lang, onJump, svgRef } = props;
  const t = translator(lang);
  const idPrefix = `lsv${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const scale = useViewScale();
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<SVGGElement>(null);
  const [viewportPx, setViewportPx] = useState(1100);
  const [availableHeightPx, setAvailableHeightPx] = useState(0);
  const [offsetX, setOffsetX] = useState(0);
  const [window, setWindow] = useState<Window>(() => windowAt(0, 1100));
  const windowRef = useRef<Window>(window);
  /**
   * The scroll box's width and scroll position as last measured (resize observer, scroll events):
   * following the cursor reads these, not the DOM, so a commit (a step, a new run) does not force
   * the page's layout inside React's task; the browser lays out once, in the frame.
   */
  const clientWidthRef = useRef(0);
  const scrollLeftRef = useRef(0);
  /** A scroll position to apply once the window it shows is drawn. */
  const pendingScrollRef = useRef<number | null>(null);
  const [zoomChoice, setZoomChoice] = useState<ZoomChoice>('auto');
  /** Where the cursor should sit in the view after a zoom (fraction of its width), until applied. */
  const anchorRef = useRef<number | null>(null);
  const [source] = useState(() => new TimelineSource());

  const nodeIds = props.nodeIds ?? NO_NODES;
  const model = useTimelineModel(source, events, eventCount, generation, clientIds, tokenOwners);
  // The model's rows: the clients, and the console's lane once the run has a console command.
  const density = !props.density || props.density === 'auto' ? densityFor(availableHeightPx, model.clientIds.length, scale, nodeIds.length) : props.density;
  const G = TIMELINE_GEOMETRY[density];
  const raw = useMemo(() => source.layout(model, { commandStepPx: G.commandStepPx, plainStepPx: G.plainStepPx }), [source, model, G]);
  const viewWidthPx = Math.max(0, viewportPx / scale - G.gutterPx - 2);
  const zoom = zoomOf(zoomChoice, raw.naturalWidthPx, viewWidthPx);
  const layout = useMemo(() => zoomLayout(raw, zoom, viewWidthPx), [raw, zoom, viewWidthPx]);

  /** Reads the scroll position: moves the drawing at once, re-renders only when the window changes. */
  const onScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    scrollLeftRef.current = el.scrollLeft;
    const left = scrollLeftRef.current / scale;
    contentRef.current?.setAttribute('transform', `translate(${G.gutterPx - left} 0)`);
    const next = windowAt(left, el.clientWidth / scale || 1100);
    const current = windowRef.current;
    if (current[0] === next[0] && current[1] === next[1]) return;
    windowRef.current = next;
    setWindow(next);
    setOffsetX(left);
  }, [scale, G]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      clientWidthRef.current = el.clientWidth;
      // Rounded so sub-pixel resizes do not re-layout the run.
      const width = Math.round(clientWidthRef.current / 8) * 8;
      if (width > 0) setViewportPx(width);
      // The height the page gives the view (its parent's), which picks the density.
      const parent = rootRef.current?.parentElement;
      if (parent) setAvailableHeightPx(parent.clientHeight);
      onScroll();
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    const parent = rootRef.current?.parentElement;
    if (parent) observer.observe(parent);
    return () => observer.disconnect();
  }, [onScroll]);

  // Keep the current step in view: after a zoom where it was, while stepping when it leaves the view.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const viewW = clientWidthRef.current / scale - G.gutterPx;
    const x = layout.cursorX(cursorStep);
    const left = scrollLeftRef.current / scale;
    const anchor = anchorRef.current;
    anchorRef.current = null;
    let target: number | null = null;
    if (anchor !== null) target = x - anchor * viewW;
    else if (x < left + FOLLOW_MARGIN_PX || x > left + viewW - FOLLOW_MARGIN_PX) target = x - FOLLOW_AT * viewW;
    if (target === null) return;
    const leftPx = Math.max(0, target);
    const next = windowAt(leftPx, clientWidthRef.current / scale || 1100);
    const current = windowRef.current;
    if (current[0] === next[0] && current[1] === next[1]) {
      el.scrollLeft = leftPx * scale;
      onScroll();
      return;
    }
    // Draw the window the view scrolls to first, then scroll (the effect below): a write of
    // scrollLeft lays the page out at once, so written now the page would be laid out twice,
    // once with the old window and again in the frame with the new one.
    pendingScrollRef.current = leftPx * scale;
    windowRef.current = next;
    setWindow(next);
    setOffsetX(leftPx);
  }, [cursorStep, layout, scale, G, onScroll]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const pending = pendingScrollRef.current;
    pendingScrollRef.current = null;
    if (!el || pending === null) return;
    el.scrollLeft = pending;
    onScroll();
  }, [window, onScroll]);

  const setZoom = (next: ZoomChoice) => {
    const el = scrollRef.current;
    if (el) {
      // Keep the cursor where it is on screen (or bring it to FOLLOW_AT when it was off screen).
      const viewW = el.clientWidth / scale - G.gutterPx;
      const at = (layout.cursorX(cursorStep) - el.scrollLeft / scale) / viewW;
      anchorRef.current = at >= 0 && at <= 1 ? at : FOLLOW_AT;
    }
    setZoomChoice(next);
  };
  // A pinch scales the zoom it started from; a Ctrl+wheel notch the zoom of the moment.
  const pinchFromRef = useRef(zoom);
  usePinchZoom(scrollRef, {
    begin: () => (pinchFromRef.current = zoom),
    zoom: (factor) => setZoom(zoomBy(pinchFromRef.current, factor)),
    wheel: (factor) => setZoom(zoomBy(zoom, factor)),
  });
  const canZoomIn = zoom < ZOOM_MAX;
  const canZoomOut = zoom > ZOOM_MIN;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = event.key === '+' || event.key === '=' ? 'in' : event.key === '-' ? 'out' : event.key === '0' ? 'fit' : null;
    if (action === null) return;
    event.preventDefault();
    event.stopPropagation();
    if (action === 'in' && canZoomIn) setZoom(zoomIn(zoom));
    else if (action === 'out' && canZoomOut) setZoom(zoomOut(zoom));
    else if (action === 'fit') setZoom('fit');
  };

  const trackWidthPx = (G.gutterPx + layout.widthPx) * scale;
  const toolbarTop = (density === 'comfortable' ? G.axisY + 3 : 3) * scale;
  const toolbarHeight = (G.rowsY - 3) * scale - toolbarTop;
  return (
    <div
      ref={rootRef}
      className="lsv-view lsv-timeline"
      data-testid="timeline"
      data-density={density}
      data-zoom={zoom.toFixed(3)}
      data-gutter-px={G.gutterPx * scale}
      role="region"
      aria-label={t('timeline')}
      onKeyDown={onKeyDown}
    >
      <div
        className="lsv-zoom"
        role="toolbar"
        aria-label={t('timelineZoom')}
        data-testid="timeline.zoom"
        style={{ top: toolbarTop, width: (G.gutterPx - 8) * scale, height: toolbarHeight }}
      >
        <button type="button" className="lsv-zoom-button" data-testid="timeline.zoom-out" aria-label={t('zoomOut')} title={`${t('zoomOut')} (−)`} disabled={!canZoomOut} onClick={() => setZoom(zoomOut(zoom))}>
          −
        </button>
        <button type="button" className="lsv-zoom-button" data-testid="timeline.zoom-in" aria-label={t('zoomIn')} title={`${t('zoomIn')} (+)`} disabled={!canZoomIn} onClick={() => setZoom(zoomIn(zoom))}>
          +
        </button>
        <button type="button" className="lsv-zoom-button" data-testid="timeline.zoom-fit" aria-label={t('zoomFit')} title={`${t('zoomFit')} (0)`} onClick={() => setZoom('fit')}>
          ⤢
        </button>
      </div>
      <div className="lsv-scroll lsv-scroll-x" ref={scrollRef} onScroll={onScroll}>
        <div className="lsv-track" style={{ width: trackWidthPx }}>
          <TimelineSvg
            model={model}
            layout={layout}
            cursorStep={cursorStep}
            nowMs={nowMs}
            lang={lang}
            onJump={onJump}
            window={window}
            offsetX={offsetX}
            viewportWidthPx={Math.min(viewportPx / scale, G.gutterPx + layout.widthPx)}
            idPrefix={idPrefix}
            scale={scale}
            svgRef={svgRef}
            contentRef={contentRef}
            density={density}
            nodeIds={nodeIds}
          />
        </div>
      </div>
    </div>
  );
});
