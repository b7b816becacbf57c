/** The timeline drawing: rows, Redis, axis, marks, the gutter with row names, the legend. */
import { memo, useMemo, type ReactNode, type Ref } from 'react';
import { translator, type Lang } from '../../i18n';
import { clientColor } from './svg-text';
import { Badge } from './svg-parts';
import { Axis, CurrentStep, Cursor, ViolationLines } from './timeline-axis';
import { ClientRowStatic, FutureShade } from './timeline-client-row';
import {
  GeometryProvider,
  LEGEND_ROW_H,
  TIMELINE_GEOMETRY,
  legendLayout,
  redisPartHeight,
  timelineHeight,
  useGeometry as useG,
  type LegendKey,
  type TimelineDensity,
} from './timeline-geometry';
import { extentOf } from './timeline-extent';
import type { TimelineLayout } from './timeline-layout';
import { CommandMarks, FlagRow } from './timeline-marks';
import { NodeGutter, NodeRowsStatic } from './timeline-node-rows';
import { RedisRowStatic } from './timeline-redis-row';
import type { TimelineModel } from './timeline-types';
import { visibleIn } from './timeline-visible';


export interface TimelineSvgProps {
  readonly model: TimelineModel;
  readonly layout: TimelineLayout;
  readonly cursorStep: number;
  readonly nowMs: number;
  readonly lang: Lang;
  readonly onJump: (step: number) => void;
  /** Content x range to draw; null draws everything (export). */
  readonly window: readonly [number, number] | null;
  /** Content x at the left edge of the drawing area (the scroll position); 0 when absent. */
  readonly offsetX?: number;
  /** Width of the drawing in SVG units (the viewport's); the whole run when absent (export). */
  readonly viewportWidthPx?: number;
  readonly idPrefix: string;
  readonly scale?: number;
  readonly svgRef?: Ref<SVGSVGElement>;
  /** The group that scrolls: the view moves it between renders. */
  readonly contentRef?: Ref<SVGGElement>;
  readonly density?: TimelineDensity;
  /** Several nodes: one row each in place of the Redis row (absent: the model's node rows). */
  readonly nodeIds?: readonly string[];
}

/** Labels of the time axis at least this far apart. */
const TICK_LABEL_SPACING_PX = 76;

/**
 * The drawing: as wide as the viewport on screen (what is outside the window is not drawn, and the
 * content is shifted by the scroll offset), as wide as the run in an export.
 */
export function TimelineSvg(props: TimelineSvgProps) {
  const { model, layout, cursorStep, nowMs, lang, onJump, window, idPrefix, svgRef, contentRef } = props;
  const scale = props.scale ?? 1;
  const offsetX = props.offsetX ?? 0;
  const G = TIMELINE_GEOMETRY[props.density ?? 'comfortable'];
  const t = translator(lang);
  const rowCount = model.rows.length;
  const nodeIds = props.nodeIds ?? model.nodes.map((n) => n.nodeId);
  const width = props.viewportWidthPx ?? G.gutterPx + layout.widthPx;
  const height = timelineHeight(G, rowCount, legendLayout(lang, width).rows, nodeIds.length);
  const rowsEndY = G.rowsY + rowCount * G.clientRowH + redisPartHeight(G, nodeIds.length);
  const cursorX = layout.cursorX(cursorStep);
  // At the end of the run nothing lies in the future: no shade over what is still going.
  const shadeX = cursorStep >= layout.slotCount ? layout.widthPx : cursorX;
  const colorIndex = useMemo(() => new Map(model.clientIds.map((id, i) => [id, i])), [model.clientIds]);
  const visible = useMemo(() => visibleIn(model, layout, window, TICK_LABEL_SPACING_PX), [model, layout, window]);
  const extent = useMemo(() => extentOf(window), [window]);

  return (
    <GeometryProvider value={G}>
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
        <g ref={contentRef} className="lsv-content" transform={`translate(${G.gutterPx - offsetX} 0)`}>
          <CurrentStep layout={layout} cursorStep={cursorStep} top={G.rowsY} bottom={rowsEndY} />
          <Axis layout={layout} visible={visible} lang={lang} rowsEndY={rowsEndY} cursorX={cursorX} extent={extent} />
          <ViolationLines violations={visible.violations} layout={layout} bottom={rowsEndY} />
          {model.rows.map((row, i) => (
            <g key={row.clientId} className="lsv-row" data-testid={`timeline.row.${row.clientId}`} role="group" aria-label={t('client', { id: row.clientId })}>
              <ClientRowStatic
                y={G.rowsY + i * G.clientRowH}
                clientId={row.clientId}
                colorIndex={i}
                visible={visible.rows[i]}
                layout={layout}
                lang={lang}
                idPrefix={idPrefix}
                extent={extent}
              />
              <FutureShade x={shadeX} width={layout.widthPx} y={G.rowsY + i * G.clientRowH} height={G.clientRowH} extent={extent} />
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
          {nodeIds.length > 0 ? (
            <g className="lsv-nodes">
              <NodeRowsStatic y={G.rowsY + rowCount * G.clientRowH} nodeIds={nodeIds} rows={model.nodes} layout={layout} window={window} lang={lang} colorIndex={colorIndex} />
              <FutureShade x={shadeX} width={layout.widthPx} y={G.rowsY + rowCount * G.clientRowH} height={redisPartHeight(G, nodeIds.length)} extent={extent} />
            </g>
          ) : (
            <g className="lsv-row" data-testid="timeline.row.redis" role="group" aria-label={t('redis')}>
              <RedisRowStatic
                y={G.rowsY + rowCount * G.clientRowH}
                holders={visible.holders}
                ttlBars={visible.ttlBars}
                layout={layout}
                lang={lang}
                colorIndex={colorIndex}
                extent={extent}
              />
              <FutureShade x={shadeX} width={layout.widthPx} y={G.rowsY + rowCount * G.clientRowH} height={G.redisRowH} extent={extent} />
            </g>
          )}
          <Cursor x={cursorX} top={G.axisY} bottom={rowsEndY} nowMs={nowMs} lang={lang} widthPx={layout.widthPx} />
          <FlagRow clocks={visible.clocks} violations={visible.violations} layout={layout} cursorStep={cursorStep} lang={lang} onJump={onJump} />
        </g>
        <Gutter model={model} nodeIds={nodeIds} lang={lang} height={height} rowsEndY={rowsEndY} axisLabel={G.showLegend || window === null} />
        {G.showLegend && <Legend y={rowsEndY + 6} lang={lang} idPrefix={idPrefix} maxWidthPx={width} />}
      </svg>
    </GeometryProvider>
  );
}

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


/** Row names, fixed at the left. `axisLabel`: name the time axis (on screen the zoom buttons sit there when rows are tight). */
const Gutter = memo(function Gutter(props: { model: TimelineModel; nodeIds: readonly string[]; lang: Lang; height: number; rowsEndY: number; axisLabel: boolean }) {
  const G = useG();
  const { model, lang, height } = props;
  const t = translator(lang);
  const redisY = G.rowsY + model.rows.length * G.clientRowH;
  return (
    <g className="lsv-gutter" aria-hidden="true">
      <rect className="lsv-gutter-bg" x={0} y={0} width={G.gutterPx} height={height} />
      <line className="lsv-gutter-edge" x1={G.gutterPx} x2={G.gutterPx} y1={0} y2={props.rowsEndY} />
      {props.axisLabel && (
        <text className="lsv-gutter-axis" x={14} y={G.tickLabelY}>
          {t('axisVirtualTime')}
        </text>
      )}
      {model.rows.map((row, i) => {
        const y = G.rowsY + i * G.clientRowH;
        return (
          <g key={row.clientId}>
            <line className="lsv-row-sep" x1={0} x2={G.gutterPx} y1={y + G.clientRowH} y2={y + G.clientRowH} />
            <Badge x={26} y={y + G.clientRowH / 2} r={Math.min(13, G.clientRowH / 2 - 3)} id={row.clientId} index={i} />
            <text className="lsv-gutter-title" x={48} y={y + G.clientRowH / 2}>
              {t('client', { id: row.clientId })}
            </text>
          </g>
        );
      })}
      {props.nodeIds.length > 0 ? (
        <NodeGutter y={redisY} nodeIds={props.nodeIds} rows={model.nodes} lang={lang} />
      ) : (
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
      )}
    </g>
  );
});


function legendSwatch(key: LegendKey, idPrefix: string): ReactNode {
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
