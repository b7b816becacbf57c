/**
 * The timeline's geometry in SVG units (presentation mode scales the whole drawing): row heights
 * and offsets per density, the height of the drawing, the density that fits a height, the legend.
 */
import { createContext, useContext } from 'react';
import { translator, type Lang } from '../../i18n';
import { textWidth } from './svg-text';

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
  /** Several nodes: one row each, in place of the Redis row. */
  readonly nodeRowH: number;
  readonly chipFontPx: number;
  readonly labelFontPx: number;
  /** Offsets inside a client row: belief band, command chips, waits. */
  readonly beliefDy: number;
  readonly beliefH: number;
  /** Words on the belief band ("A believes it holds the lock"); dense rows leave them to the legend. */
  readonly beliefLabels: boolean;
  readonly chipDy: number;
  readonly chipH: number;
  /** Two lines (command, then reply) or one (`GET lock → <A's token>`). */
  readonly chipLines: 1 | 2;
  readonly blockDy: number;
  readonly blockH: number;
  /** 0: waits drawn as a thin bar without words (dense rows). */
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

/** comfortable: room for every word; compact: one-line chips; dense: 3 or 4 clients in a short panel. */
export type TimelineDensity = 'comfortable' | 'compact' | 'dense';

/** The smallest text the timeline draws, in SVG units (presentation mode at 1080p makes it 18 px). */
export const TIMELINE_FONT_MIN_PX = 12;

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
    nodeRowH: 36,
    chipFontPx: 12.5,
    labelFontPx: 12,
    beliefDy: 8,
    beliefH: 16,
    beliefLabels: true,
    chipDy: 28,
    chipH: 34,
    chipLines: 2,
    blockDy: 64,
    blockH: 15,
    blockFontPx: 12,
    holderDy: 10,
    holderH: 22,
    ttlDy: 42,
    ttlLabelDy: 20,
    showLegend: true,
    commandStepPx: 120,
    plainStepPx: 44,
  },
  compact: {
    // Room for "lock & lease" (12 px) after the badge: it must not reach the run's labels.
    gutterPx: 124,
    tickLabelY: 9,
    axisY: 17,
    flagY: 20,
    flagH: 16,
    rowsY: 39,
    clientRowH: 54,
    redisRowH: 46,
    nodeRowH: 26,
    chipFontPx: 12,
    labelFontPx: 12,
    beliefDy: 3,
    beliefH: 13,
    beliefLabels: true,
    chipDy: 18,
    chipH: 20,
    chipLines: 1,
    blockDy: 40,
    blockH: 13,
    blockFontPx: 12,
    holderDy: 4,
    holderH: 17,
    ttlDy: 25,
    ttlLabelDy: 12,
    showLegend: false,
    commandStepPx: 150,
    plainStepPx: 40,
  },
  dense: {
    // Room for "lock & lease" (12 px) after the badge: it must not reach the run's labels.
    gutterPx: 124,
    tickLabelY: 9,
    axisY: 17,
    flagY: 19,
    flagH: 15,
    rowsY: 35,
    clientRowH: 30,
    redisRowH: 38,
    nodeRowH: 19,
    chipFontPx: 12,
    labelFontPx: 12,
    beliefDy: 1,
    beliefH: 5,
    beliefLabels: false,
    chipDy: 7,
    chipH: 19,
    chipLines: 1,
    blockDy: 27,
    blockH: 3,
    blockFontPx: 0,
    holderDy: 3,
    holderH: 17,
    ttlDy: 23,
    ttlLabelDy: 10,
    showLegend: false,
    commandStepPx: 150,
    plainStepPx: 40,
  },
};

const LEGEND_KEYS = ['legendBelief', 'legendTruth', 'legendStale', 'legendLease', 'legendViolation'] as const;
export type LegendKey = (typeof LEGEND_KEYS)[number];
export const LEGEND_ROW_H = 22;

/** Height of the Redis part under the client rows: the Redis row, or one row per node. */
export function redisPartHeight(g: TimelineGeometry, nodeCount: number): number {
  return nodeCount > 0 ? nodeCount * g.nodeRowH : g.redisRowH;
}

/** Full height of the drawing for `rowCount` client rows (and `nodeCount` node rows, several nodes only). */
export function timelineHeight(g: TimelineGeometry, rowCount: number, legendRows: number, nodeCount = 0): number {
  return g.rowsY + rowCount * g.clientRowH + redisPartHeight(g, nodeCount) + (g.showLegend ? 8 + legendRows * LEGEND_ROW_H + 10 : 4);
}

const DENSITIES: readonly TimelineDensity[] = ['comfortable', 'compact', 'dense'];

/**
 * The roomiest density whose drawing fits `availableHeightPx` (the height of the view's parent),
 * dense when none does. A parent sized by its content measures exactly the comfortable drawing,
 * so it keeps it; only a panel of fixed, smaller height picks a denser one.
 */
export function densityFor(availableHeightPx: number, clientCount: number, scale: number, nodeCount = 0): TimelineDensity {
  if (availableHeightPx <= 0) return 'comfortable';
  // The horizontal scrollbar takes a few pixels under the drawing.
  const fits = (d: TimelineDensity) => timelineHeight(TIMELINE_GEOMETRY[d], clientCount, 1, nodeCount) * scale <= availableHeightPx + 2;
  return DENSITIES.find(fits) ?? 'dense';
}

/** Legend items flowed into rows no wider than `maxWidthPx` (x within the row, row index). */
export function legendLayout(lang: Lang, maxWidthPx: number): { items: { key: LegendKey; x: number; row: number }[]; rows: number } {
  const t = translator(lang);
  let x = 14;
  let row = 0;
  const items = LEGEND_KEYS.map((key) => {
    const width = 30 + textWidth(t(key), TIMELINE_FONT_MIN_PX, false) + 18;
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

const GeometryContext = createContext<TimelineGeometry>(TIMELINE_GEOMETRY.comfortable);
export const GeometryProvider = GeometryContext.Provider;
/** The geometry of the drawing being rendered. */
export const useGeometry = (): TimelineGeometry => useContext(GeometryContext);

/** What is still going at the end of the run reaches this far past it. */
export const OPEN_TAIL_PX = 36;
