/**
 * Every variant of a scenario under one schedule: what the variant toggle shows ("lua: no
 * violations", "get-then-del: foreign release at step 5"), where each run first differs from a
 * base variant's, and which choice a variant refuses. Pure: the page's outcomes worker, the CLI's
 * `explore --compare-variants` and tests all use it.
 *
 * Incremental: a `VariantRuns` keeps each variant's run between updates. A schedule that extends
 * the previous one applies only the new choices; one that differs from step k on seeks each run
 * back to k (checkpoint + replay) and applies from there. Nothing is replayed from step 0.
 */
import { firstDivergence, type Divergence } from './divergence';
import { ChoiceError } from './engine';
import { RunProjection } from './projection';
import { formatChoice, parseSchedule, type Choice } from './schedule';
import { Simulation } from './simulation';
import type { Scenario, VariantSpec } from './scenario';
import type { TraceEvent, ViolationKind } from './trace';

/** Where a variant's run first differs from the base variant's (divergence.ts). */
export interface OutcomeDivergence {
  /** 0-based step (choice) of the first event that differs. */
  readonly step: number;
  /** That event in this variant's run, and in the base's; null where a run has none (it stopped, or did less). */
  readonly event: TraceEvent | null;
  readonly baseEvent: TraceEvent | null;
}

/** What one variant does under the schedule. */
export interface VariantOutcome {
  readonly variantId: string;
  /** Choices that applied before the schedule stopped fitting (== stepCount when all did). */
  readonly stepsApplied: number;
  readonly stepCount: number;
  /** Why the replay stopped early (the ChoiceError message), or null. */
  readonly stopReason: string | null;
  /** The same without its step ("cannot step A: it has finished"), or null. */
  readonly stopDetail: string | null;
  readonly violations: readonly { readonly kind: ViolationKind; readonly step: number; readonly message: string; readonly clients: readonly string[] }[];
  /** First step (0-based) with an event that differs from the base variant's run; null if none (`divergence.step`). */
  readonly firstDivergentStep: number | null;
  /** The first differing event of both runs; null for the base itself and for a run the same as the base's. */
  readonly divergence: OutcomeDivergence | null;
  readonly commandCount: number;
}

export interface VariantOutcomes {
  readonly outcomes: readonly VariantOutcome[];
  /** Redis commands the runs hold in all (what computing them cost). */
  readonly commandCount: number;
}

/** One variant's run, kept between updates. */
interface VariantRun {
  readonly variant: VariantSpec;
  sim: Simulation;
  projection: RunProjection;
  /** Index of the schedule's choice that did not fit, and why; null when all applied. */
  stop: { readonly index: number; readonly reason: string; readonly detail: string } | null;
  /** First event the last update (re)computed: events before it are as they were. */
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

/** Every variant of one scenario and seed, each run kept between updates. */
export class VariantRuns {
  private runs: VariantRun[];
  private schedule = '';
  private choices: Choice[] = [];
  private baseVariantId = '';

  constructor(
    readonly scenario: Scenario,
    readonly seed: number,
  ) {
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

  /** Every variant under `schedule`, compared with the run of `baseVariantId` (a bad schedule throws ScheduleSyntaxError). */
  update(schedule: string, baseVariantId: string): VariantOutcomes {
    const { choices, common } = this.parse(schedule);
    for (const run of this.runs) this.extend(run, choices, common);
    this.schedule = schedule;
    this.choices = choices;

    const base = this.runs.find((r) => r.variant.id === baseVariantId) ?? this.runs[0];
    if (baseVariantId !== this.baseVariantId) for (const run of this.runs) run.agreed = 0;
    this.baseVariantId = baseVariantId;
    let commandCount = 0;
    const outcomes: VariantOutcome[] = this.runs.map((run) => {
      const divergence = run === base ? null : this.divergence(run, base);
      commandCount += run.commands;
      return {
        variantId: run.variant.id,
        stepsApplied: run.sim.length,
        stepCount: choices.length,
        stopReason: run.stop?.reason ?? null,
        stopDetail: run.stop?.detail ?? null,
        violations: run.projection.violations.map((e) => ({ kind: e.violation, step: e.step, message: e.message, clients: e.clients })),
        firstDivergentStep: divergence?.step ?? null,
        divergence: divergence && { step: divergence.step, event: divergence.a, baseEvent: divergence.b },
        commandCount: run.commands,
      };
    });
    return { outcomes, commandCount };
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

  /**
   * The schedule's choices and how many of them the previous update shared. Parsed without a
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
    // A run that stopped on a choice both updates share stops there again.
    if (run.stop !== null && run.stop.index < common) {
      run.changedFrom = run.projection.eventCount;
      return;
    }
    const from = Math.min(common, run.sim.length);
    const cutsBefore = run.sim.cutCount;
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
      this.project(run, 0, true);
      return;
    }
    this.project(run, from, run.sim.cutCount !== cutsBefore);
  }

  /** Extends the run's projection (a new one when the timeline was cut or replaced); events of steps before `from` are as they were. */
  private project(run: VariantRun, from: number, replaced: boolean): void {
    const sim = run.sim;
    if (replaced) {
      run.projection = new RunProjection(run.projection.generation + 1);
      run.commands = 0;
      run.countedEvents = 0;
    }
    run.projection.extend(sim.allEvents(), sim.timeline);
    const events = run.projection.events;
    for (; run.countedEvents < run.projection.eventCount; run.countedEvents++) if (events[run.countedEvents].kind === 'command') run.commands += 1;
    run.changedFrom = run.projection.firstEventOfStep(from);
  }
}
