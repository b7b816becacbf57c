/** The timeline's time axis, the cursor, the current step's highlight and violation lines. */
import { memo } from 'react';
import { translator, type Lang } from '../../i18n';
import { textWidth } from './svg-text';
import { TIMELINE_FONT_MIN_PX, useGeometry as useG } from './timeline-geometry';
import { cutSpan, type DrawExtent } from './timeline-extent';
import type { TimelineLayout } from './timeline-layout';
import type { ViolationMarker } from './timeline-types';
import type { Visible } from './timeline-visible';

export const CurrentStep = memo(function CurrentStep(props: { layout: TimelineLayout; cursorStep: number; top: number; bottom: number }) {
  const slot = props.layout.slot(props.cursorStep - 1);
  if (!slot) return null;
  return <rect className="lsv-current-step" x={slot.x0 - 3} y={props.top} width={slot.x1 - slot.x0 + 6} height={props.bottom - props.top} rx={6} />;
});

export const Axis = memo(function Axis(props: { layout: TimelineLayout; visible: Visible; lang: Lang; rowsEndY: number; cursorX: number; extent: DrawExtent }) {
  const G = useG();
  const { layout, visible, lang, rowsEndY, cursorX } = props;
  const t = translator(lang);
  const endLabel = t('runEnd');
  const endLabelW = textWidth(endLabel, TIMELINE_FONT_MIN_PX, false);
  const endAtLeft = layout.runEndX + 5 + endLabelW > layout.widthPx;
  const endLabelX0 = endAtLeft ? layout.runEndX - 5 - endLabelW : layout.runEndX + 5;
  // The cursor's pill sits on the same line: the end's label gives way to it.
  const endLabelShown = Math.abs(cursorX - (endLabelX0 + endLabelW / 2)) > endLabelW / 2 + CURSOR_PILL_HALF_PX;
  const [lineX, lineW] = cutSpan(props.extent, 0, layout.widthPx, 0);
  return (
    <g className="lsv-axis" aria-hidden="true">
      <line className="lsv-axis-line" x1={lineX} x2={lineX + lineW} y1={G.axisY} y2={G.axisY} />
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
          {endLabelShown && (
            <text className="lsv-run-end-label" x={endLabelX0} y={G.tickLabelY}>
              {endLabel}
            </text>
          )}
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

export const ViolationLines = memo(function ViolationLines(props: { violations: readonly ViolationMarker[]; layout: TimelineLayout; bottom: number }) {
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


/** About half the cursor pill's width ("t = 7000 ms"), for what must not sit under it. */
const CURSOR_PILL_HALF_PX = 48;

export const Cursor = memo(function Cursor(props: { x: number; top: number; bottom: number; nowMs: number; lang: Lang; widthPx: number }) {
  const G = useG();
  const { x, top, bottom, nowMs, lang } = props;
  const label = translator(lang)('now', { ms: nowMs });
  const w = textWidth(label, TIMELINE_FONT_MIN_PX, false) + 14;
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

