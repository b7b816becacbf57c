import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type Ref } from 'react';
import { buildSequenceModel, rowIndexAt, sequenceCursorY, sequenceY, SEQUENCE_ROW_HEIGHT, type SequenceModel, type SequenceRow } from './sequence-model';
import { buildTimelineModel, type Moment, type TimelineModel } from './timeline-model';
import { translator, violationText, type Lang } from '../../i18n';
import { blockLabel, pointLabel, textOf } from './view-text';
import { clientColor, fitText, textWidth } from './svg-text';
import { Badge, JumpMark, markState, partsTspans, type MarkState } from './svg-parts';
import type { RunViewProps } from './types';
import { useViewScale } from './use-view-scale';

/** Geometry of the sequence diagram in SVG units. */
const SEQUENCE_GEOMETRY = {
  headerH: 52,
  /** Left margin: step numbers and times. */
  marginLeftPx: 92,
  marginRightPx: 28,
  columnMinPx: 200,
  bottomPadPx: 24,
  fontPx: 12.5,
} as const;

const S = SEQUENCE_GEOMETRY;
const CULL_MARGIN_PX = 500;
const CULL_STEP_PX = 250;

type Window = readonly [number, number];

export interface SequenceViewProps extends RunViewProps {
  readonly svgRef?: Ref<SVGSVGElement>;
}

export interface SequenceSvgProps {
  readonly model: SequenceModel;
  readonly timeline: TimelineModel;
  readonly clientIds: readonly string[];
  readonly widthPx: number;
  readonly cursorStep: number;
  readonly nowMs: number;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  /** Content y range to draw (below the header); null draws everything (export). */
  readonly window: Window | null;
  readonly idPrefix: string;
  readonly scale?: number;
  readonly stickyRef?: Ref<SVGGElement>;
  readonly svgRef?: Ref<SVGSVGElement>;
}

/** Column order: Redis in the middle, so most arrows are short and none cross Redis. */
function sequenceColumns(clientIds: readonly string[]): (string | null)[] {
  const left = Math.ceil(clientIds.length / 2);
  return [...clientIds.slice(0, left), null, ...clientIds.slice(left)];
}

export function sequenceWidth(viewportPx: number, clientCount: number): number {
  const columns = clientCount + 1;
  return Math.max(viewportPx, S.marginLeftPx + S.marginRightPx + columns * S.columnMinPx);
}

/**
 * The run as a whiteboard sequence diagram: a lifeline per client and one for Redis, an arrow to
 * Redis for each command and one back with the reply, notes for the critical section and waits,
 * the clock's jumps as separators. Scrolls vertically; draws only rows near the viewport.
 */
export const SequenceView = memo(function SequenceView(props: SequenceViewProps) {
  const { events, clientIds, tokenOwners, cursorStep, nowMs, lang, onJump, svgRef } = props;
  const idPrefix = `lsq${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const scale = useViewScale();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickyRef = useRef<SVGGElement>(null);
  const [viewportPx, setViewportPx] = useState(1000);
  const [window, setWindow] = useState<Window>([0, 900 + CULL_MARGIN_PX]);

  const model = useMemo(() => buildSequenceModel(events, tokenOwners), [events, tokenOwners]);
  const timeline = useMemo(() => buildTimelineModel(events, clientIds, tokenOwners), [events, clientIds, tokenOwners]);
  const widthPx = sequenceWidth(viewportPx / scale - 2, timeline.clientIds.length);

  const updateWindow = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop / scale;
    stickyRef.current?.setAttribute('transform', `translate(0 ${top})`);
    const height = el.clientHeight / scale || 600;
    const y0 = Math.max(0, Math.floor((top - CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX);
    const y1 = Math.ceil((top + height + CULL_MARGIN_PX) / CULL_STEP_PX) * CULL_STEP_PX;
    setWindow((w) => (w[0] === y0 && w[1] === y1 ? w : [y0, y1]));
  }, [scale]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => {
      const width = Math.round(el.clientWidth / 8) * 8;
      if (width > 0) setViewportPx(width);
      updateWindow();
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [updateWindow]);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const y = (S.headerH + sequenceCursorY(model, cursorStep)) * scale;
    const from = el.scrollTop + (S.headerH + 16) * scale;
    const to = el.scrollTop + el.clientHeight - 24 * scale;
    if (y < from || y > to) {
      el.scrollTop = Math.max(0, y - S.headerH * scale - (el.clientHeight - S.headerH * scale) * 0.6);
      updateWindow();
    }
  }, [cursorStep, model, scale, updateWindow]);

  const t = translator(lang);
  return (
    <div className="lsv-view lsv-sequence" data-testid="sequence" role="region" aria-label={t('sequence')}>
      <div className="lsv-scroll lsv-scroll-y" ref={scrollRef} onScroll={updateWindow}>
        <SequenceSvg
          model={model}
          timeline={timeline}
          clientIds={timeline.clientIds}
          widthPx={widthPx}
          cursorStep={cursorStep}
          nowMs={nowMs}
          lang={lang}
          onJump={onJump}
          window={window}
          idPrefix={idPrefix}
          scale={scale}
          stickyRef={stickyRef}
          svgRef={svgRef}
        />
      </div>
    </div>
  );
});

interface Columns {
  readonly xOf: (clientId: string | null) => number;
  readonly order: readonly (string | null)[];
  readonly colorIndex: ReadonlyMap<string, number>;
  readonly spacing: number;
}

function columnsFor(clientIds: readonly string[], widthPx: number): Columns {
  const order = sequenceColumns(clientIds);
  const spacing = (widthPx - S.marginLeftPx - S.marginRightPx) / order.length;
  const xs = new Map<string | null, number>(order.map((id, i) => [id, S.marginLeftPx + spacing * (i + 0.5)]));
  return {
    xOf: (id) => xs.get(id) ?? xs.get(null)!,
    order,
    colorIndex: new Map(clientIds.map((id, i) => [id, i])),
    spacing,
  };
}

export function SequenceSvg(props: SequenceSvgProps) {
  const { model, timeline, clientIds, widthPx, cursorStep, nowMs, lang, onJump, window, idPrefix, stickyRef, svgRef } = props;
  const scale = props.scale ?? 1;
  const t = translator(lang);
  const columns = useMemo(() => columnsFor(clientIds, widthPx), [clientIds, widthPx]);
  const height = S.headerH + model.height + S.bottomPadPx;
  const cursorY = sequenceCursorY(model, cursorStep);

  const [first, last] = useMemo(() => {
    if (!window) return [0, model.rows.length];
    return [rowIndexAt(model, window[0]), Math.min(model.rows.length, rowIndexAt(model, window[1]) + 1)];
  }, [model, window]);
  const rowIndexes = useMemo(() => Array.from({ length: Math.max(0, last - first) }, (_, k) => first + k), [first, last]);

  return (
    <svg
      ref={svgRef}
      className="lsv-svg"
      xmlns="http://www.w3.org/2000/svg"
      width={widthPx * scale}
      height={height * scale}
      viewBox={`0 0 ${widthPx} ${height}`}
      role="group"
      aria-label={t('sequenceLabel')}
      data-view="sequence"
    >
      <defs>
        {clientIds.map((id, i) => (
          <pattern key={id} id={`${idPrefix}-belief-${i}`} width={7} height={7} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width={7} height={7} className="lsv-belief-bg" style={{ fill: clientColor(id, i) }} />
            <line x1={0} y1={0} x2={0} y2={7} className="lsv-belief-hatch" style={{ stroke: clientColor(id, i) }} />
          </pattern>
        ))}
        <pattern id={`${idPrefix}-gc`} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width={6} height={6} className="lsv-block-gc-bg" />
          <line x1={0} y1={0} x2={0} y2={6} className="lsv-block-gc-hatch" />
        </pattern>
        <marker id={`${idPrefix}-arrow`} viewBox="0 0 10 10" refX={9} refY={5} markerWidth={7} markerHeight={7} orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="lsv-arrowhead" />
        </marker>
        <marker id={`${idPrefix}-arrow-open`} viewBox="0 0 10 10" refX={9} refY={5} markerWidth={7} markerHeight={7} orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10" className="lsv-arrowhead-open" />
        </marker>
        <marker id={`${idPrefix}-arrow-danger`} viewBox="0 0 10 10" refX={9} refY={5} markerWidth={7} markerHeight={7} orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className="lsv-arrowhead-danger" />
        </marker>
      </defs>
      <rect className="lsv-bg" x={0} y={0} width={widthPx} height={height} />
      <g transform={`translate(0 ${S.headerH})`}>
        <Lifelines columns={columns} height={model.height + S.bottomPadPx} />
        <Activations model={model} timeline={timeline} columns={columns} window={window} idPrefix={idPrefix} lang={lang} />
        {cursorY < model.height && <rect className="lsv-future-shade" x={0} y={cursorY} width={widthPx} height={model.height - cursorY} aria-hidden="true" />}
        <g>
          {rowIndexes.map((i) => (
            <Row
              key={model.rows[i].seq}
              row={model.rows[i]}
              top={model.tops[i]}
              columns={columns}
              widthPx={widthPx}
              state={rowState(model.rows[i], cursorStep)}
              lang={lang}
              onJump={onJump}
              idPrefix={idPrefix}
            />
          ))}
        </g>
        <SequenceCursor y={cursorY} widthPx={widthPx} nowMs={nowMs} lang={lang} />
      </g>
      <g ref={stickyRef} className="lsv-sticky">
        <Header columns={columns} widthPx={widthPx} lang={lang} />
      </g>
    </svg>
  );
}

function rowState(row: SequenceRow, cursorStep: number): MarkState {
  if (row.kind === 'time' && row.reason === 'start') return 'past';
  return markState(row.step, cursorStep);
}

const Lifelines = memo(function Lifelines({ columns, height }: { columns: Columns; height: number }) {
  return (
    <g aria-hidden="true">
      {columns.order.map((id) => (
        <line key={id ?? 'redis'} className={id === null ? 'lsv-lifeline lsv-lifeline-redis' : 'lsv-lifeline'} x1={columns.xOf(id)} x2={columns.xOf(id)} y1={0} y2={height} />
      ))}
    </g>
  );
});

const Header = memo(function Header({ columns, widthPx, lang }: { columns: Columns; widthPx: number; lang: Lang }) {
  const t = translator(lang);
  return (
    <g aria-hidden="true">
      <rect className="lsv-seq-header-bg" x={0} y={0} width={widthPx} height={S.headerH} />
      <line className="lsv-row-sep" x1={0} x2={widthPx} y1={S.headerH} y2={S.headerH} />
      <text className="lsv-gutter-axis" x={14} y={S.headerH / 2}>
        {t('axisStepTime')}
      </text>
      {columns.order.map((id) => {
        const x = columns.xOf(id);
        const label = id === null ? t('redis') : t('client', { id });
        const w = Math.max(112, textWidth(label, 13, false) + 56);
        const color = id === null ? null : clientColor(id, columns.colorIndex.get(id) ?? 0);
        return (
          <g key={id ?? 'redis'}>
            <rect className={id === null ? 'lsv-seq-head lsv-seq-head-redis' : 'lsv-seq-head'} x={x - w / 2} y={9} width={w} height={S.headerH - 18} rx={8} style={color ? { stroke: color } : undefined} />
            {id !== null && color ? (
              <Badge x={x - w / 2 + 19} y={S.headerH / 2} r={10} id={id} index={columns.colorIndex.get(id) ?? 0} />
            ) : (
              <g>
                <rect className="lsv-redis-badge" x={x - w / 2 + 9} y={S.headerH / 2 - 10} width={20} height={20} rx={5} />
                <text className="lsv-redis-badge-text" x={x - w / 2 + 19} y={S.headerH / 2} textAnchor="middle" style={{ fontSize: 11.5 }}>
                  R
                </text>
              </g>
            )}
            <text className="lsv-gutter-title" x={x - w / 2 + 36} y={S.headerH / 2}>
              {label}
            </text>
          </g>
        );
      })}
    </g>
  );
});

/** Bars on the lifelines: a client's belief (hatched) and waits; Redis's holder (solid). */
const Activations = memo(function Activations(props: {
  model: SequenceModel;
  timeline: TimelineModel;
  columns: Columns;
  window: Window | null;
  idPrefix: string;
  lang: Lang;
}) {
  const { model, timeline, columns, window, idPrefix, lang } = props;
  const yOf = useMemo(() => sequenceY(model), [model]);
  const y0 = window ? window[0] : Number.NEGATIVE_INFINITY;
  const y1 = window ? window[1] : Number.POSITIVE_INFINITY;
  const visible = (a: Moment, b: Moment) => yOf(a) <= y1 && yOf(b) >= y0;
  const t = translator(lang);
  return (
    <g aria-hidden="true">
      {timeline.holders
        .filter((h) => visible(h.start, h.end))
        .map((h) => {
          const x = columns.xOf(null);
          const top = yOf(h.start);
          const bottom = yOf(h.end);
          const index = h.holder === null ? 0 : (columns.colorIndex.get(h.holder) ?? 0);
          const color = clientColor(h.holder, index);
          return (
            <g key={`h${h.start.seq}`} className="lsv-holder">
              <rect className="lsv-holder-band" x={x - 7} y={top} width={14} height={Math.max(2, bottom - top)} rx={3} style={{ fill: color, stroke: color }} />
              {h.holder !== null && bottom - top > 22 && (
                <Badge x={x} y={top + 11} r={9} id={h.holder} index={index} title={t('redisHolds', { id: h.holder })} />
              )}
            </g>
          );
        })}
      {timeline.rows.flatMap((row) => {
        const x = columns.xOf(row.clientId);
        const index = columns.colorIndex.get(row.clientId) ?? 0;
        const color = clientColor(row.clientId, index);
        return [
          ...row.beliefs
            .filter((b) => visible(b.start, b.end))
            .map((b) => {
              const top = yOf(b.start);
              const bottom = yOf(b.end);
              return (
                <rect
                  key={`b${row.clientId}${b.start.seq}`}
                  className="lsv-seq-belief"
                  x={x - 6}
                  y={top}
                  width={12}
                  height={Math.max(2, bottom - top)}
                  rx={3}
                  style={{ fill: `url(#${idPrefix}-belief-${index})`, stroke: color }}
                />
              );
            }),
          ...row.blocks
            .filter((b) => visible(b.start, b.end))
            .map((b) => {
              const top = yOf(b.start);
              const bottom = yOf(b.end);
              const hatched = b.reason === 'gc' || b.reason === 'stall' || b.reason === 'network';
              return (
                <rect
                  key={`w${b.seq}`}
                  className={`lsv-seq-block lsv-block-${b.reason}`}
                  x={x - 4}
                  y={top}
                  width={8}
                  height={Math.max(2, bottom - top)}
                  rx={2}
                  style={hatched ? { fill: `url(#${idPrefix}-gc)` } : undefined}
                />
              );
            }),
        ];
      })}
    </g>
  );
});

interface RowProps {
  readonly row: SequenceRow;
  readonly top: number;
  readonly columns: Columns;
  readonly widthPx: number;
  readonly state: 'past' | 'current' | 'future';
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  readonly idPrefix: string;
}

const Row = memo(function Row(props: RowProps) {
  const { row } = props;
  switch (row.kind) {
    case 'message':
      return <Message {...props} row={row} />;
    case 'time':
      return <TimeRow {...props} row={row} />;
    case 'note':
      return <Note {...props} row={row} />;
    case 'violation':
      return <ViolationRow {...props} row={row} />;
  }
});

function StepLabel({ step, y }: { step: number; y: number }) {
  return (
    <text className="lsv-seq-step" x={S.marginLeftPx - 14} y={y} textAnchor="end">
      {`#${step + 1}`}
    </text>
  );
}

function Message(props: RowProps & { row: Extract<SequenceRow, { kind: 'message' }> }) {
  const { row, top, columns, state, lang, onJump, idPrefix } = props;
  const t = translator(lang);
  const xClient = columns.xOf(row.clientId);
  const xRedis = columns.xOf(null);
  const dir = xRedis > xClient ? 1 : -1;
  const from = xClient + dir * 8;
  const to = xRedis - dir * 9;
  const span = Math.abs(to - from);
  const violated = row.violationSeqs.length > 0;
  const charsFit = Math.max(4, Math.floor((span - 12) / (S.fontPx * 0.61)));
  const command = textOf(row.command, lang);
  const reply = textOf(row.reply, lang);
  const name = `${t('stepMark', { step: row.step + 1, id: row.clientId, command, reply })}${state === 'future' ? ` ${t('stepMarkFuture')}` : ''}`;
  const mid = (from + to) / 2;
  const y1 = top + 24;
  const y2 = top + 50;
  return (
    <>
    <g aria-hidden="true" data-state={state} className="lsv-message-step">
      <StepLabel step={row.step} y={y1} />
    </g>
    <JumpMark
      className={`lsv-mark lsv-message${violated ? ' lsv-violated' : ''}${row.replyType === 'error' ? ' lsv-error' : ''}`}
      testId={`sequence.message.${row.seq}`}
      step={row.step}
      state={state}
      exposeStep
      name={name}
      onJump={onJump}
    >
      <rect className="lsv-message-hit" x={Math.min(from, to) - 6} y={top + 4} width={span + 12} height={SEQUENCE_ROW_HEIGHT.message - 8} rx={6} />
      {/* The name already says command and reply; the drawn words are its picture. */}
      <text className="lsv-message-label" x={mid} y={y1 - 10} textAnchor="middle" aria-hidden="true">
        {partsTspans(row.command, lang, columns.colorIndex, charsFit)}
      </text>
      <line className="lsv-arrow" x1={from} x2={to} y1={y1} y2={y1} markerEnd={`url(#${idPrefix}-${violated ? 'arrow-danger' : 'arrow'})`} />
      <text className="lsv-reply-label" x={mid} y={y2 - 10} textAnchor="middle" aria-hidden="true">
        {/* A leading space (not drawn) keeps command and reply separate words for tools that read the drawn text. */}
        {' '}
        {partsTspans(row.reply, lang, columns.colorIndex, charsFit)}
      </text>
      <line className="lsv-arrow lsv-arrow-reply" x1={to} x2={from} y1={y2} y2={y2} markerEnd={`url(#${idPrefix}-arrow-open)`} />
    </JumpMark>
    </>
  );
}

function TimeRow(props: RowProps & { row: Extract<SequenceRow, { kind: 'time' }> }) {
  const { row, top, widthPx, lang, state } = props;
  const t = translator(lang);
  const y = top + SEQUENCE_ROW_HEIGHT.time / 2;
  const label = t('clockJump', { ms: row.toMs });
  const w = textWidth(label, 12, true) + 18;
  const note =
    row.reason === 'advance'
      ? t('clockAdvance', { ms: row.toMs - row.fromMs })
      : row.reason === 'wait' && row.clientId !== null
        ? `${t('wakes', { id: row.clientId })} · ${t('clockAdvance', { ms: row.toMs - row.fromMs })}`
        : '';
  return (
    <g className="lsv-time-row" data-state={state} aria-hidden="true">
      <line className="lsv-time-line" x1={12} x2={widthPx - 12} y1={y} y2={y} />
      <rect className="lsv-time-pill" x={12} y={y - 10} width={w} height={20} rx={10} />
      <text className="lsv-time-label" x={12 + w / 2} y={y} textAnchor="middle">
        {label}
      </text>
      {note && (
        <text className="lsv-time-note" x={widthPx - 16} y={y - 9} textAnchor="end">
          {note}
        </text>
      )}
    </g>
  );
}

function Note(props: RowProps & { row: Extract<SequenceRow, { kind: 'note' }> }) {
  const { row, top, columns, lang, state } = props;
  const t = translator(lang);
  const x = columns.xOf(row.clientId);
  const text =
    row.note === 'block' && row.block
      ? `${blockLabel(row.block.reason, row.block.durationMs, lang)} → t=${row.block.untilMs}`
      : row.note === 'enter'
        ? t('enter')
        : row.note === 'leave'
          ? t('leave')
          : `${{ end: '■', crash: '✕', 'give-up': '⊘', write: '✎', mark: '+' }[row.note as 'end'] ?? ''} ${pointLabel(row.note as 'end', lang)}${
              row.detail.length > 0 ? ` ${textOf(row.detail, lang)}` : ''
            }`;
  const label = fitText(text, columns.spacing - 24, 11.5, false);
  const w = textWidth(label, 11.5, false) + 16;
  // Notes sit beside the lifeline, on the side away from Redis, so they never cover an arrow.
  const awayFromRedis = columns.xOf(null) > x ? -1 : 1;
  const left = awayFromRedis < 0 ? x - 12 - w : x + 12;
  const y = top + SEQUENCE_ROW_HEIGHT.note / 2;
  return (
    <g className={`lsv-note lsv-note-${row.note}${row.rejected ? ' lsv-rejected' : ''}`} data-state={state} aria-hidden="true">
      <rect x={left} y={y - 10} width={w} height={20} rx={4} />
      <text x={left + 8} y={y}>
        {label}
      </text>
    </g>
  );
}

function ViolationRow(props: RowProps & { row: Extract<SequenceRow, { kind: 'violation' }> }) {
  const { row, top, columns, widthPx, state, lang, onJump } = props;
  const t = translator(lang);
  const message = violationText(row.violation, row.message, lang);
  const label = `⚠ ${message}`;
  const w = Math.min(widthPx - S.marginLeftPx - 16, textWidth(label, 12.5, false) + 24);
  const xs = row.clients.map((id) => columns.xOf(id));
  const centre = xs.length > 0 ? (Math.min(...xs, columns.xOf(null)) + Math.max(...xs, columns.xOf(null))) / 2 : widthPx / 2;
  const left = Math.max(S.marginLeftPx, Math.min(centre - w / 2, widthPx - w - 8));
  const y = top + SEQUENCE_ROW_HEIGHT.violation / 2;
  const name = t('violationMark', { step: row.step + 1, message });
  return (
    <JumpMark className="lsv-mark lsv-violation" testId={`sequence.violation.${row.seq}`} step={row.step} state={state} name={name} onJump={onJump}>
      <rect x={left} y={y - 12} width={w} height={24} rx={5} />
      <text x={left + 12} y={y}>
        {fitText(label, w - 20, 12.5, false)}
      </text>
    </JumpMark>
  );
}

const SequenceCursor = memo(function SequenceCursor({ y, widthPx, nowMs, lang }: { y: number; widthPx: number; nowMs: number; lang: Lang }) {
  const label = translator(lang)('now', { ms: nowMs });
  const w = textWidth(label, 11.5, false) + 14;
  return (
    <g className="lsv-cursor" aria-hidden="true">
      <line x1={8} x2={widthPx - 8} y1={y} y2={y} />
      <rect className="lsv-cursor-pill" x={8} y={y - 9} width={w} height={18} rx={9} />
      <text className="lsv-cursor-label" x={8 + w / 2} y={y} textAnchor="middle">
        {label}
      </text>
    </g>
  );
});
