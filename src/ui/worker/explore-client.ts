import type { ExploreCommandMessage, ExploreHandlers, ExploreService, ExploreWorkerMessage } from './explore-protocol';
import { runExploration, type RunningExploration } from './explore-run';

/**
 * The explorer in its own dedicated worker, started on the first search (the page pays nothing
 * until someone asks). Messages of a search that is no longer the current one are dropped.
 */
export function createWorkerExploreService(): ExploreService {
  let worker: Worker | null = null;
  let current: { id: number; handlers: ExploreHandlers } | null = null;
  const theWorker = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('./explore.worker.ts', import.meta.url), { type: 'module', name: 'lockstep-explorer' });
    w.onmessage = (message: MessageEvent<ExploreWorkerMessage>) => {
      const data = message.data;
      if (!current || data.id !== current.id) return;
      const { handlers } = current;
      if (data.kind === 'progress') handlers.onProgress(data);
      else {
        current = null;
        if (data.kind === 'done') handlers.onDone(data);
        else handlers.onError(data.message);
      }
    };
    w.onerror = (event) => {
      const failed = current;
      current = null;
      failed?.handlers.onError(event.message || 'the explorer worker failed');
    };
    worker = w;
    return w;
  };
  const send = (message: ExploreCommandMessage) => theWorker().postMessage(message);
  return {
    start(request, handlers) {
      current = { id: request.id, handlers };
      send({ kind: 'start', request });
    },
    cancel(id) {
      if (current?.id === id) send({ kind: 'cancel', id });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      current = null;
    },
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
