import { mergeShards, type ExploreProgress } from '../../engine/explore';
import { postJob, startEngineWorker } from './engine-worker';
import type { ExploreCommandMessage, ExploreDone, ExploreHandlers, ExploreService, ExploreWorkerMessage } from './explore-protocol';
import { runExploration, type RunningExploration } from './explore-run';

/** Workers one search may use on the page, whatever the machine reports. */
export const exploreWorkerCountMax = 8;

/** The page's default: every core but the one the page runs on (`navigator.hardwareConcurrency − 1`), at least one. */
export function defaultExploreWorkerCount(hardwareConcurrency: number | undefined): number {
  const cores = Number.isSafeInteger(hardwareConcurrency) && (hardwareConcurrency as number) > 0 ? (hardwareConcurrency as number) : 1;
  return Math.max(1, Math.min(exploreWorkerCountMax, cores - 1));
}

interface Search {
  readonly id: number;
  readonly handlers: ExploreHandlers;
  /** Each worker's share of the progress, and its end (ExploreDone with its shard file) once it has one. */
  readonly shares: (ExploreProgress | null)[];
  readonly ends: (ExploreDone | null)[];
}

/**
 * The explorer in instances of the engine worker, started on the first search (the page pays
 * nothing until someone asks). With several workers, worker i searches shard i of n (the engine's
 * shard.ts, as the CLI's `--workers`) and their shard files are merged into one run's result: the
 * same violations, shortest schedules and verdict whatever the count. Messages of a search that
 * is no longer the current one are dropped.
 */
export function createWorkerExploreService(workerCount = 1): ExploreService {
  const count = Math.max(1, Math.min(exploreWorkerCountMax, Math.trunc(workerCount)));
  const workers: (Worker | null)[] = Array.from({ length: count }, () => null);
  let current: Search | null = null;

  const fail = (message: string) => {
    const failed = current;
    current = null;
    if (failed) for (let i = 0; i < count; i++) send(i, { kind: 'cancel', id: failed.id });
    failed?.handlers.onError(message);
  };
  const onMessage = (index: number, data: ExploreWorkerMessage) => {
    const search = current;
    if (!search || data.id !== search.id) return;
    if (data.kind === 'error') return fail(data.message);
    if (data.kind === 'progress') {
      search.shares[index] = data.progress;
      return search.handlers.onProgress({ id: search.id, progress: sumOf(search.shares), elapsedMs: data.elapsedMs });
    }
    search.ends[index] = data;
    if (search.ends.some((end) => end === null)) return;
    current = null;
    const ends = search.ends as ExploreDone[];
    const elapsedMs = Math.max(...ends.map((end) => end.elapsedMs));
    if (count === 1) return search.handlers.onDone(ends[0]);
    try {
      const result = mergeShards(ends.map((end, i) => ({ name: `worker ${i + 1}`, data: end.shardFile })));
      search.handlers.onDone({ id: search.id, result, elapsedMs });
    } catch (error) {
      search.handlers.onError(error instanceof Error ? error.message : String(error));
    }
  };
  const theWorker = (index: number): Worker => {
    const known = workers[index];
    if (known) return known;
    const w = startEngineWorker('explore');
    w.onmessage = (message: MessageEvent<ExploreWorkerMessage>) => onMessage(index, message.data);
    w.onerror = (event) => fail(event.message || 'the explorer worker failed');
    workers[index] = w;
    return w;
  };
  const send = (index: number, body: ExploreCommandMessage) => postJob(theWorker(index), { job: 'explore', body });
  return {
    start(request, handlers) {
      current = { id: request.id, handlers, shares: Array.from({ length: count }, () => null), ends: Array.from({ length: count }, () => null) };
      for (let i = 0; i < count; i++) send(i, { kind: 'start', request: count === 1 ? request : { ...request, shard: { index: i, count } } });
    },
    cancel(id) {
      if (current?.id === id) for (let i = 0; i < count; i++) send(i, { kind: 'cancel', id });
    },
    dispose() {
      for (const w of workers) w?.terminate();
      workers.fill(null);
      current = null;
    },
  };
}

/** The search's progress: the workers' shares added up (the deepest level any has reached). */
function sumOf(shares: readonly (ExploreProgress | null)[]): ExploreProgress {
  const known = shares.filter((share): share is ExploreProgress => share !== null);
  return {
    statesExplored: known.reduce((n, s) => n + s.statesExplored, 0),
    transitionsExplored: known.reduce((n, s) => n + s.transitionsExplored, 0),
    frontier: known.reduce((n, s) => n + s.frontier, 0),
    depth: known.reduce((n, s) => Math.max(n, s.depth), 0),
    violationsFound: known.reduce((n, s) => Math.max(n, s.violationsFound), 0),
  };
}

/** The same search on the calling thread, in slices (tests, environments without workers). */
export function createInlineExploreService(): ExploreService {
  let running: RunningExploration | null = null;
  return {
    start(request, handlers) {
      running?.cancel();
      running = runExploration(request, handlers, (next) => setTimeout(next, 0));
    },
    cancel(id) {
      if (running?.id === id) running.cancel();
    },
    dispose() {
      running?.cancel();
      running = null;
    },
  };
}
