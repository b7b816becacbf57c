/** The outcomes job of the engine worker: every variant replayed under the page's schedule. */
import type { OutcomeReport, OutcomeRequest } from './protocol';
import { OutcomeRuns } from './outcomes';

export type OutcomeWorkerReply = { kind: 'report'; report: OutcomeReport } | { kind: 'error'; id: number; message: string };

/** Each variant's run, kept between requests: a step appended to the page's run costs one step here. */
const runs = new OutcomeRuns();

export function onOutcomeRequest(request: OutcomeRequest, post: (reply: OutcomeWorkerReply) => void): void {
  try {
    const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
    post({ kind: 'report', report: runs.report(request, inWorker ? 'worker' : 'page') });
  } catch (error) {
    post({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
}
