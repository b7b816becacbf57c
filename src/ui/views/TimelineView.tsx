import {
  createContext,
  memo,
  useContext,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import {
  buildTimelineModel,
  layoutTimeline,
  type BeliefBand,
  type BlockSpan,
  type ClientPoint,
  type ClockMark,
  type CommandMark,
  type HolderBand,
  type Span,
  type StaleBelief,
  type TimelineLayout,
  type TimelineModel,
  type TtlBar,
  type ViolationMarker,
} from './timeline-model';
import { translator, violationText, type Lang, type Translate } from '../../i18n';
import { blockLabel, pointLabel, textOf } from './view-text';
import { clientColor, fitText, textWidth } from './svg-text';
import { Badge, JumpMark, markState, partsTspans, partsVisibleText } from './svg-parts';
import type { RunViewProps } from './types';
import { useViewScale } from './use-view-scale';

/** Geometry of the timeline in SVG units (presentation mode scales the whole drawing). */
export interface TimelineGeometry {
  readonly gutterPx: number;
  /** Time labels (top lane), the axis line, then clock marks and violation flags. */
  readonly tickLabelY: number;
  readonly axisY: number;
  readonly flagY: number;
  readonly flagH: number;
  readonly rowsY: number;
  readonly clientRowH: number;
  readonly redisRowH: number;
  readonly chipFontPx: number;
  readonly labelFontPx: number;
  /** Offsets inside a client row: belief band, command chips, waits. */
  readonly beliefDy: number;
  readonly beliefH: number;
  readonly chipDy: number;
  readonly chipH: number;
  /** Two lines (command, then reply) or one (`GET lock → <A's token>`). */
  readonly chipLines: 1 | 2;
  readonly blockDy: number;
  readonly blockH: number;
  readonly blockFontPx: number;
  /** Offsets inside the Redis row: holder band, lease bar, lease label. */
  readonly holderDy: number;
  readonly holderH: number;
  readonly ttlDy: number;
  readonly ttlLabelDy: number;
  readonly showLegend: boolean;
  /** Layout: slot widths (one-line chips need more). */
  readonly commandStepPx: number;
  readonly plainStepPx: number;
}

export type TimelineDensity = 'comfortable' | 'compact';

export const TIMELINE_GEOMETRY: Readonly<Record<TimelineDensity, TimelineGeometry>> = {
  comfortable: {
    gutterPx: 148,
    tickLabelY: 16,
    axisY: 26,
    flagY: 32,
    flagH: 20,
    rowsY: 60,
    clientRowH: 84,
    redisRowH: 76,
    chipFontPx: 12.5,
    labelFontPx: 11.5,
    beliefDy: 8,
    beliefH: 16,
    chipDy: 28,
    chipH: 34,
    chipLines: 2,
    blockDy: 64,
    blockH: 15,
    blockFontPx: 11,
    holderDy: 10,
    holderH: 22,
    ttlDy: 42,
    ttlLabelDy: 20,
    showLegend: true,
    commandStepPx: 120,
    plainStepPx: 44,
  },
  compact: {
    gutterPx: 118,
    tickLabelY: 9,
    axisY: 17,
    flagY: 20,
    flagH: 16,
    rowsY: 39,
    clientRowH: 54,
    redisRowH: 46,
    chipFontPx: 12,
    labelFontPx: 11,
    beliefDy: 4,
    beliefH: 12,
    chipDy: 18,
    chipH: 20,
    chipLines: 1,
    blockDy: 41,
    blockH: 10,
    blockFontPx: 10,
    holderDy: 4,
    holderH: 17,
    ttlDy: 25,
    ttlLabelDy: 12,
    showLegend: false,
    commandStepPx: 150,
    plainStepPx: 40,
  },
};

const GeometryContext = createContext<TimelineGeometry>(TIMELINE_GEOMETRY.comfortable);
const useG = () => useContext(GeometryContext);

/** Full height of the drawing for `rowCount` client rows. */
export function timelineHeight(g: TimelineGeometry, rowCount: number, legendRows: number): number {
  return g.rowsY + rowCount * g.clientRowH + g.redisRowH + (g.showLegend ? 8 + legendRows * LEGEND_ROW_H + 10 : 4);
}

/**
 * The density that fits `availableHeightPx` (the height of the view's parent): comfortable when
 * it fits, else compact. A parent sized by its content measures exactly the comfortable drawing,
 * so it keeps it; only a panel of fixed, smaller height switches to compact.
 */
export function densityFor(availableHeightPx: number, clientCount: number, scale: number): TimelineDensity {
  if (availableHeightPx <= 0) return 'comfortable';
  return timelineHeight(TIMELINE_GEOMETRY.comfortable, clientCount, 1) * scale <= availableHeightPx + 2 ? 'comfortable' : 'compact';
}

/** Rendered beyond the visible area on each side, so a short scroll shows no gap. */
const CULL_MARGIN_PX = 600;
/** The culling window moves in steps of this much scroll, so scrolling re-renders rarely. */
const CULL_STEP_PX = 300;
/** What is still going at the end of the run reaches this far past it. */
const OPEN_TAIL_PX = 36;
/** A violation flag is at most this wide. */
const VIOLATION_FLAG_MAX_PX = 300;

type Window = readonly [number, number];

export interface TimelineSvgProps {
  readonly model: TimelineModel;
  readonly layout: TimelineLayout;
  readonly cursorStep: number;
  readonly nowMs: number;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  /** Content x range to draw; null draws everything (export). */
  readonly window: Window | null;
  readonly idPrefix: string;
  readonly scale?: number;
  readonly stickyRef?: Ref<SVGGElement>;
  readonly svgRef?: Ref<SVGSVGElement>;
  /** Visible width in SVG units (the legend wraps to it); the whole width when absent. */
  readonly viewportWidthPx?: number;
  readonly density?: TimelineDensity;
}

export interface TimelineViewProps extends RunViewProps {
  /** Receives the drawn <svg> (for export). */
  readonly svgRef?: Ref<SVGSVGElement>;
  /** 'auto' (default): comfortable when the height the view is given fits it, else compact. */
  readonly density?: TimelineDensity | 'auto';
}

/**
 * The run as swimlanes: one row per client (what it believes, the commands it sent, its waits) and
 * one for Redis (who Redis says holds the lock, and the lease). Scrolls horizontally; only what is
 * near the viewport is drawn, so a 10,000-event run costs what a 50-event one does per step.
 */
export const TimelineView = memo(function TimelineView(props: TimelineViewProps) {
  const { events, clientIds, tokenOwners, cursorStep, nowMs, lang, onJump, svgRef } = props;
  const idPrefix = `lsv${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const scale = useViewScale();
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickyRef = useRef<SVGGElement>(null);
  const [viewportPx, setViewportPx] = useState(1100);
  const [availableHeightPx, setAvailableHeightPx] = useState(0);
  const [window, setWindow] = useState<Window>([0, 1100 + CULL_MARGIN_PX]);

  const model = useMemo(() => buildTimelineModel(events, clientIds, tokenOwners), [events, clientIds, tokenOwners]);
  const density = !props.density || props.density === 'auto' ? densityFor(availableHeightPx, model.rows.length, scale) : props.density;
  const G = TIMELINE_GEOMETRY[density];
  const fitWidthPx = Math.max(0, viewportPx / scale - G.gutterPx - 2);
  const layout = useMemo(
    () => layoutTimeline(model, { fitWidthPx, commandStepPx: G.commandStepPx, plainStepPx: G.plainStepPx }),
    [model, fitWidthPx, G],
  );

  const updateWindow = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const left = el.scrollLeft / scale;
    stickyRef.current?.setAttribute('transform', `translate(${left} 0)`);
    const width = el.clientWidth / scale || 1100;
    const x0 = Math.max(0, Math.floor((left - G.gutterPx - CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX);
    const x1 = Math.ceil((left + width + CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX;
    setWindow((w) => (w[0] === x0 && w[1] === x1 ? w : [x0, x1]));
  }, [scale, G]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      // Rounded so sub-pixel resizes do not re-layout the whole run.
      const width = Math.round(el.clientWidth / 8) * 8;
      if (width > 0) setViewportPx(width);
      // The height the page gives the view (its parent's), which picks the density.
      const parent = rootRef.current?.parentElement;
      if (parent) setAvailableHeightPx(parent.clientHeight);
      updateWindow();
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    const parent = rootRef.current?.parentElement;
    if (parent) observer.observe(parent);
    return () => observer.disconnect();
  }, [updateWindow]);

  // Keep the cursor in view while stepping: scroll only when it leaves the visible part.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const x = (G.gutterPx + layout.cursorX(cursorStep)) * scale;
    const visibleFrom = el.scrollLeft + (G.gutterPx + 24) * scale;
    const visibleTo = el.scrollLeft + el.clientWidth - 24 * scale;
    if (x < visibleFrom || x > visibleTo) {
      el.scrollLeft = Math.max(0, x - G.gutterPx * scale - (el.clientWidth - G.gutterPx * scale) * 0.4);
      updateWindow();
    }
  }, [cursorStep, layout, scale, updateWindow, G]);

  const t = translator(lang);
  return (
    <div ref={rootRef} className="lsv-view lsv-timeline" data-testid="timeline" data-density={density} role="region" aria-label={t('timeline')}>
      <div className="lsv-scroll lsv-scroll-x" ref={scrollRef} onScroll={updateWindow}>
        <TimelineSvg
          model={model}
          layout={layout}
          cursorStep={cursorStep}
          nowMs={nowMs}
          lang={lang}
          onJump={onJump}
          window={window}
          idPrefix={idPrefix}
          scale={scale}
          stickyRef={stickyRef}
          svgRef={svgRef}
          viewportWidthPx={viewportPx / scale}
          density={density}
        />
      </div>
    </div>
  );
});

/** The drawing itself, also rendered whole (window null) for export. */
export function TimelineSvg(props: TimelineSvgProps) {
  const { model, layout, cursorStep, nowMs, lang, onJump, window, idPrefix, stickyRef, svgRef } = props;
  const scale = props.scale ?? 1;
  const G = TIMELINE_GEOMETRY[props.density ?? 'comfortable'];
  const t = translator(lang);
  const rowCount = model.rows.length;
  const width = G.gutterPx + layout.widthPx;
  const legendWidthPx = Math.min(width, props.viewportWidthPx ?? width);
  const height = timelineHeight(G, rowCount, legendLayout(lang, legendWidthPx).rows);
  const rowsEndY = G.rowsY + rowCount * G.clientRowH + G.redisRowH;
  const cursorX = layout.cursorX(cursorStep);
  // At the end of the run nothing lies in the future: no shade over what is still going.
  const shadeX = cursorStep >= layout.slots.length ? layout.widthPx : cursorX;
  const colorIndex = useMemo(() => new Map(model.clientIds.map((id, i) => [id, i])), [model.clientIds]);
  const visible = useVisible(model, layout, window);

  return (
    <GeometryContext.Provider value={G}>
    <svg
      ref={svgRef}
      className="lsv-svg"
      xmlns="http://www.w3.org/2000/svg"
      width={width * scale}
      height={height * scale}
      viewBox={`0 0 ${width} ${height}`}
      role="group"
      aria-label={t('timelineLabel')}
      data-view="timeline"
    >
      <Defs model={model} idPrefix={idPrefix} />
      <rect className="lsv-bg" x={0} y={0} width={width} height={height} />
      <g transform={`translate(${G.gutterPx} 0)`}>
        <CurrentStep layout={layout} cursorStep={cursorStep} top={G.rowsY} bottom={rowsEndY} />
        <Axis layout={layout} visible={visible} lang={lang} rowsEndY={rowsEndY} />
        <ViolationLines violations={visible.violations} layout={layout} bottom={rowsEndY} />
        {model.rows.map((row, i) => (
          <g
            key={row.clientId}
            className="lsv-row"
            data-testid={`timeline.row.${row.clientId}`}
            role="group"
            aria-label={t('client', { id: row.clientId })}
          >
            <ClientRowStatic
              y={G.rowsY + i * G.clientRowH}
              clientId={row.clientId}
              colorIndex={i}
              visible={visible.rows[i]}
              layout={layout}
              lang={lang}
              idPrefix={idPrefix}
            />
            <FutureShade x={shadeX} width={layout.widthPx} y={G.rowsY + i * G.clientRowH} height={G.clientRowH} />
            <CommandMarks
              marks={visible.rows[i].commands}
              layout={layout}
              y={G.rowsY + i * G.clientRowH}
              cursorStep={cursorStep}
              lang={lang}
              onJump={onJump}
              colorIndex={colorIndex}
            />
          </g>
        ))}
        <g className="lsv-row" data-testid="timeline.row.redis" role="group" aria-label={t('redis')}>
          <RedisRowStatic
            y={G.rowsY + rowCount * G.clientRowH}
            holders={visible.holders}
            ttlBars={visible.ttlBars}
            layout={layout}
            lang={lang}
            colorIndex={colorIndex}
          />
          <FutureShade x={shadeX} width={layout.widthPx} y={G.rowsY + rowCount * G.clientRowH} height={G.redisRowH} />
        </g>
        <Cursor x={cursorX} top={G.axisY} bottom={rowsEndY} nowMs={nowMs} lang={lang} widthPx={layout.widthPx} />
        <ClockMarks clocks={visible.clocks} layout={layout} cursorStep={cursorStep} lang={lang} onJump={onJump} />
        <ViolationFlags violations={visible.violations} layout={layout} cursorStep={cursorStep} lang={lang} onJump={onJump} />
      </g>
      <g ref={stickyRef} className="lsv-sticky">
        <Gutter model={model} lang={lang} height={height} rowsEndY={rowsEndY} />
        {G.showLegend && <Legend y={rowsEndY + 6} lang={lang} idPrefix={idPrefix} maxWidthPx={legendWidthPx} />}
      </g>
    </svg>
    </GeometryContext.Provider>
  );
}

// ---------------------------------------------------------------------------------------------
// What is near the viewport.

interface VisibleRow {
  readonly commands: readonly CommandMark[];
  readonly blocks: readonly BlockSpan[];
  readonly points: readonly ClientPoint[];
  readonly beliefs: readonly BeliefBand[];
  readonly sections: readonly Span[];
  readonly stale: readonly StaleBelief[];
}

interface Visible {
  readonly rows: readonly VisibleRow[];
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly violations: readonly ViolationMarker[];
  readonly clocks: readonly ClockMark[];
  readonly ticks: TimelineLayout['ticks'];
}

function useVisible(model: TimelineModel, layout: TimelineLayout, window: Window | null): Visible {
  const x0 = window ? window[0] : Number.NEGATIVE_INFINITY;
  const x1 = window ? window[1] : Number.POSITIVE_INFINITY;
  return useMemo(() => {
    const near = (x: number) => x >= x0 - 80 && x <= x1 + 80;
    const spans = <S extends Span>(list: readonly S[]) => list.filter((s) => layout.xOf(s.start) <= x1 && layout.xOf(s.end) >= x0);
    return {
      rows: model.rows.map((r) => ({
        commands: r.commands.filter((c) => near(layout.xOfSeq(c.seq))),
        blocks: spans(r.blocks),
        points: r.points.filter((p) => near(layout.xOfSeq(p.seq))),
        beliefs: spans(r.beliefs),
        sections: spans(r.criticalSections),
        stale: spans(r.staleBeliefs),
      })),
      holders: spans(model.holders),
      ttlBars: spans(model.ttlBars),
      violations: model.violations.filter((v) => near(layout.xOfSeq(v.causeSeq))),
      clocks: model.clocks.filter((c) => c.reason === 'advance' && near(layout.xOfSeq(c.seq))),
      ticks: layout.ticks.filter((tick) => near(tick.x)),
    };
  }, [model, layout, x0, x1]);
}

// ---------------------------------------------------------------------------------------------
// Layers.

function Defs({ model, idPrefix }: { model: TimelineModel; idPrefix: string }) {
  return (
    <defs>
      {model.clientIds.map((id, i) => (
        <pattern key={id} id={`${idPrefix}-belief-${i}`} width={7} height={7} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width={7} height={7} className="lsv-belief-bg" style={{ fill: clientColor(id, i) }} />
          <line x1={0} y1={0} x2={0} y2={7} className="lsv-belief-hatch" style={{ stroke: clientColor(id, i) }} />
        </pattern>
      ))}
      <pattern id={`${idPrefix}-stale`} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
        <line x1={0} y1={0} x2={0} y2={6} className="lsv-stale-hatch" />
      </pattern>
      <pattern id={`${idPrefix}-gc`} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width={6} height={6} className="lsv-block-gc-bg" />
        <line x1={0} y1={0} x2={0} y2={6} className="lsv-block-gc-hatch" />
      </pattern>
    </defs>
  );
}

const CurrentStep = memo(function CurrentStep(props: { layout: TimelineLayout; cursorStep: number; top: number; bottom: number }) {
  const slot = props.layout.slots[props.cursorStep - 1];
  if (!slot) return null;
  return <rect className="lsv-current-step" x={slot.x0 - 3} y={props.top} width={slot.x1 - slot.x0 + 6} height={props.bottom - props.top} rx={6} />;
});

const Axis = memo(function Axis(props: { layout: TimelineLayout; visible: Visible; lang: Lang; rowsEndY: number }) {
  const G = useG();
  const { layout, visible, lang, rowsEndY } = props;
  const t = translator(lang);
  return (
    <g className="lsv-axis" aria-hidden="true">
      <line className="lsv-axis-line" x1={0} x2={layout.widthPx} y1={G.axisY} y2={G.axisY} />
      {visible.ticks.map((tick, i) => (
        <g key={tick.ms}>
          <line className="lsv-grid" x1={tick.x} x2={tick.x} y1={G.axisY} y2={rowsEndY} />
          <line className="lsv-tick" x1={tick.x} x2={tick.x} y1={G.axisY - 4} y2={G.axisY + 4} />
          {tick.labeled && (
            <text className="lsv-tick-label" x={tick.x + 3} y={G.tickLabelY}>
              {i === 0 && tick.ms === 0 ? t('clockJump', { ms: 0 }) : t('clockJump', { ms: tick.ms }).replace(/^t = /, '')}
            </text>
          )}
          {tick.compressedBefore && <AxisBreak x={tick.x - 14} />}
        </g>
      ))}
      {layout.tailPx > 0 && (
        <g>
          <line className="lsv-run-end" x1={layout.runEndX} x2={layout.runEndX} y1={G.axisY} y2={rowsEndY} />
          <text
            className="lsv-run-end-label"
            x={layout.runEndX + 5 + 90 > layout.widthPx ? layout.runEndX - 5 : layout.runEndX + 5}
            y={G.tickLabelY}
            textAnchor={layout.runEndX + 5 + 90 > layout.widthPx ? 'end' : 'start'}
          >
            {t('runEnd')}
          </text>
        </g>
      )}
    </g>
  );
});

function AxisBreak({ x }: { x: number }) {
  const G = useG();
  return (
    <g className="lsv-axis-break">
      <rect x={x - 5} y={G.axisY - 5} width={10} height={10} className="lsv-bg" />
      <path d={`M${x - 5},${G.axisY + 4} l4,-8 M${x + 1},${G.axisY + 4} l4,-8`} />
    </g>
  );
}

const ViolationLines = memo(function ViolationLines(props: { violations: readonly ViolationMarker[]; layout: TimelineLayout; bottom: number }) {
  const G = useG();
  return (
    <g aria-hidden="true">
      {props.violations.map((v) => {
        const x = props.layout.xOfSeq(v.causeSeq);
        return <line key={v.seq} className="lsv-violation-line" x1={x} x2={x} y1={G.flagY + G.flagH} y2={props.bottom} />;
      })}
    </g>
  );
});

interface RowStaticProps {
  readonly y: number;
  readonly clientId: string;
  readonly colorIndex: number;
  readonly visible: VisibleRow;
  readonly layout: TimelineLayout;
  readonly lang: Lang;
  readonly idPrefix: string;
}

/** Everything in a client row that does not depend on the cursor (so stepping does not redraw it). */
const ClientRowStatic = memo(function ClientRowStatic(props: RowStaticProps) {
  const G = useG();
  const { y, clientId, colorIndex, visible, layout, lang, idPrefix } = props;
  const t = translator(lang);
  const color = clientColor(clientId, colorIndex);
  const beliefY = y + G.beliefDy;
  const beliefH = G.beliefH;
  const blockY = y + G.blockDy;
  const blockH = G.blockH;
  return (
    <g aria-hidden="true">
      <line className="lsv-row-sep" x1={0} x2={layout.widthPx} y1={y + G.clientRowH} y2={y + G.clientRowH} />
      {visible.stale.map((s) => (
        <rect
          key={`s${s.start.seq ?? s.start.ms}`}
          className="lsv-stale"
          x={layout.xOf(s.start)}
          y={beliefY + beliefH + 1}
          width={Math.max(2, layout.xOf(s.end) + (s.open ? OPEN_TAIL_PX : 0) - layout.xOf(s.start))}
          height={6}
          style={{ fill: `url(#${idPrefix}-stale)` }}
        />
      ))}
      {visible.beliefs.map((b) => {
        const x0 = layout.xOf(b.start);
        const x1 = layout.xOf(b.end) + (b.open ? OPEN_TAIL_PX : 0);
        const labels = staleLabels(visible.stale, b, x0, x1, layout, t, G.labelFontPx);
        const room = labels.reduce((end, l) => (l.open ? end : Math.min(end, l.x - l.width - 10)), x1 - 6);
        const label = fitText(t('believes', { id: clientId }), room - x0 - 6, G.labelFontPx, false);
        return (
          <g key={`b${b.start.seq}`} className={`lsv-belief${b.open ? ' lsv-open' : ''}`}>
            <rect x={x0} y={beliefY} width={Math.max(2, x1 - x0)} height={beliefH} rx={3} style={{ fill: `url(#${idPrefix}-belief-${colorIndex})`, stroke: color }} />
            {label && (
              <text className="lsv-band-label" x={x0 + 6} y={beliefY + beliefH / 2} style={{ fontSize: G.labelFontPx }}>
                {label}
              </text>
            )}
            {labels.map((l) => (
              <text key={l.x} className="lsv-stale-label" x={l.x} y={beliefY + beliefH / 2} textAnchor={l.open ? 'start' : 'end'} style={{ fontSize: G.labelFontPx }}>
                {l.text}
              </text>
            ))}
          </g>
        );
      })}
      {visible.sections.map((s) => {
        const x0 = layout.xOf(s.start);
        const x1 = layout.xOf(s.end);
        return <rect key={`c${s.start.seq}`} className="lsv-section" x={x0} y={beliefY + beliefH - 3} width={Math.max(2, x1 - x0)} height={3} style={{ fill: color }} />;
      })}
      {visible.blocks.map((b) => {
        const x0 = layout.xOf(b.start);
        const x1 = layout.xOf(b.end);
        const w = Math.max(3, x1 - x0);
        const label = fitText(blockLabel(b.reason, b.durationMs, lang), w - 10, G.blockFontPx, false);
        return (
          <g key={`w${b.seq}`} className={`lsv-block lsv-block-${b.reason}${b.cut ? ' lsv-cut' : ''}`}>
            <rect
              x={x0}
              y={blockY}
              width={w}
              height={blockH}
              rx={3}
              style={b.reason === 'stall' ? { fill: `url(#${idPrefix}-gc)` } : undefined}
            />
            {label && (
              <text className="lsv-block-label" x={x0 + 5} y={blockY + blockH / 2} style={{ fontSize: G.blockFontPx }}>
                {label}
              </text>
            )}
          </g>
        );
      })}
      {visible.points
        .filter((p) => p.kind !== 'enter' && p.kind !== 'leave')
        .map((p) => (
          <PointMarker key={p.seq} point={p} x={layout.xOfSeq(p.seq)} y={blockY + blockH / 2} lang={lang} />
        ))}
    </g>
  );
});

interface StaleLabel {
  readonly x: number;
  readonly width: number;
  readonly text: string;
  readonly open: boolean;
}

/**
 * Where a belief goes stale, say why, on the band itself: right-aligned at the end of each stale
 * part, or just after the band when it is still going at the end of the run (there is room there).
 * Labels that do not fit are left out; the hatch below the band and the legend still tell it.
 */
function staleLabels(
  stale: readonly StaleBelief[],
  belief: BeliefBand,
  x0: number,
  x1: number,
  layout: TimelineLayout,
  t: Translate,
  fontPx: number,
): StaleLabel[] {
  const out: StaleLabel[] = [];
  for (const s of stale) {
    const sx0 = Math.max(x0, layout.xOf(s.start));
    const sx1 = Math.min(x1, layout.xOf(s.end) + (s.open ? OPEN_TAIL_PX : 0));
    if (sx1 <= sx0 || layout.xOf(s.start) < x0 - 0.5 || layout.xOf(s.start) > x1) continue;
    const words = `⚠ ${s.redisHolder === null ? t('staleFree') : t('stale', { holder: s.redisHolder })}`;
    if (s.open && belief.open) {
      // After the band only when the whole label fits before the drawing's right edge.
      const room = Math.min(200, layout.widthPx - (x1 + 6) - 4);
      const text = room > 0 ? fitText(words, room, fontPx, false) : null;
      if (text && !text.endsWith('…')) {
        out.push({ x: x1 + 6, width: textWidth(text, fontPx, false), text, open: true });
        continue;
      }
    }
    const text = fitText(words, sx1 - sx0 - 10, fontPx, false);
    if (text && !text.endsWith('…')) out.push({ x: sx1 - 5, width: textWidth(text, fontPx, false), text, open: false });
  }
  return out;
}

function PointMarker({ point, x, y, lang }: { point: ClientPoint; x: number; y: number; lang: Lang }) {
  const glyph = { end: '■', crash: '✕', 'give-up': '⊘', write: '✎', mark: '+', enter: '', leave: '' }[point.kind];
  const detail = point.detail.length > 0 ? ` ${textOf(point.detail, lang)}` : '';
  return (
    <g className={`lsv-point lsv-point-${point.kind}${point.rejected ? ' lsv-rejected' : ''}`}>
      <text x={x} y={y} textAnchor="start">
        {`${glyph} ${pointLabel(point.kind, lang)}${point.kind === 'give-up' ? '' : detail}`}
      </text>
    </g>
  );
}

function FutureShade({ x, width, y, height }: { x: number; width: number; y: number; height: number }) {
  if (x >= width) return null;
  return <rect className="lsv-future-shade" x={x} y={y} width={width - x} height={height} aria-hidden="true" />;
}

interface MarksProps {
  readonly marks: readonly CommandMark[];
  readonly layout: TimelineLayout;
  readonly y: number;
  readonly cursorStep: number;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly colorIndex: ReadonlyMap<string, number>;
}


function CommandMarks(props: MarksProps) {
  const G = useG();
  const { marks, layout, y, cursorStep, lang, onJump, colorIndex } = props;
  return (
    <g>
      {marks.map((m) => {
        const slot = layout.slots[m.step];
        return (
          <Chip
            key={m.seq}
            mark={m}
            x={layout.xOfSeq(m.seq)}
            maxWidth={slot ? slot.x1 - slot.x0 - 6 : 100}
            y={y + G.chipDy}
            state={markState(m.step, cursorStep)}
            lang={lang}
            onJump={onJump}
            colorIndex={colorIndex}
          />
        );
      })}
    </g>
  );
}

interface ChipProps {
  readonly mark: CommandMark;
  readonly x: number;
  readonly maxWidth: number;
  readonly y: number;
  readonly state: 'past' | 'current' | 'future';
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly colorIndex: ReadonlyMap<string, number>;
}

/** One command: verb and key on top, the reply below; a button that jumps to just after it. */
const Chip = memo(function Chip(props: ChipProps) {
  const G = useG();
  const { mark, x, maxWidth, y, state, lang, onJump, colorIndex } = props;
  const t = translator(lang);
  const index = colorIndex.get(mark.clientId) ?? 0;
  const violated = mark.violationSeqs.length > 0;
  const replyText = `→ ${textOf(mark.reply, lang)}`;
  const charW = (G.chipFontPx - 0.5) * 0.61;
  // Two lines: verb and key, then the reply. One line (compact): the key goes first when short of room.
  const warn = violated ? '⚠ ' : '';
  const fullHead = `${mark.verb}${mark.key !== null ? ` ${mark.key}` : ''}`;
  const oneLine = G.chipLines === 1;
  const shortHead =
    oneLine && textWidth(`${warn}${fullHead} ${replyText}`, G.chipFontPx, true) + 14 > maxWidth ? mark.verb : fullHead;
  const natural = oneLine
    ? textWidth(`${warn}${shortHead} ${replyText}`, G.chipFontPx, true) + 14
    : Math.max(textWidth(`${warn}${shortHead}`, G.chipFontPx, true), textWidth(replyText, G.chipFontPx - 0.5, true)) + 16;
  const w = Math.min(maxWidth, natural);
  const warnW = textWidth(warn, G.chipFontPx, true);
  const head = fitText(shortHead, w - 12 - warnW, G.chipFontPx, true);
  const headW = warnW + textWidth(head, G.chipFontPx, true);
  const replyX = oneLine ? x - w / 2 + 7 + headW + charW : x - w / 2 + 7;
  const charsFit = Math.max(3, Math.floor((x + w / 2 - 7 - replyX) / charW));
  const h = G.chipH;
  // The name says what the chip shows (so speech matches sight); the title has the whole command.
  const name = t('stepMark', { step: mark.step + 1, id: mark.clientId, command: head, reply: partsVisibleText(mark.reply, lang, charsFit - 2) });
  const description = t('stepMark', { step: mark.step + 1, id: mark.clientId, command: textOf(mark.command, lang), reply: textOf(mark.reply, lang) });
  return (
    <JumpMark
      className={`lsv-mark lsv-chip${violated ? ' lsv-violated' : ''}${mark.replyType === 'error' ? ' lsv-error' : ''}`}
      testId={`timeline.mark.${mark.seq}`}
      step={mark.step}
      state={state}
      exposeStep
      name={state === 'future' ? `${name} ${t('stepMarkFuture')}` : name}
      title={description}
      onJump={onJump}
    >
      <rect className="lsv-chip-box" x={x - w / 2} y={y} width={w} height={h} rx={6} style={{ stroke: clientColor(mark.clientId, index) }} />
      <text className="lsv-chip-head" x={x - w / 2 + 7} y={oneLine ? y + h / 2 : y + 11.5}>
        {warn && <tspan aria-hidden="true">{warn}</tspan>}
        {head}
      </text>
      <text className="lsv-chip-reply" x={replyX} y={oneLine ? y + h / 2 : y + 25}>
        <tspan>{'→ '}</tspan>
        {partsTspans(mark.reply, lang, colorIndex, charsFit - 2)}
      </text>
    </JumpMark>
  );
});

interface RedisRowProps {
  readonly y: number;
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly layout: TimelineLayout;
  readonly lang: Lang;
  readonly colorIndex: ReadonlyMap<string, number>;
}

const RedisRowStatic = memo(function RedisRowStatic(props: RedisRowProps) {
  const G = useG();
  const { y, holders, ttlBars, layout, lang, colorIndex } = props;
  const t = translator(lang);
  const bandY = y + G.holderDy;
  const bandH = G.holderH;
  const ttlY = y + G.ttlDy;
  return (
    <g aria-hidden="true">
      {holders.map((h) => {
        const x0 = layout.xOf(h.start);
        const x1 = layout.xOf(h.end) + (h.open ? OPEN_TAIL_PX : 0);
        const index = h.holder === null ? 0 : (colorIndex.get(h.holder) ?? 0);
        const color = clientColor(h.holder, index);
        const words = h.holder === null ? t('redisHoldsNobody') : t('redisHolds', { id: h.holder });
        const label = fitText(words, x1 - x0 - 34, G.labelFontPx + 0.5, false);
        return (
          <g key={`h${h.start.seq}`} className={`lsv-holder${h.open ? ' lsv-open' : ''}`}>
            <rect className="lsv-holder-band" x={x0} y={bandY} width={Math.max(2, x1 - x0)} height={bandH} rx={4} style={{ fill: color, stroke: color }} />
            {x1 - x0 > 26 && h.holder !== null && <Badge x={x0 + 13} y={bandY + bandH / 2} r={Math.min(8, bandH / 2 - 2)} id={h.holder} index={index} />}
            {label && (
              <text className="lsv-holder-label" x={x0 + 26} y={bandY + bandH / 2}>
                {label}
              </text>
            )}
          </g>
        );
      })}
      {ttlBars.map((bar) => {
        const x0 = layout.xOf(bar.start);
        const x1 = layout.xOf(bar.end);
        const index = bar.holder === null ? 0 : (colorIndex.get(bar.holder) ?? 0);
        const color = clientColor(bar.holder, index);
        const endWords =
          bar.expireAtMs === null
            ? t('leaseNoExpiry')
            : bar.cut === 'deleted' || bar.cut === 'overwritten'
              ? `✕ ${t(bar.cut === 'deleted' ? 'leaseDeleted' : 'leaseOverwritten', { id: endedByOf(holders, bar) ?? '?' })}`
              : bar.cut === 'renewed'
                ? t('leaseRenewed')
                : t('expires', { ms: bar.expireAtMs });
        const label = fitText(`TTL · ${endWords}`, Math.max(x1 - x0, 130), 11, false);
        return (
          <g key={`t${bar.start.seq}`} className={`lsv-ttl${bar.projected ? ' lsv-projected' : ''}${bar.cut ? ' lsv-cut' : ''}`}>
            <rect className="lsv-ttl-bar" x={x0} y={ttlY} width={Math.max(2, x1 - x0)} height={6} rx={3} style={{ fill: color }} />
            <line className="lsv-ttl-end" x1={x1} x2={x1} y1={ttlY - 4} y2={ttlY + 10} style={{ stroke: color }} />
            <text className="lsv-ttl-label" x={x1} y={ttlY + G.ttlLabelDy} textAnchor="end">
              {label}
            </text>
          </g>
        );
      })}
      {freeGaps(holders, layout).map(([x0, x1]) =>
        x1 - x0 > 48 ? (
          <text key={`f${x0}`} className="lsv-free-label" x={(x0 + x1) / 2} y={bandY + bandH / 2} textAnchor="middle">
            {t('lockFree')}
          </text>
        ) : null,
      )}
    </g>
  );
});

function endedByOf(holders: readonly HolderBand[], bar: TtlBar): string | null {
  const band = holders.find((h) => h.end.seq !== null && h.end.seq === bar.end.seq);
  return band?.endedBy ?? null;
}

function freeGaps(holders: readonly HolderBand[], layout: TimelineLayout): [number, number][] {
  const gaps: [number, number][] = [];
  for (let i = 1; i < holders.length; i++) gaps.push([layout.xOf(holders[i - 1].end), layout.xOf(holders[i].start)]);
  return gaps;
}


const Cursor = memo(function Cursor(props: { x: number; top: number; bottom: number; nowMs: number; lang: Lang; widthPx: number }) {
  const G = useG();
  const { x, top, bottom, nowMs, lang } = props;
  const label = translator(lang)('now', { ms: nowMs });
  const w = textWidth(label, 11.5, false) + 14;
  const cx = Math.max(w / 2, Math.min(x, props.widthPx - w / 2));
  return (
    <g className="lsv-cursor" aria-hidden="true">
      <line x1={x} x2={x} y1={top} y2={bottom} />
      <rect className="lsv-cursor-pill" x={cx - w / 2} y={G.tickLabelY - 9} width={w} height={18} rx={9} />
      <text className="lsv-cursor-label" x={cx} y={G.tickLabelY} textAnchor="middle">
        {label}
      </text>
    </g>
  );
});

function ClockMarks(props: { clocks: readonly ClockMark[]; layout: TimelineLayout; cursorStep: number; lang: Lang; onJump: (step: number) => void }) {
  const G = useG();
  const { clocks, layout, cursorStep, lang, onJump } = props;
  const t = translator(lang);
  return (
    <g>
      {clocks.map((c) => {
        const x = layout.xOfSeq(c.seq);
        const label = t('clockAdvance', { ms: c.toMs - c.fromMs });
        const w = textWidth(label, 11, true) + 12;
        const name = t('clockMark', { step: c.step + 1, ms: c.toMs - c.fromMs, to: c.toMs });
        return (
          <JumpMark
            key={c.seq}
            className="lsv-mark lsv-clock"
            testId={`timeline.clock.${c.seq}`}
            step={c.step}
            state={markState(c.step, cursorStep)}
            name={name}
            onJump={onJump}
          >
            <rect x={x - w / 2} y={G.flagY} width={w} height={G.flagH} rx={G.flagH / 2} />
            <text x={x} y={G.flagY + G.flagH / 2} textAnchor="middle">
              {label}
            </text>
          </JumpMark>
        );
      })}
    </g>
  );
}

function ViolationFlags(props: {
  violations: readonly ViolationMarker[];
  layout: TimelineLayout;
  cursorStep: number;
  lang: Lang;
  onJump: (step: number) => void;
}) {
  const G = useG();
  const { violations, layout, cursorStep, lang, onJump } = props;
  const t = translator(lang);
  return (
    <g>
      {violations.map((v) => {
        const x = layout.xOfSeq(v.causeSeq);
        const message = violationText(v.kind, v.message, lang);
        // Long messages are cut on the flag; the accessible name and the tooltip keep all of it.
        const label = fitText(`⚠ ${message}`, VIOLATION_FLAG_MAX_PX - 16, 12, false);
        const w = textWidth(label, 12, false) + 16;
        // Centred on its cause, but kept inside the drawing.
        const left = Math.max(0, Math.min(x - w / 2, layout.widthPx - w));
        const name = t('violationMark', { step: v.step + 1, message });
        return (
          <JumpMark
            key={v.seq}
            className="lsv-mark lsv-violation"
            testId={`timeline.violation.${v.seq}`}
            step={v.step}
            state={markState(v.step, cursorStep)}
            name={name}
            onJump={onJump}
          >
            <rect x={left} y={G.flagY} width={w} height={G.flagH} rx={4} />
            <text x={left + 8} y={G.flagY + G.flagH / 2}>
              {label}
            </text>
          </JumpMark>
        );
      })}
    </g>
  );
}

const Gutter = memo(function Gutter(props: { model: TimelineModel; lang: Lang; height: number; rowsEndY: number }) {
  const G = useG();
  const { model, lang, height } = props;
  const t = translator(lang);
  const redisY = G.rowsY + model.rows.length * G.clientRowH;
  return (
    <g className="lsv-gutter" aria-hidden="true">
      <rect className="lsv-gutter-bg" x={0} y={0} width={G.gutterPx} height={height} />
      <line className="lsv-gutter-edge" x1={G.gutterPx} x2={G.gutterPx} y1={0} y2={props.rowsEndY} />
      <text className="lsv-gutter-axis" x={14} y={G.tickLabelY}>
        {t('axisVirtualTime')}
      </text>
      {model.rows.map((row, i) => {
        const y = G.rowsY + i * G.clientRowH;
        return (
          <g key={row.clientId}>
            <line className="lsv-row-sep" x1={0} x2={G.gutterPx} y1={y + G.clientRowH} y2={y + G.clientRowH} />
            <Badge x={26} y={y + G.clientRowH / 2} r={13} id={row.clientId} index={i} />
            <text className="lsv-gutter-title" x={48} y={y + G.clientRowH / 2}>
              {t('client', { id: row.clientId })}
            </text>
          </g>
        );
      })}
      <g>
        <rect className="lsv-redis-badge" x={13} y={redisY + G.redisRowH / 2 - 13} width={26} height={26} rx={6} />
        <text className="lsv-redis-badge-text" x={26} y={redisY + G.redisRowH / 2} textAnchor="middle">
          R
        </text>
        <text className="lsv-gutter-title" x={48} y={redisY + G.redisRowH / 2 - 7}>
          {t('redis')}
        </text>
        <text className="lsv-gutter-sub" x={48} y={redisY + G.redisRowH / 2 + 10}>
          {t('lockAndLease')}
        </text>
      </g>
    </g>
  );
});

const LEGEND_KEYS = ['legendBelief', 'legendTruth', 'legendStale', 'legendLease', 'legendViolation'] as const;
const LEGEND_ROW_H = 22;

/** Legend items flowed into rows no wider than `maxWidthPx` (x within the row, row index). */
export function legendLayout(lang: Lang, maxWidthPx: number): { items: { key: (typeof LEGEND_KEYS)[number]; x: number; row: number }[]; rows: number } {
  const t = translator(lang);
  let x = 14;
  let row = 0;
  const items = LEGEND_KEYS.map((key) => {
    const width = 30 + textWidth(t(key), 11.5, false) + 18;
    if (x > 14 && x + width > maxWidthPx) {
      row += 1;
      x = 14;
    }
    const item = { key, x, row };
    x += width;
    return item;
  });
  return { items, rows: row + 1 };
}

function legendSwatch(key: (typeof LEGEND_KEYS)[number], idPrefix: string): ReactNode {
  switch (key) {
    case 'legendBelief':
      return <rect x={0} y={-6} width={22} height={12} rx={2} className="lsv-legend-belief" style={{ fill: `url(#${idPrefix}-belief-0)` }} />;
    case 'legendTruth':
      return <rect x={0} y={-6} width={22} height={12} rx={2} className="lsv-legend-truth" />;
    case 'legendStale':
      return <rect x={0} y={-4} width={22} height={8} style={{ fill: `url(#${idPrefix}-stale)` }} />;
    case 'legendLease':
      return <rect x={0} y={-3} width={22} height={6} rx={3} className="lsv-legend-lease" />;
    case 'legendViolation':
      return <line x1={11} x2={11} y1={-7} y2={7} className="lsv-violation-line" />;
  }
}

const Legend = memo(function Legend({ y, lang, idPrefix, maxWidthPx }: { y: number; lang: Lang; idPrefix: string; maxWidthPx: number }) {
  const t = translator(lang);
  const { items } = legendLayout(lang, maxWidthPx);
  return (
    <g className="lsv-legend" aria-hidden="true" transform={`translate(0 ${y + LEGEND_ROW_H / 2 + 4})`}>
      {items.map((item) => (
        <g key={item.key} transform={`translate(${item.x} ${item.row * LEGEND_ROW_H})`}>
          {legendSwatch(item.key, idPrefix)}
          <text x={28} y={0}>
            {t(item.key)}
          </text>
        </g>
      ))}
    </g>
  );
});
