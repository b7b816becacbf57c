import { postJob, startEngineWorker } from './engine-worker';
import type { PropertyCheckHandlers, PropertyCheckService, PropertyCheckWorkerMessage } from './property-check-protocol';
import { runPropertyCheck, type RunningPropertyCheck } from './property-check-run';

/**
 * Property checks in an instance of the engine worker, started on the first check (the page pays
 * nothing until someone asks). Messages of a check that is no longer the current one are dropped.
 */
export function createWorkerPropertyCheckService(): PropertyCheckService {
  let worker: Worker | null = null;
  let current: { readonly id: number; readonly handlers: PropertyCheckHandlers } | null = null;
  const theWorker = (): Worker => {
    if (worker) return worker;
    const w = startEngineWorker('properties');
    w.onmessage = (message: MessageEvent<PropertyCheckWorkerMessage>) => {
      const data = message.data;
      const check = current;
      if (!check || data.id !== check.id) return;
      if (data.kind === 'progress') return check.handlers.onProgress(data);
      current = null;
      if (data.kind === 'done') check.handlers.onDone(data);
      else check.handlers.onError(data.message);
    };
    w.onerror = (event) => {
      const check = current;
      current = null;
      check?.handlers.onError(event.message || 'the property check worker failed');
    };
    worker = w;
    return w;
  };
  return {
    start(request, handlers) {
      current = { id: request.id, handlers };
      postJob(theWorker(), { job: 'properties', body: { kind: 'start', request } });
    },
    cancel(id) {
      if (current?.id === id) postJob(theWorker(), { job: 'properties', body: { kind: 'cancel', id } });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      current = null;
    },
  };
}

/** The same check on the calling thread, in slices (tests, environments without workers). */
export function createInlinePropertyCheckService(): PropertyCheckService {
  let running: RunningPropertyCheck | null = null;
  return {
    start(request, handlers) {
      running?.cancel();
      running = runPropertyCheck(request, handlers, (next) => setTimeout(next, 0));
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
