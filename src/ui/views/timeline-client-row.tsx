/** A client's row of the timeline: what it believes, its waits and its points (crash, end, writes). */
import { memo } from 'react';
import { translator, type Lang, type Translate } from '../../i18n';
import { blockLabel, pointLabel, textOf } from './view-text';
import { clientColor, fitText, textWidth } from './svg-text';
import { OPEN_TAIL_PX, TIMELINE_FONT_MIN_PX, useGeometry as useG, type TimelineGeometry } from './timeline-geometry';
import { chipFit, chipMaxWidth, chipWidthsMax } from './timeline-marks';
import type { TimelineLayout } from './timeline-layout';
import type { BeliefBand, ClientPoint, StaleBelief } from './timeline-types';
import { cutSpan, type DrawExtent } from './timeline-extent';
import type { VisibleRow } from './timeline-visible';

interface RowStaticProps {
  readonly y: number;
  readonly clientId: string;
  readonly colorIndex: number;
  readonly visible: VisibleRow;
  readonly layout: TimelineLayout;
  readonly lang: Lang;
  readonly idPrefix: string;
  /** Shapes are cut to this (timeline-extent.ts). */
  readonly extent: DrawExtent;
}

/** Everything in a client row that does not depend on the cursor (so stepping does not redraw it). */
export const ClientRowStatic = memo(function ClientRowStatic(props: RowStaticProps) {
  const G = useG();
  const { y, clientId, colorIndex, visible, layout, lang, idPrefix, extent } = props;
  const t = translator(lang);
  const color = clientColor(clientId, colorIndex);
  const beliefY = y + G.beliefDy;
  const beliefH = G.beliefH;
  const blockY = y + G.blockDy;
  const blockH = G.blockH;
  return (
    <g aria-hidden="true">
      <RowSeparator extent={extent} widthPx={layout.widthPx} y={y + G.clientRowH} />
      {visible.stale.map((s) => {
        const [x, width] = cutSpan(extent, layout.xOf(s.start), layout.xOf(s.end) + (s.open ? OPEN_TAIL_PX : 0), 2);
        return (
          <rect
            key={`s${s.start.seq ?? s.start.ms}`}
            className="lsv-stale"
            x={x}
            y={beliefY + beliefH + 1}
            width={width}
            height={6}
            style={{ fill: `url(#${idPrefix}-stale)` }}
          />
        );
      })}
      {visible.beliefs.map((b) => {
        const x0 = layout.xOf(b.start);
        const x1 = layout.xOf(b.end) + (b.open ? OPEN_TAIL_PX : 0);
        const labels = G.beliefLabels ? staleLabels(visible.stale, b, x0, x1, layout, t, G.labelFontPx) : [];
        const room = labels.reduce((end, l) => (l.open ? end : Math.min(end, l.x - l.width - 10)), x1 - 6);
        const label = G.beliefLabels ? fitText(t('believes', { id: clientId }), room - x0 - 6, G.labelFontPx, false) : '';
        const [bx, bw] = cutSpan(extent, x0, x1, 2);
        return (
          <g key={`b${b.start.seq}`} className={`lsv-belief${b.open ? ' lsv-open' : ''}`}>
            <rect x={bx} y={beliefY} width={bw} height={beliefH} rx={3} style={{ fill: `url(#${idPrefix}-belief-${colorIndex})`, stroke: color }} />
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
        const [cx, cw] = cutSpan(extent, x0, layout.xOf(s.end), 2);
        return <rect key={`c${s.start.seq}`} className="lsv-section" x={cx} y={beliefY + beliefH - 3} width={cw} height={3} style={{ fill: color }} />;
      })}
      {visible.blocks.map((b) => {
        const x0 = layout.xOf(b.start);
        const x1 = layout.xOf(b.end);
        const w = Math.max(3, x1 - x0);
        const label = G.blockFontPx > 0 ? fitText(blockLabel(b.reason, b.durationMs, lang), w - 10, G.blockFontPx, false) : '';
        const [wx, ww] = cutSpan(extent, x0, x0 + w, 3);
        return (
          <g key={`w${b.seq}`} className={`lsv-block lsv-block-${b.reason}${b.cut ? ' lsv-cut' : ''}`}>
            <rect
              x={wx}
              y={blockY}
              width={ww}
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
      {pointPlaces(visible, layout, G, lang).map(({ point, x, text }) => (
        <PointMarker key={point.seq} point={point} x={x} y={G.blockFontPx > 0 ? blockY + blockH / 2 : y + G.chipDy + G.chipH / 2} text={text} lang={lang} />
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

function pointGlyph(point: ClientPoint): string {
  return { end: '■', crash: '✕', 'give-up': '⊘', write: '✎', mark: '+', drop: '↯', enter: '', leave: '' }[point.kind];
}

/** A point's words: its glyph, what happened, and its detail (a write's value, a mark's count). */
function pointText(point: ClientPoint, lang: Lang): string {
  const detail = point.detail.length > 0 && point.kind !== 'give-up' ? ` ${textOf(point.detail, lang)}` : '';
  return `${pointGlyph(point)} ${pointLabel(point.kind, lang)}${detail}`;
}

function PointMarker({ point, x, y, text, lang }: { point: ClientPoint; x: number; y: number; text: string; lang: Lang }) {
  const full = pointText(point, lang);
  return (
    <g className={`lsv-point lsv-point-${point.kind}${point.rejected ? ' lsv-rejected' : ''}`}>
      <text x={x} y={y} textAnchor="start">
        {text !== full && <title>{full}</title>}
        {text}
      </text>
    </g>
  );
}

export function FutureShade({ x, width, y, height, extent }: { x: number; width: number; y: number; height: number; extent: DrawExtent }) {
  if (x >= width) return null;
  const [sx, sw] = cutSpan(extent, x, width, 0);
  return <rect className="lsv-future-shade" x={sx} y={y} width={sw} height={height} aria-hidden="true" />;
}

/** The line under a row, across the drawn part of the run. */
function RowSeparator({ extent, widthPx, y }: { extent: DrawExtent; widthPx: number; y: number }) {
  const [x, w] = cutSpan(extent, 0, widthPx, 0);
  return <line className="lsv-row-sep" x1={x} x2={x + w} y1={y} y2={y} />;
}

/**
 * Where the row's points go. On their own line (comfortable, compact) at their event; dense rows
 * have no such line: there a point follows its step's chip, and the point before it.
 */
function pointPlaces(visible: VisibleRow, layout: TimelineLayout, G: TimelineGeometry, lang: Lang): { point: ClientPoint; x: number; text: string }[] {
  const points = visible.points.filter((p) => p.kind !== 'enter' && p.kind !== 'leave');
  const chipWidths = chipWidthsMax(visible.commands, layout);
  // What else is drawn on the points' line: the waits' labels (with blocks) or the command chips.
  const obstacles: (readonly [number, number])[] =
    G.blockFontPx > 0
      ? visible.blocks.map((b) => {
          const x0 = layout.xOf(b.start);
          const label = fitText(blockLabel(b.reason, b.durationMs, lang), Math.max(3, layout.xOf(b.end) - x0) - 10, G.blockFontPx, false);
          return [x0 + 5, x0 + 5 + textWidth(label, G.blockFontPx, false)] as const;
        })
      : visible.commands.map((c) => {
          const xc = layout.xOfSeq(c.seq);
          const half = chipFit(c, chipWidths.get(c.seq) ?? chipMaxWidth(layout, c.step), G, lang).w / 2;
          return [xc - half, xc + half] as const;
        });
  // Points are drawn at the timeline's smallest size (views.css, .lsv-point text).
  const fontPx = TIMELINE_FONT_MIN_PX;
  const gapPx = 4;
  const clear = (x0: number, x1: number) => obstacles.every(([a, b]) => b + gapPx <= x0 || a - gapPx >= x1);
  let taken = Number.NEGATIVE_INFINITY;
  return points.map((point) => {
    let x = Math.max(layout.xOfSeq(point.seq), taken + 10);
    if (G.blockFontPx === 0) {
      const command = visible.commands.find((c) => c.step === point.step && c.seq < point.seq);
      if (command) x = Math.max(x, layout.xOfSeq(command.seq) + chipFit(command, chipWidths.get(command.seq) ?? chipMaxWidth(layout, command.step), G, lang).w / 2 + 4);
    }
    // The whole words where they collide with nothing; else the glyph alone (the words are its tooltip).
    const full = pointText(point, lang);
    const text = clear(x, x + textWidth(full, fontPx, false)) ? full : pointGlyph(point);
    // Even the glyph collides: it moves just past what it meets (each obstacle at most once).
    const glyphW = textWidth(text, fontPx, false);
    for (let i = 0; i < obstacles.length && !clear(x, x + glyphW); i++) {
      const hit = obstacles.find(([a, b]) => !(b + gapPx <= x || a - gapPx >= x + glyphW));
      if (hit) x = hit[1] + gapPx;
    }
    taken = x + textWidth(text, fontPx, false);
    return { point, x, text };
  });
}
