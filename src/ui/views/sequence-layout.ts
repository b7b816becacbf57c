/**
 * Where the sequence diagram puts things (pure, no React): its geometry in SVG units, the column
 * order (Redis in the middle) and each column's x.
 */

/** Geometry of the sequence diagram in SVG units. */
export const SEQUENCE_GEOMETRY = {
  headerH: 52,
  /** Left margin: step numbers and times. */
  marginLeftPx: 92,
  marginRightPx: 28,
  columnMinPx: 200,
  bottomPadPx: 24,
  fontPx: 12.5,
} as const;

const S = SEQUENCE_GEOMETRY;

/** Column order: Redis in the middle, so most arrows are short and none cross Redis. */
function sequenceColumns(clientIds: readonly string[]): (string | null)[] {
  const left = Math.ceil(clientIds.length / 2);
  return [...clientIds.slice(0, left), null, ...clientIds.slice(left)];
}

/** Width of the diagram: the viewport, or wider when the columns need more room (it scrolls sideways). */
export function sequenceWidth(viewportPx: number, clientCount: number): number {
  const columns = clientCount + 1;
  return Math.max(viewportPx, S.marginLeftPx + S.marginRightPx + columns * S.columnMinPx);
}

export interface Columns {
  readonly xOf: (clientId: string | null) => number;
  readonly order: readonly (string | null)[];
  readonly colorIndex: ReadonlyMap<string, number>;
  readonly spacing: number;
}

export function columnsFor(clientIds: readonly string[], widthPx: number): Columns {
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
