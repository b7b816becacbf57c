/** The Redis row of the timeline: who Redis says holds the lock, and the lease. */
import { memo } from 'react';
import { formatList, translator, type Lang, type Translate } from '../../i18n';
import { clientColor, fitText, textWidth } from './svg-text';
import { Badge } from './svg-parts';
import { OPEN_TAIL_PX, TIMELINE_FONT_MIN_PX, useGeometry as useG } from './timeline-geometry';
import { cutSpan, type DrawExtent } from './timeline-extent';
import type { TimelineLayout } from './timeline-layout';
import type { HolderBand, TtlBar } from './timeline-types';

/** A badge's letter needs this radius to be drawn at the smallest text size. */
const BADGE_R_MIN_PX = 9;

interface RedisRowProps {
  readonly y: number;
  readonly holders: readonly HolderBand[];
  readonly ttlBars: readonly TtlBar[];
  readonly layout: TimelineLayout;
  readonly lang: Lang;
  readonly colorIndex: ReadonlyMap<string, number>;
  /** Shapes are cut to this (timeline-extent.ts). */
  readonly extent: DrawExtent;
}

export const RedisRowStatic = memo(function RedisRowStatic(props: RedisRowProps) {
  const G = useG();
  const { y, holders, ttlBars, layout, lang, colorIndex, extent } = props;
  const t = translator(lang);
  const bandY = y + G.holderDy;
  const bandH = G.holderH;
  const ttlY = y + G.ttlDy;
  const ttlLabels = leaseLabels(ttlBars, holders, layout, t);
  return (
    <g aria-hidden="true">
      {holders.map((h) => {
        const x0 = layout.xOf(h.start);
        const x1 = layout.xOf(h.end) + (h.open ? OPEN_TAIL_PX : 0);
        // A lock several hold takes its one holder's colour, else none.
        const colorId = h.holders !== undefined ? (h.holders.length === 1 ? h.holders[0] : null) : h.holder;
        const index = colorId === null ? 0 : (colorIndex.get(colorId) ?? 0);
        const color = clientColor(colorId, index);
        const words =
          h.holders !== undefined && h.holders.length > 1
            ? t('redisHoldMany', { ids: formatList(h.holders, lang) })
            : h.holders !== undefined
              ? t('redisHolds', { id: h.holders[0] })
              : h.holder === null
                ? t('redisHoldsNobody')
                : t('redisHolds', { id: h.holder });
        const label = fitText(words, x1 - x0 - 34, G.labelFontPx + 0.5, false);
        const [hx, hw] = cutSpan(extent, x0, x1, 2);
        return (
          <g key={`h${h.start.seq}`} className={`lsv-holder${h.open ? ' lsv-open' : ''}`}>
            <rect className="lsv-holder-band" x={hx} y={bandY} width={hw} height={bandH} rx={4} style={{ fill: color, stroke: color }} />
            {x1 - x0 > 26 && colorId !== null && <Badge x={x0 + 13} y={bandY + bandH / 2} r={Math.max(BADGE_R_MIN_PX, bandH / 2)} id={colorId} index={index} />}
            {label && (
              <text className="lsv-holder-label" x={x0 + 26} y={bandY + bandH / 2}>
                {label}
              </text>
            )}
          </g>
        );
      })}
      {ttlBars.map((bar, i) => {
        const x0 = layout.xOf(bar.start);
        const x1 = layout.xOf(bar.end);
        const index = bar.holder === null ? 0 : (colorIndex.get(bar.holder) ?? 0);
        const color = clientColor(bar.holder, index);
        const label = ttlLabels[i];
        const [tx, tw] = cutSpan(extent, x0, x1, 2);
        return (
          <g key={`t${bar.start.seq}`} className={`lsv-ttl${bar.projected ? ' lsv-projected' : ''}${bar.cut ? ' lsv-cut' : ''}`}>
            <rect className="lsv-ttl-bar" x={tx} y={ttlY} width={tw} height={6} rx={3} style={{ fill: color }} />
            <line className="lsv-ttl-end" x1={x1} x2={x1} y1={ttlY - 4} y2={ttlY + 10} style={{ stroke: color }} />
            {label && (
              <text className="lsv-ttl-label" x={x1} y={ttlY + G.ttlLabelDy} textAnchor="end">
                {label}
              </text>
            )}
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



/** Room kept between two lease labels. */
const LABEL_GAP_PX = 10;

/**
 * Each lease's label, right-aligned at its end ("TTL · expires t=5000"); a label that would run
 * into the next lease's label is left out (the later one says what happened last).
 */
function leaseLabels(ttlBars: readonly TtlBar[], holders: readonly HolderBand[], layout: TimelineLayout, t: Translate): (string | null)[] {
  const labels: (string | null)[] = [];
  let nextLeft = Number.POSITIVE_INFINITY;
  for (let i = ttlBars.length - 1; i >= 0; i--) {
    const bar = ttlBars[i];
    const x0 = layout.xOf(bar.start);
    const x1 = layout.xOf(bar.end);
    const endWords =
      bar.expireAtMs === null
        ? t('leaseNoExpiry')
        : bar.cut === 'deleted' || bar.cut === 'overwritten'
          ? `✕ ${t(bar.cut === 'deleted' ? 'leaseDeleted' : 'leaseOverwritten', { id: endedByOf(holders, bar) ?? '?' })}`
          : bar.cut === 'renewed'
            ? t('leaseRenewed')
            : t('expires', { ms: bar.expireAtMs });
    const label = fitText(`TTL · ${endWords}`, Math.max(x1 - x0, 130), TIMELINE_FONT_MIN_PX, false);
    const left = x1 - textWidth(label, TIMELINE_FONT_MIN_PX, false);
    const fits = label !== '' && x1 + LABEL_GAP_PX <= nextLeft;
    labels[i] = fits ? label : null;
    if (fits) nextLeft = left;
  }
  return labels;
}
