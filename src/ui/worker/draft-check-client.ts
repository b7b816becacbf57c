import { postJob, startEngineWorker } from './engine-worker';
import type { DraftCheckReport, DraftCheckRequest, DraftCheckService } from './draft-check-protocol';

/**
 * Checks drafts in an instance of the engine worker. A check in flight when a newer one arrives is abandoned by
 * terminating its worker (it may be deep in an endless script); its promise resolves as superseded.
 */
export function createWorkerDraftCheckService(): DraftCheckService {
  let worker: Worker | null = null;
  let inFlight: { id: number; resolve: (report: DraftCheckReport) => void } | null = null;
  const start = () => {
    const fresh = startEngineWorker('draft-check');
    fresh.onmessage = (message: MessageEvent<DraftCheckReport>) => {
      const job = inFlight;
      if (job && message.data.id === job.id) {
        inFlight = null;
        job.resolve(message.data);
      }
    };
    fresh.onerror = (event) => {
      const job = inFlight;
      inFlight = null;
      job?.resolve({ id: job.id, stops: [], failure: `draft check failed: ${event.message}` });
    };
    return fresh;
  };
  const abandon = () => {
    const job = inFlight;
    inFlight = null;
    worker?.terminate();
    worker = null;
    job?.resolve({ id: job.id, stops: [], failure: 'superseded' });
  };
  return {
    check(request: DraftCheckRequest) {
      if (inFlight) abandon();
      worker ??= start();
      const running = worker;
      return new Promise<DraftCheckReport>((resolve) => {
        inFlight = { id: request.id, resolve };
        postJob(running, { job: 'draft-check', body: request });
      });
    },
    dispose() {
      abandon();
    },
  };
}
