/**
 * The page's outcomes: every variant of the scenario on screen under its schedule, as the
 * engine's VariantRuns computes them (engine/variant-outcomes.ts), for a request of the outcome
 * worker's protocol. Keeps the runs between requests while the scenario and seed stay the same: an
 * edited scenario with the same id is known by its whole definition and starts again.
 */
import { VariantRuns } from '../../engine/variant-outcomes';
import type { Scenario } from '../../engine/scenario';
import { findScenario } from '../../scenarios';
import { formatProblems, parseDefinition, type ScenarioDefinition } from '../../definition';
import type { OutcomeReport, OutcomeRequest } from './protocol';

/** The page validated the definition before sending it; a worker checks it again rather than trust a message. */
function scenarioOfDefinition(definition: ScenarioDefinition): Scenario {
  const result = parseDefinition(definition);
  if (!result.ok) throw new Error(`outcomes: the definition is not valid: ${formatProblems(result.problems)}`);
  return result.scenario;
}

export class OutcomeRuns {
  private key = '';
  private runs: VariantRuns | null = null;

  report(request: OutcomeRequest, ranIn: OutcomeReport['ranIn']): OutcomeReport {
    const key = `${request.scenarioId}\n${request.seed}\n${request.definition ? JSON.stringify(request.definition) : ''}`;
    if (key !== this.key || this.runs === null) {
      this.key = key;
      this.runs = new VariantRuns(request.definition ? scenarioOfDefinition(request.definition) : findScenario(request.scenarioId), request.seed);
    }
    const { outcomes, commandCount } = this.runs.update(request.schedule, request.baseVariantId);
    return {
      id: request.id,
      scenarioId: request.scenarioId,
      seed: request.seed,
      schedule: request.schedule,
      baseVariantId: request.baseVariantId,
      outcomes,
      ranIn,
      commandCount,
    };
  }
}

/** One report computed from scratch (tests, one-off callers). */
export function computeOutcomes(request: OutcomeRequest, ranIn: OutcomeReport['ranIn']): OutcomeReport {
  return new OutcomeRuns().report(request, ranIn);
}
