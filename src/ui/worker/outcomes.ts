/**
 * Every variant of a scenario under one schedule: what the variant toggle shows ("lua: no
 * violations", "get-then-del: foreign release at step 5") and where outcomes diverge. Pure: the
 * worker runs it, and so can a test or a page without workers.
 */
import { ChoiceError } from '../../engine/engine';
import { lockState } from '../../engine/lock-state';
import { parseSchedule } from '../../engine/schedule';
import { Simulation } from '../../engine/simulation';
import type { TraceEvent } from '../../engine/trace';
import { findScenario } from '../../scenarios';
import { formatProblems, parseDefinition, type ScenarioDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import type { OutcomeReport, OutcomeRequest, VariantOutcome } from './protocol';

/** What a step leaves behind, for divergence: who Redis says holds the lock, and what went wrong. */
function stepSignatures(events: readonly TraceEvent[], stepCount: number): string[] {
  const signatures: string[] = [];
  let index = 0;
  let holder: string | null = null;
  for (let step = 0; step < stepCount; step++) {
    const kinds: string[] = [];
    while (index < events.length && events[index].step === step) {
      const event = events[index];
      const lock = lockState(event.lockAfter);
      holder = lock.kind === 'free' ? null : (lock.holder ?? '?');
      if (event.kind === 'violation') kinds.push(event.violation);
      index += 1;
    }
    signatures.push(`${holder ?? '-'}|${kinds.join(',')}`);
  }
  return signatures;
}

/** The page validated the definition before sending it; a worker checks it again rather than trust a message. */
function scenarioOfDefinition(definition: ScenarioDefinition): Scenario {
  const result = parseDefinition(definition);
  if (!result.ok) throw new Error(`outcomes: the definition is not valid: ${formatProblems(result.problems)}`);
  return result.scenario;
}

export function computeOutcomes(request: OutcomeRequest, ranIn: OutcomeReport['ranIn']): OutcomeReport {
  const scenario = request.definition ? scenarioOfDefinition(request.definition) : findScenario(request.scenarioId);
  let commandCount = 0;
  const runs = scenario.variants.map((variant) => {
    const sim = new Simulation(scenario, { variantId: variant.id, seed: request.seed });
    // Parsed without the variant's client list: a client this variant lacks is a choice that does
    // not fit (ChoiceError below), not a broken schedule.
    const choices = parseSchedule(request.schedule);
    let stopReason: string | null = null;
    for (const choice of choices) {
      try {
        sim.apply(choice);
      } catch (error) {
        if (!(error instanceof ChoiceError)) throw error;
        stopReason = error.message;
        break;
      }
    }
    const events = sim.allEvents();
    commandCount += events.filter((e) => e.kind === 'command').length;
    return { variant, sim, events, stopReason, stepCount: choices.length, signatures: stepSignatures(events, sim.length) };
  });
  const base = runs.find((r) => r.variant.id === request.baseVariantId) ?? runs[0];
  const outcomes: VariantOutcome[] = runs.map((run) => {
    let firstDivergentStep: number | null = null;
    if (run !== base) {
      const stepCountMax = Math.max(run.signatures.length, base.signatures.length);
      for (let step = 0; step < stepCountMax; step++) {
        if (run.signatures[step] !== base.signatures[step]) {
          firstDivergentStep = step;
          break;
        }
      }
    }
    return {
      variantId: run.variant.id,
      stepsApplied: run.sim.length,
      stepCount: run.stepCount,
      stopReason: run.stopReason,
      violations: run.events
        .filter((e) => e.kind === 'violation')
        .map((e) => (e.kind === 'violation' ? { kind: e.violation, step: e.step, message: e.message, clients: e.clients } : null))
        .filter((v): v is NonNullable<typeof v> => v !== null),
      firstDivergentStep,
      commandCount: run.events.filter((e) => e.kind === 'command').length,
    };
  });
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
