/**
 * The node rows of the timeline (several Redis nodes), built by appending like the rest of the
 * model: an event that carries node views (`TraceEvent.nodes`, only the nodes that changed) ends
 * the node's current segment and starts the next; a fault on a node adds a mark. The segment still
 * going at the end is provisional (the builder's owner takes it back before the next append).
 */
import type { NodeView, TraceEvent } from '../store/published';
import type { TokenSplitter } from './text-parts';
import { RUN_END, type Moment, type NodeFaultMark, type NodeRow, type NodeSegment } from './timeline-types';

interface NodeRowState {
  readonly row: NodeRow & { segments: NodeSegment[]; faults: NodeFaultMark[] };
  view: NodeView | null;
  /** The state drawn since `since`; null before the node's first view. */
  current: Omit<NodeSegment, 'start' | 'end' | 'open'> | null;
  since: Moment | null;
  key: string;
}

export interface NodeRowsBuilder {
  readonly rows: readonly NodeRow[];
  apply(e: TraceEvent): void;
  /** The segments still going, drawn to the end of the run (provisional: the caller takes them back). */
  openSegments(): { list: NodeSegment[]; item: NodeSegment }[];
}

export function createNodeRowsBuilder(splitter: TokenSplitter): NodeRowsBuilder {
  const rows: NodeRow[] = [];
  const byId = new Map<string, NodeRowState>();
  const state = (id: string): NodeRowState => {
    let s = byId.get(id);
    if (!s) {
      s = { row: { nodeId: id, segments: [], faults: [] }, view: null, current: null, since: null, key: '' };
      byId.set(id, s);
      rows.push(s.row);
    }
    return s;
  };

  /** What a node shows now, given every node's latest view (a replica's lag needs its primary's offset). */
  const derive = (s: NodeRowState) => {
    const v = s.view as NodeView;
    const primary = v.replicaOf === null ? undefined : byId.get(v.replicaOf)?.view;
    const lagWrites = v.role === 'replica' && v.up && primary ? Math.max(0, primary.offset - v.offset) : 0;
    const holder = v.lock === null ? null : splitter.ownerOf(v.lock);
    const current = { up: v.up, role: v.role, replicaOf: v.replicaOf, lock: v.lock === null ? null : splitter.split(v.lock), holder, lagWrites };
    // A node that is down shows only that: a role change meanwhile (a promotion elsewhere) shows when it is back.
    return { current, key: v.up ? `1|${v.role}|${v.replicaOf ?? ''}|${lagWrites}|${v.lock ?? ''}` : '0' };
  };

  const moveTo = (s: NodeRowState, at: Moment) => {
    const { current, key } = derive(s);
    if (key === s.key && s.current !== null) return;
    if (s.current !== null && s.since !== null) s.row.segments.push({ ...s.current, start: s.since, end: at, open: false });
    s.current = current;
    s.since = at;
    s.key = key;
  };

  return {
    rows,
    apply(e) {
      if (e.kind === 'fault' && e.node !== null && (e.fault === 'node-crash' || e.fault === 'node-restart' || e.fault === 'promote' || e.fault === 'clock-jump' || e.fault === 'replication-delay')) {
        state(e.node).row.faults.push({ seq: e.seq, step: e.step, atMs: e.atMs, fault: e.fault, withData: e.withData ?? null, lostKeys: e.lostKeys ?? [] });
      }
      if (e.nodes === undefined) return;
      for (const view of e.nodes) state(view.node).view = view;
      // A primary's new offset changes its replicas' lag: every node is looked at again.
      const at: Moment = { ms: e.atMs, seq: e.seq };
      for (const s of byId.values()) if (s.view !== null) moveTo(s, at);
    },
    openSegments() {
      const out: { list: NodeSegment[]; item: NodeSegment }[] = [];
      for (const s of byId.values()) {
        if (s.current === null || s.since === null) continue;
        out.push({ list: s.row.segments, item: { ...s.current, start: s.since, end: RUN_END, open: true } });
      }
      return out;
    },
  };
}
