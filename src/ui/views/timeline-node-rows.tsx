/**
 * The node rows of the timeline (several Redis nodes), in place of the one Redis row: per node,
 * who its copy of the lock key names, when it is down, how many of its primary's writes a replica
 * still lacks, and the faults the schedule put on it.
 */
import { memo } from 'react';
import { translator, type Lang, type Translate } from '../../i18n';
import { clientColor, fitText } from './svg-text';
import { OPEN_TAIL_PX, useGeometry as useG } from './timeline-geometry';
import type { TimelineLayout } from './timeline-layout';
import type { NodeFaultMark, NodeRow, NodeSegment } from './timeline-types';

interface NodeRowsProps {
  readonly y: number;
  readonly nodeIds: readonly string[];
  readonly rows: readonly NodeRow[];
  readonly layout: TimelineLayout;
  readonly window: readonly [number, number] | null;
  readonly lang: Lang;
  readonly colorIndex: ReadonlyMap<string, number>;
}

const EMPTY: NodeRow = { nodeId: '', segments: [], faults: [] };

/** The row of each node id, in the given order (a node with no event yet has an empty row). */
export function nodeRowsOf(nodeIds: readonly string[], rows: readonly NodeRow[]): NodeRow[] {
  return nodeIds.map((id) => rows.find((r) => r.nodeId === id) ?? { ...EMPTY, nodeId: id });
}

/** The words on a segment: who the node's lock names, or that it is down or behind. */
function segmentLabel(s: NodeSegment, t: Translate): string {
  if (!s.up) return t('nodeDown');
  const lock = s.lock === null ? t('lockFree') : s.holder !== null ? t('nodeHolds', { id: s.holder }) : t('nodeHoldsOther');
  return s.lagWrites > 0 ? `${lock} · ${t('nodeBehind', { n: s.lagWrites })}` : lock;
}

const FAULT_GLYPH: Readonly<Record<string, string>> = { 'node-crash': '✕', 'node-restart': '↻', promote: '⬆', 'clock-jump': '⏱', 'replication-delay': '⧗' };

function faultTitle(f: NodeFaultMark, nodeId: string, t: Translate): string {
  switch (f.fault) {
    case 'node-crash':
      return t('nodeFaultCrash', { node: nodeId, n: f.lostKeys.length });
    case 'node-restart':
      return f.withData === true ? t('nodeFaultRestartData', { node: nodeId }) : t('nodeFaultRestartEmpty', { node: nodeId });
    case 'promote':
      return t('nodeFaultPromote', { node: nodeId });
    default:
      return t('nodeFaultOther', { node: nodeId });
  }
}

export const NodeRowsStatic = memo(function NodeRowsStatic(props: NodeRowsProps) {
  const G = useG();
  const { y, nodeIds, rows, layout, window, lang, colorIndex } = props;
  const t = translator(lang);
  const h = G.nodeRowH;
  const bandH = Math.max(12, h - 8);
  const inWindow = (x0: number, x1: number) => window === null || (x1 >= window[0] && x0 <= window[1]);
  return (
    <>
      {nodeRowsOf(nodeIds, rows).map((row, i) => {
        const rowY = y + i * h;
        const bandY = rowY + (h - bandH) / 2;
        return (
          <g key={row.nodeId} className="lsv-row lsv-node-row" data-testid={`timeline.row.node.${row.nodeId}`} role="group" aria-label={t('nodeRowLabel', { node: row.nodeId })}>
            <line className="lsv-row-sep" x1={0} x2={layout.widthPx} y1={rowY + h} y2={rowY + h} />
            {row.segments.map((s) => {
              const x0 = layout.xOf(s.start);
              const x1 = layout.xOf(s.end) + (s.open ? OPEN_TAIL_PX : 0);
              if (x1 - x0 < 1 || !inWindow(x0, x1)) return null;
              const color = s.holder === null ? undefined : clientColor(s.holder, colorIndex.get(s.holder) ?? 0);
              const words = segmentLabel(s, t);
              const label = fitText(words, x1 - x0 - 8, G.labelFontPx, false);
              const kind = !s.up ? 'down' : s.lock !== null ? 'held' : 'free';
              return (
                <g key={`s${s.start.seq ?? 'x'}-${s.start.ms}`} className={`lsv-node-seg lsv-node-${kind}${s.lagWrites > 0 ? ' lsv-node-behind' : ''}`} data-node-state={kind} data-lag={s.lagWrites}>
                  <title>{`${row.nodeId}: ${words}`}</title>
                  {kind !== 'free' && (
                    <rect className="lsv-node-band" x={x0} y={bandY} width={Math.max(2, x1 - x0)} height={bandH} rx={3} style={color ? { fill: color, stroke: color } : undefined} />
                  )}
                  {s.lagWrites > 0 && <rect className="lsv-node-lag" x={x0} y={bandY + bandH - 3} width={Math.max(2, x1 - x0)} height={3} />}
                  {label && (
                    <text className="lsv-node-label" x={x0 + 4} y={bandY + bandH / 2}>
                      {label}
                    </text>
                  )}
                </g>
              );
            })}
            {row.faults.map((f) => {
              const x = layout.xOfSeq(f.seq);
              if (!inWindow(x - 10, x + 10)) return null;
              return (
                <g key={`f${f.seq}`} className={`lsv-node-fault lsv-node-fault-${f.fault}`} data-testid={`timeline.node-fault.${f.seq}`}>
                  <title>{faultTitle(f, row.nodeId, t)}</title>
                  <circle cx={x} cy={rowY + h / 2} r={Math.min(9, h / 2 - 1)} />
                  <text x={x} y={rowY + h / 2} textAnchor="middle">
                    {FAULT_GLYPH[f.fault] ?? '•'}
                  </text>
                </g>
              );
            })}
          </g>
        );
      })}
    </>
  );
});

/** The gutter's node names: id and the role it starts with ("primary", "replica of r1"); a promotion shows as a mark on the row. */
export function NodeGutter(props: { y: number; nodeIds: readonly string[]; rows: readonly NodeRow[]; lang: Lang }) {
  const G = useG();
  const t = translator(props.lang);
  const h = G.nodeRowH;
  return (
    <>
      {nodeRowsOf(props.nodeIds, props.rows).map((row, i) => {
        const first = row.segments[0];
        const role = first === undefined ? '' : first.role === 'primary' ? t('rolePrimary') : t('roleReplicaOf', { node: first.replicaOf ?? '?' });
        const rowY = props.y + i * h;
        return (
          <g key={row.nodeId}>
            <line className="lsv-row-sep" x1={0} x2={G.gutterPx} y1={rowY + h} y2={rowY + h} />
            <text className="lsv-gutter-title lsv-node-name" x={12} y={rowY + h / 2}>
              {row.nodeId}
            </text>
            <text className="lsv-gutter-sub lsv-node-role" x={12 + 8 * Math.max(2, row.nodeId.length) + 6} y={rowY + h / 2}>
              {fitText(role, G.gutterPx - (12 + 8 * Math.max(2, row.nodeId.length) + 10), 12, false)}
            </text>
          </g>
        );
      })}
    </>
  );
}
