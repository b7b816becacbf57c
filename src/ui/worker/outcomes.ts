/**
 * Every variant of a scenario under one schedule: what the variant toggle shows ("lua: no
 * violations", "get-then-del: foreign release at step 5") and where outcomes diverge. Pure: the
 * worker runs it, and so can a test or a page without workers.
 *
 * Incremental: an `OutcomeRuns` keeps each variant's run between requests. A schedule that extends
 * the previous one applies only the new choices; one that differs from step k on seeks each run
 * back to k (checkpoint + replay) and applies from there. Nothing is replayed from step 0 unless
 * the scenario or seed changed.
 */
import { firstDivergence, type Divergence } from '../../engine/divergence';
import { ChoiceError } from '../../engine/engine';
import { RunProjection } from '../../engine/projection';
import { formatChoice, parseSchedule, type Choice } from '../../engine/schedule';
import { Simulation } from '../../engine/simulation';
import type { Scenario, VariantSpec } from '../../engine/scenario';
import { findScenario } from '../../scenarios';
import { formatProblems, parseDefinition, type ScenarioDefinition } from '../../definition';
import type { OutcomeReport, OutcomeRequest, VariantOutcome } from './protocol';

/** One variant's run, kept between requests. */
interface VariantRun {
  readonly variant: VariantSpec;
  sim: Simulation;
  projection: RunProjection;
  /** Index of the request's choice that did not fit, and why; null when all applied. */
  stop: { readonly index: number; readonly reason: string; readonly detail: string } | null;
  /** First event the last request (re)computed: events before it are as they were. */
  changedFrom: number;
  /** Leading events known to be the same as the base variant's (engine/divergence.ts). */
  agreed: number;
  /** Commands among the projection's first `countedEvents` events. */
  commands: number;
  countedEvents: number;
}

/** Length of the common prefix of two choice lists (by their text form). */
function commonPrefix(a: readonly Choice[], b: readonly Choice[]): number {
  const count = Math.min(a.length, b.length);
  for (let i = 0; i < count; i++) if (a[i] !== b[i] && formatChoice(a[i]) !== formatChoice(b[i])) return i;
  return count;
}

/** The page validated the definition before sending it; a worker checks it again rather than trust a message. */
function scenarioOfDefinition(definition: ScenarioDefinition): Scenario {
  const result = parseDefinition(definition);
  if (!result.ok) throw new Error(`outcomes: the definition is not valid: ${formatProblems(result.problems)}`);
  return result.scenario;
}

export class OutcomeRuns {
  private key = '';
  private scenario: Scenario | null = null;
  private runs: VariantRun[] = [];
  private schedule = '';
  private choices: Choice[] = [];
  private baseVariantId = '';

  report(request: OutcomeRequest, ranIn: OutcomeReport['ranIn']): OutcomeReport {
    // A custom scenario is known by its whole definition: an edited one with the same id starts again.
    const key = `${request.scenarioId}\n${request.seed}\n${request.definition ? JSON.stringify(request.definition) : ''}`;
    if (key !== this.key || this.scenario === null) {
      this.reset(key, request.definition ? scenarioOfDefinition(request.definition) : findScenario(request.scenarioId), request.seed);
    }
    const { choices, common } = this.parse(request.schedule);
    for (const run of this.runs) this.extend(run, choices, common);
    this.schedule = request.schedule;
    this.choices = choices;

    const base = this.runs.find((r) => r.variant.id === request.baseVariantId) ?? this.runs[0];
    if (request.baseVariantId !== this.baseVariantId) for (const run of this.runs) run.agreed = 0;
    this.baseVariantId = request.baseVariantId;
    let commandCount = 0;
    const outcomes: VariantOutcome[] = this.runs.map((run) => {
      const divergence = run === base ? null : this.divergence(run, base);
      const runCommands = run.commands;
      commandCount += runCommands;
      return {
        variantId: run.variant.id,
        stepsApplied: run.sim.length,
        stepCount: choices.length,
        stopReason: run.stop?.reason ?? null,
        stopDetail: run.stop?.detail ?? null,
        violations: run.projection.violations.map((e) => ({ kind: e.violation, step: e.step, message: e.message, clients: e.clients })),
        firstDivergentStep: divergence?.step ?? null,
        divergence: divergence && { step: divergence.step, event: divergence.a, baseEvent: divergence.b },
        commandCount: runCommands,
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

  /** The first event where the run differs from the base's, compared from where they last agreed. */
  private divergence(run: VariantRun, base: VariantRun): Divergence | null {
    const agreed = Math.min(run.agreed, run.changedFrom, base.changedFrom);
    const ofRun = { events: run.projection.events, stepCount: run.sim.length };
    const ofBase = { events: base.projection.events, stepCount: base.sim.length };
    const divergence = firstDivergence(ofRun, ofBase, agreed);
    run.agreed = divergence === null ? ofRun.events.length : divergence.eventIndex;
    return divergence;
  }

  private reset(key: string, scenario: Scenario, seed: number): void {
    this.key = key;
    this.scenario = scenario;
    this.schedule = '';
    this.choices = [];
    this.runs = scenario.variants.map((variant) => ({
      variant,
      sim: new Simulation(scenario, { variantId: variant.id, seed }),
      projection: new RunProjection(0),
      stop: null,
      changedFrom: 0,
      agreed: 0,
      commands: 0,
      countedEvents: 0,
    }));
  }

  /**
   * The request's choices and how many of them the previous request shared. Parsed without a
   * variant's client list: a client a variant lacks is a choice that does not fit there, not a
   * broken schedule. A schedule that extends the previous one parses only its new tail.
   */
  private parse(schedule: string): { choices: Choice[]; common: number } {
    const previous = this.schedule;
    if (schedule === previous) return { choices: this.choices, common: this.choices.length };
    if (previous === '' || (schedule.startsWith(previous) && schedule[previous.length] === ' ')) {
      const common = this.choices.length;
      // Extended in place: the list is this object's own, and its prefix stays as it was.
      for (const choice of parseSchedule(schedule.slice(previous.length))) this.choices.push(choice);
      return { choices: this.choices, common };
    }
    const choices = parseSchedule(schedule);
    return { choices, common: commonPrefix(this.choices, choices) };
  }

  /** Brings one variant's run to `choices`, reusing what it has of the first `common` ones. */
  private extend(run: VariantRun, choices: readonly Choice[], common: number): void {
    // A run that stopped on a choice both requests share stops there again.
    if (run.stop !== null && run.stop.index < common) {
      run.changedFrom = run.projection.eventCount;
      return;
    }
    const from = Math.min(common, run.sim.length);
    run.stop = null;
    run.sim.seek(from);
    for (let i = from; i < choices.length; i++) {
      try {
        run.sim.apply(choices[i]);
      } catch (error) {
        if (!(error instanceof ChoiceError)) throw error;
        run.stop = { index: i, reason: error.message, detail: error.reason };
        break;
      }
    }
    // Nothing applied after the seek (a shorter schedule) leaves the old future in the timeline:
    // the engine cuts a timeline only by a new choice, so this rare case starts the run again.
    if (run.sim.length > run.sim.cursor) {
      run.sim = new Simulation(run.sim.ctx.scenario, { variantId: run.variant.id, seed: run.sim.seed });
      for (const choice of choices.slice(0, run.stop?.index ?? choices.length)) run.sim.apply(choice);
      this.project(run, 0);
      return;
    }
    this.project(run, from);
  }

  /** Extends the run's projection; events of steps before `from` are as they were. */
  private project(run: VariantRun, from: number): void {
    const sim = run.sim;
    if (run.projection.sync(sim.allEvents(), sim.timeline) === 'replaced') {
      run.projection = new RunProjection(run.projection.generation + 1);
      run.projection.sync(sim.allEvents(), sim.timeline);
      run.commands = 0;
      run.countedEvents = 0;
    }
    const events = run.projection.events;
    for (; run.countedEvents < run.projection.eventCount; run.countedEvents++) if (events[run.countedEvents].kind === 'command') run.commands += 1;
    run.changedFrom = run.projection.firstEventOfStep(from);
  }
}

/** One report computed from scratch (tests, one-off callers). */
export function computeOutcomes(request: OutcomeRequest, ranIn: OutcomeReport['ranIn']): OutcomeReport {
  return new OutcomeRuns().report(request, ranIn);
}
