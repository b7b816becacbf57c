import { postJob, startEngineWorker } from './engine-worker';
import type { OutcomeWorkerReply } from './outcomes-job';
import type { OutcomeReport, OutcomeRequest, OutcomeService } from './protocol';

/**
 * Runs outcome requests in one instance of the engine worker. While a request is in flight, newer requests
 * replace each other: only the latest is sent next, so a fast autoplay never queues work.
 */
export function createWorkerOutcomeService(): OutcomeService {
  const worker = startEngineWorker('outcomes');
  let inFlight: { request: OutcomeRequest; onReport: (report: OutcomeReport) => void } | null = null;
  let waiting: { request: OutcomeRequest; onReport: (report: OutcomeReport) => void } | null = null;

  const send = (job: NonNullable<typeof inFlight>) => {
    inFlight = job;
    postJob(worker, { job: 'outcomes', body: job.request });
  };
  worker.onmessage = (message: MessageEvent<OutcomeWorkerReply>) => {
    const job = inFlight;
    inFlight = null;
    if (job && message.data.kind === 'report' && message.data.report.id === job.request.id) job.onReport(message.data.report);
    if (message.data.kind === 'error') console.error(`[lockstep] outcome worker: ${message.data.message}`);
    if (waiting) {
      const next = waiting;
      waiting = null;
      send(next);
    }
  };
  worker.onerror = (event) => {
    console.error(`[lockstep] outcome worker failed: ${event.message}`);
    inFlight = null;
  };
  return {
    request(request, onReport) {
      if (inFlight) waiting = { request, onReport };
      else send({ request, onReport });
    },
    dispose() {
      worker.terminate();
    },
  };
}
