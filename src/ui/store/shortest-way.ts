/**
 * "Show me the shortest way": a challenge's goal handed to the explorer (docs/EXPLORER.md). The
 * breadth-first search finds a shortest schedule that shows the goal's violation (with the goal's
 * clients, offender first) within the scenario's declared bounds and the challenge's choice budget.
 * It gets its own explore service, so a "Find a race" search and this one never cancel each other.
 */
import { resolveBounds } from '../../engine/explore/bounds';
import type { Scenario } from '../../engine/scenario';
import type { ExploreService } from '../worker/explore-protocol';
import type { ShortestWayService } from './slices/learn';

export function explorerShortestWay(service: ExploreService, scenarioOf: (id: string) => Scenario | undefined): ShortestWayService {
  let requestId = 0;
  return {
    find({ scenarioId, variantId, seed, challenge }, done) {
      const goal = challenge.goal;
      const scenario = scenarioOf(scenarioId);
      // Only a violation to bring about has a shortest way; holding a fix has none to show.
      if (goal.kind !== 'break' || !scenario) {
        done(null);
        return;
      }
      const declared = resolveBounds(scenario);
      const depthMax = Math.min(declared.depthMax, challenge.choiceCountMax ?? declared.depthMax);
      const id = ++requestId;
      service.start(
        { id, scenarioId, variantId, seed, bounds: { depthMax, faults: challenge.faults ?? declared.faults }, invariants: [goal.violation], offenders: goal.clients, stopAt: 'first' },
        {
          onProgress() {},
          onDone({ result }) {
            done(result.violations[0]?.schedule ?? null);
          },
          onError() {
            done(null);
          },
        },
      );
    },
    dispose() {
      service.dispose();
    },
  };
}
