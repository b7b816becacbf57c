import type { EngineJob, EngineJobName } from './engine-worker-protocol';

/**
 * Starts one instance of the engine worker for `job`. The one place that names the worker's file:
 * the dev server serves it as written; the build makes it a chunk of the page's own build, so the
 * worker runs on the files the page loaded (vite.config.ts, engineWorkerSharesChunks).
 */
export function startEngineWorker(job: EngineJobName): Worker {
  return new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: `lockstep-${job}` });
}

/** Sends one job's message to a worker started for it. */
export function postJob(worker: Worker, message: EngineJob): void {
  worker.postMessage(message);
}
