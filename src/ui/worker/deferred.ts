/**
 * An outcome service that starts later: the variant report is not first-screen work, so the page
 * creates its worker (and fetches the worker's code) only after the first paint. Until then the
 * latest request waits (older ones are dropped, as the worker client drops them); `start` loads
 * the real service and hands it that request.
 */
import type { OutcomeRequest, OutcomeReport, OutcomeService } from './protocol';

export interface DeferredOutcomeService extends OutcomeService {
  /** Creates the real service (once) and sends the request that waited, if any. */
  start(): Promise<void>;
}

export function deferredOutcomeService(load: () => Promise<OutcomeService>): DeferredOutcomeService {
  let service: OutcomeService | null = null;
  let starting: Promise<void> | null = null;
  let waiting: { request: OutcomeRequest; onReport: (report: OutcomeReport) => void } | null = null;
  let disposed = false;
  return {
    request(request, onReport) {
      if (service) service.request(request, onReport);
      else waiting = { request, onReport };
    },
    start() {
      starting ??= load().then((loaded) => {
        if (disposed) return loaded.dispose();
        service = loaded;
        const job = waiting;
        waiting = null;
        if (job) loaded.request(job.request, job.onReport);
      });
      return starting;
    },
    dispose() {
      disposed = true;
      waiting = null;
      service?.dispose();
    },
  };
}

/** A deferred service that starts itself on its first request (nothing to wait for, such as a first paint). */
export function startOnFirstRequest(deferred: DeferredOutcomeService): OutcomeService {
  return {
    request(request, onReport) {
      deferred.request(request, onReport);
      void deferred.start();
    },
    dispose() {
      deferred.dispose();
    },
  };
}
