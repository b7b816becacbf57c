/**
 * The outcome report on the calling thread, for tests and browsers without workers. A module of
 * its own: it imports every lesson's body, which the page's worker client must not pull in.
 */
import type { OutcomeService } from './protocol';
import { OutcomeRuns } from './outcomes';

/** Same answers on the calling thread, for tests and environments without workers. */
export function createInlineOutcomeService(): OutcomeService {
  const runs = new OutcomeRuns();
  return {
    request(request, onReport) {
      queueMicrotask(() => onReport(runs.report(request, 'page')));
    },
    dispose() {},
  };
}
