/**
 * One run, headless (tldraw keeps its `Editor` this way): the simulation, its projection, the
 * inspector's snapshots, the load ticket and the run-spec checks, behind plain-data commands.
 * Framework-free (no React, store or DOM), so a store, a test or a Web Worker drives it alike.
 *
 * The change feed (`mark`, `changesSince`) is decided here, once, from what each command did:
 * a choice applied before the timeline's end cut it (the simulation counts its cuts), and a load
 * or rebuild replaced it; either starts a new generation. Nobody else compares identities.
 */
import { ChoiceError } from '../engine/choice-error';
import { randomPolicy, type SchedulingPolicy } from '../engine/policies';
import { RunProjection } from '../engine/projection';
import type { KeyEntry } from '../engine/redis/keyspace';
import type { Scenario } from '../engine/scenario';
import { parseSchedule, ScheduleSyntaxError, type Choice } from '../engine/schedule';
import { Simulation } from '../engine/simulation';
import type { CommandResult, LoadOutcome, Refusal, ScheduleCut, SessionCommand } from './commands';
import { changesOf, markOf, type FeedChange, type FeedMark } from './feed';
import { buildFrame, nextExpiryOf, type SessionFrame } from './frame';
import { InspectorCache } from './inspector-cache';
import { LoadTickets } from './load-tickets';
import { checkLoad, replay, type LoadRequest } from './run-spec';

/** Steps "run to next command" may take before it gives up (a client that never sends one). */
export const runToCommandStepCountMax = 100;

export type { LoadRequest } from './run-spec';

const ok = (timelineChanged: boolean): CommandResult => ({ ok: true, timelineChanged });

export class RunSession {
  private sim: Simulation;
  private runScenario: Scenario;
  private defaultChoices: readonly Choice[] = [];
  private projection = new RunProjection(-1);
  private cutsSeen = 0;
  private readonly inspector = new InspectorCache();
  private tokens: Readonly<Record<string, string>> = {};
  private tokenOwners: Readonly<Record<string, string>> = {};
  private timelineVersion = -1;
  private lastFrame: SessionFrame | null = null;
  private frameStale = true;
  private fresh = true;
  private readonly tickets = new LoadTickets();
  private autoplay: { readonly play: number; readonly policy: SchedulingPolicy } | null = null;

  /** Starts with `scenario`'s default variant and seed at step 0 (a stand-in until a run loads). */
  constructor(scenario: Scenario) {
    this.runScenario = scenario;
    this.sim = new Simulation(scenario, {});
    this.install(scenario, this.sim, 0);
  }

  /** The live simulation, for reading (refusals, a policy's pick); change it only through commands. */
  get simulation(): Simulation {
    return this.sim;
  }
  get scenario(): Scenario {
    return this.runScenario;
  }

  // ---- loading -------------------------------------------------------------------------------

  /** Validates a run and, if it holds, installs it (replacing any load still pending). */
  load(request: LoadRequest): LoadOutcome {
    const checked = checkLoad(request);
    if (!checked.ok) return checked;
    const scenario = checked.scenario;
    const { sim, error } = replay(scenario, request.variantId, checked.seed, checked.choices);
    if (error && !request.cutToFit) return { ok: false, error: { reason: 'schedule-does-not-fit', detail: error.message } };
    this.install(scenario, sim, checked.cursor === null ? null : Math.min(checked.cursor, sim.length));
    return { ok: true, cut: error ? { step: sim.length, reason: error.message } : null };
  }

  /** A scenario starts loading elsewhere: commands are refused until a run is installed (load-tickets.ts). */
  beginLoading(scenarioId: string): number {
    return this.tickets.begin(scenarioId);
  }
  isCurrentLoad(ticket: number): boolean {
    return this.tickets.isCurrent(ticket);
  }
  endLoading(ticket: number): void {
    this.tickets.end(ticket);
  }
  get loading(): string | null {
    return this.tickets.loading;
  }

  // ---- commands ------------------------------------------------------------------------------

  /** Applies one command; a choice that does not fit is a refusal, never a throw. */
  apply(command: SessionCommand): CommandResult {
    const loading = this.tickets.refusal();
    if (loading !== null) return loading;
    switch (command.kind) {
      case 'seek':
        return this.seek(command.cursor);
      case 'stepBack':
        return this.sim.cursor === 0 ? this.settle(null) : this.seek(this.sim.cursor - 1);
      case 'stepForward':
        return this.run(() => {
          this.entriesHere();
          this.sim.stepForward();
        });
      case 'rebuild':
        return this.rebuild(command.variantId, command.seed);
      case 'jumpToNextExpiry': {
        const atMs = nextExpiryOf(this.entriesHere(), this.sim.nowMs);
        // A key with expiry time T still exists at T (Redis: expired once now > T).
        return atMs === null ? { ok: true, noop: true, timelineChanged: false } : this.run(() => this.choose({ kind: 'advance', ms: atMs - this.sim.nowMs + 1 }));
      }
      case 'appendSchedule':
        return this.appendSchedule(command.text);
      case 'autoplay':
        return this.autoplayStep(command.play, command.policySeed);
      case 'choice': {
        const ref = command.checkFirst === true ? this.sim.refusalRef(command.choice) : null;
        if (ref !== null) return { ok: false, refusal: { kind: 'choice', detail: this.sim.refusal(command.choice) ?? '', ref }, timelineChanged: false };
        return this.run(() => this.choose(command.choice));
      }
      default:
        return this.run(() => this.applyChoices(command));
    }
  }

  /** Forward along the timeline, else the policy of this press of Play picks (its stream continues across steps). */
  private autoplayStep(play: number, policySeed: number): CommandResult {
    if (this.sim.cursor < this.sim.length) return this.apply({ kind: 'stepForward' });
    if (this.autoplay?.play !== play) this.autoplay = { play, policy: randomPolicy(policySeed) };
    const choice = this.autoplay.policy.next(this.sim);
    if (choice === null) return { ok: true, noop: true, ended: true, timelineChanged: false };
    return this.run(() => this.choose(choice));
  }

  private applyChoices(command: Exclude<SessionCommand, { kind: 'seek' | 'stepBack' | 'stepForward' | 'rebuild' | 'jumpToNextExpiry' | 'appendSchedule' | 'autoplay' }>): void {
    switch (command.kind) {
      case 'step':
      case 'stall':
      case 'crash':
        this.choose(command);
        return;
      case 'advance':
        this.choose({ kind: 'advance', ms: command.ms });
        return;
      case 'choice':
        this.choose(command.choice);
        return;
      case 'appendChoices':
        // Only the last choice's "before" is shown: the others skip the inspector.
        command.choices.forEach((choice, i) => (i === command.choices.length - 1 ? this.choose(choice) : this.sim.apply(choice)));
        return;
      case 'runToNextCommand':
        this.runToNextCommand(command.clientId);
        return;
    }
  }

  private runToNextCommand(clientId: string): void {
    for (let steps = 0; steps < runToCommandStepCountMax; steps++) {
      const produced = this.choose({ kind: 'step', clientId });
      const client = this.sim.clients.find((c) => c.id === clientId);
      if (produced.some((e) => e.kind === 'command' && e.clientId === clientId)) return;
      if (!client || client.status === 'done' || client.status === 'crashed') return;
    }
  }

  /** One choice at the cursor; the keys before it are kept for the inspector's "changed". */
  private choose(choice: Choice) {
    this.inspector.remember(this.sim.cursor, this.entriesHere());
    return this.sim.apply(choice);
  }

  private appendSchedule(text: string): CommandResult {
    let choices: Choice[];
    try {
      choices = parseSchedule(text, this.sim.ctx.clientIds, this.sim.ctx.nodeIds);
    } catch (error) {
      if (!(error instanceof ScheduleSyntaxError)) throw error;
      return { ok: false, refusal: { kind: 'schedule', detail: error.message }, timelineChanged: false };
    }
    return this.run(() => this.applyChoices({ kind: 'appendChoices', choices }));
  }

  /** Moves the cursor; the step before the target is visited on the way, for the inspector. */
  private seek(cursor: number): CommandResult {
    const sim = this.sim;
    const target = Math.max(0, Math.min(sim.length, Math.trunc(cursor)));
    if (Number.isNaN(target) || target === sim.cursor) return { ok: true, noop: true, timelineChanged: false };
    return this.run(() => {
      if (target > 0 && this.inspector.get(target - 1) === undefined) {
        sim.seek(target - 1);
        this.inspector.remember(target - 1, sim.inspect());
      }
      sim.seek(target);
    });
  }

  /** Runs a change; a ChoiceError becomes a refusal (what applied before it stays). */
  private run(change: () => void): CommandResult {
    const cursorBefore = this.sim.cursor;
    let refusal: Refusal | null = null;
    try {
      change();
    } catch (error) {
      if (!(error instanceof ChoiceError)) throw error;
      refusal = { kind: 'choice', detail: error.message, ref: error.ref };
    }
    return this.settle(refusal, cursorBefore);
  }

  /** Brings the projection to the simulation after a command; returns the command's result. */
  private settle(refusal: Refusal | null, cutAt: number | null = null): CommandResult {
    const sim = this.sim;
    let timelineChanged = false;
    if (sim.cutCount !== this.cutsSeen) {
      // A command cuts only at the cursor it started from (a load or rebuild: cutAt null, all goes).
      if (cutAt === null) this.inspector.clear();
      else this.inspector.dropAfter(cutAt);
      this.newGeneration();
      timelineChanged = true;
    }
    const stepsBefore = this.projection.stepCount;
    this.projection.extend(sim.allEvents(), sim.timeline);
    if (this.projection.stepCount !== stepsBefore) timelineChanged = true;
    if (timelineChanged) this.timelineVersion += 1;
    this.frameStale = true;
    return refusal === null ? ok(timelineChanged) : { ok: false, refusal, timelineChanged };
  }

  private rebuild(variantId: string, seed: number): CommandResult {
    const old = this.sim;
    const { sim, error } = replay(this.runScenario, variantId, seed, old.timeline);
    this.install(this.runScenario, sim, Math.min(old.cursor, sim.length));
    const cut: ScheduleCut | null = error ? { step: sim.length, reason: error.message } : null;
    return { ok: true, timelineChanged: true, cut };
  }

  /** Installs a new simulation (a loaded run, another variant or seed) at `cursor` (null: its end). */
  private install(scenario: Scenario, sim: Simulation, cursor: number | null): void {
    this.tickets.supersede();
    this.sim = sim;
    this.runScenario = scenario;
    this.defaultChoices = parseSchedule(scenario.defaultSchedule, sim.ctx.clientIds, sim.ctx.nodeIds);
    this.inspector.clear();
    const target = cursor === null ? sim.length : Math.min(cursor, sim.length);
    // Past the step before the target on the way, for the inspector's "changed" (no trip back later).
    if (target > 0) {
      sim.seek(target - 1);
      this.inspector.remember(target - 1, sim.inspect());
    }
    sim.seek(target);
    const tokens: Record<string, string> = {};
    const tokenOwners: Record<string, string> = {};
    for (const c of sim.clients) {
      const token = c.vars.token ?? '';
      tokens[c.id] = token;
      if (token !== '') tokenOwners[token] = c.id;
    }
    this.tokens = tokens;
    this.tokenOwners = tokenOwners;
    this.fresh = true;
    this.newGeneration();
    this.projection.extend(sim.allEvents(), sim.timeline);
    this.timelineVersion += 1;
    this.frameStale = true;
  }

  private newGeneration(): void {
    this.projection = new RunProjection(this.projection.generation + 1);
    this.cutsSeen = this.sim.cutCount;
  }

  // ---- reading -------------------------------------------------------------------------------

  /** The run at the cursor as plain data (computed once per change). */
  frame(): SessionFrame {
    if (!this.frameStale && this.lastFrame !== null) return this.lastFrame;
    const sim = this.sim;
    const entries = this.entriesHere();
    this.lastFrame = buildFrame({
      sim,
      projection: this.projection,
      entries,
      previousEntries: sim.cursor > 0 ? this.entriesAt(sim.cursor - 1) : null,
      defaultChoices: this.defaultChoices,
      tokens: this.tokens,
      tokenOwners: this.tokenOwners,
      timelineVersion: this.timelineVersion,
      previous: this.lastFrame,
      fresh: this.fresh,
    });
    this.fresh = false;
    this.frameStale = false;
    return this.lastFrame;
  }

  /** The projection of the timeline (lanes, lock intervals, key history), as the feed's generation has it. */
  get log(): RunProjection {
    return this.projection;
  }

  /** Where the feed is now. */
  mark(): FeedMark {
    return markOf(this.projection);
  }

  /** What changed since `mark`: the events and steps appended, or a reset. */
  changesSince(mark: FeedMark): FeedChange {
    return changesOf(this.projection, mark);
  }

  /** The keys at the cursor (remembered for the next step's "changed"). */
  private entriesHere(): KeyEntry[] {
    const cursor = this.sim.cursor;
    return this.inspector.get(cursor) ?? this.inspector.remember(cursor, this.sim.inspect());
  }

  /** The keys at `cursor`, from the cache or by a round trip of the live world. */
  private entriesAt(cursor: number): KeyEntry[] {
    const cached = this.inspector.get(cursor);
    if (cached) return cached;
    const sim = this.sim;
    const here = sim.cursor;
    sim.seek(cursor);
    const entries = sim.inspect();
    sim.seek(here);
    return this.inspector.remember(cursor, entries);
  }
}
