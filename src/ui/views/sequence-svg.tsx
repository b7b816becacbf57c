/**
 * The sequence diagram as SVG (React, no state of its own): lifelines, the belief and holder bars
 * on them, the rows in a window of y, the cursor and the sticky header. The interactive view
 * (SequenceView.tsx) and the export (export.ts) both draw it.
 */
import { memo, useMemo, type Ref } from 'react';
import { translator, type Lang } from '../../i18n';
import { columnsFor, SEQUENCE_GEOMETRY as S, type Columns } from './sequence-layout';
import { rowIndexAt, sequenceCursorY, sequenceY, type SequenceModel, type SequenceRow } from './sequence-model';
import { Row } from './sequence-rows';
import { clientColor, textWidth } from './svg-text';
import { Badge, markState, type MarkState } from './svg-parts';
import type { Moment, TimelineModel } from './timeline-types';

/** A range of content y (below the header) to draw. */
export type Window = readonly [number, number];

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
              const hatched = b.reason === 'stall';
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
