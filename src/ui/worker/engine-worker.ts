import type { EngineJob, EngineJobName } from './engine-worker-protocol';

/**
 * Starts one instance of the engine worker for `job`. The one place that names the worker's file:
 * Vite bundles `new Worker(new URL(...))` where it is written, so every job shares this bundle.
 */
export function startEngineWorker(job: EngineJobName): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: `lockstep-${job}` });
}

/** Sends one job's message to a worker started for it. */
export function postJob(worker: Worker, message: EngineJob): void {
  worker.postMessage(message);
}
