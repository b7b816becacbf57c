/**
 * A run whose clients include async code (host.ts): a Simulation with a checkpoint at every choice,
 * and a loop that applies each choice, lets the code catch up whenever the engine needs an action
 * it has not reached yet (HostPending), and applies the choice again. The engine is deterministic
 * and the code only ever runs on microtasks, so the same seed and schedule give the same trace.
 */
import { HostPending } from '../../engine/host';
import { localTimeMs } from '../../engine/nodes/clock';
import { DEFAULT_UNIX_EPOCH_MS } from '../../engine/redis/time';
import type { Scenario, ClientSpec } from '../../engine/scenario';
import { findVariant, resourcesOf } from '../../engine/scenario';
import type { Choice } from '../../engine/schedule';
import type { Step } from '../../engine/program';
import { Simulation } from '../../engine/simulation';
import { ArgumentError } from '../errors';
import { createClientContext, type ClientContext } from './context';
import { AsyncHost, type ClientCode } from './host';
import { clientConnections, resolveRedisClient, type RedisClientChoice } from './client-links';
import type { LockstepRedis } from './ioredis';

export type AsyncClientCode = ClientCode<LockstepRedis, ClientContext>;

/** A finished run's code as data: the scenario with hosted clients' logs as programs, and each activity's log. */
export interface RunRecording {
  readonly scenario: Scenario;
  readonly activities: readonly { readonly id: string; readonly owner: string; readonly log: readonly Step[] }[];
}

/** An async client with where it runs: its process (stalls and crashes hit a process), who starts it, whose token it uses. */
export interface AsyncClientSpec {
  readonly run: AsyncClientCode;
  readonly process?: string;
  readonly startedBy?: string;
  readonly tokenFrom?: string;
}

export type AsyncClients = Readonly<Record<string, AsyncClientCode | AsyncClientSpec>>;

/**
 * Times one choice may be applied again after its clients caught up: every retry follows new
 * actions of some client, and a choice runs at most engine.choiceStepCountMax client steps.
 */
const choiceAttemptCountMax = 50_000;

function specOf(id: string, client: AsyncClientCode | AsyncClientSpec): AsyncClientSpec {
  if (typeof client === 'function') return { run: client };
  if (typeof client !== 'object' || client === null || typeof client.run !== 'function') {
    throw new ArgumentError(`clients.${id}`, 'an async function (redis, ctx) => { ... }, or { run, process?, startedBy?, tokenFrom? }');
  }
  return client;
}

/** The variant with the async clients in place of (or beside) its own, their programs being the host's logs. */
function hostedScenario(base: Scenario, variantId: string, clients: AsyncClients, register: (id: string, code: AsyncClientCode) => ClientSpec['program']): Scenario {
  const variant = findVariant(base, variantId);
  const specs = new Map(Object.entries(clients).map(([id, c]) => [id, specOf(id, c)]));
  for (const id of specs.keys()) {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(id)) throw new ArgumentError(`clients.${id}`, 'a client id: a letter, then letters, digits or _ (what schedules name)');
  }
  const hosted = (id: string, own: ClientSpec | null): ClientSpec => {
    const spec = specs.get(id) as AsyncClientSpec;
    const process = spec.process ?? own?.process;
    const startedBy = spec.startedBy ?? own?.startedBy;
    const tokenFrom = spec.tokenFrom ?? own?.tokenFrom;
    return {
      id,
      program: register(id, spec.run),
      hosted: true,
      ...(process === undefined ? {} : { process }),
      ...(startedBy === undefined ? {} : { startedBy }),
      ...(tokenFrom === undefined ? {} : { tokenFrom }),
    };
  };
  const own = variant.clients.map((c) => (specs.has(c.id) ? hosted(c.id, c) : c));
  const added = [...specs.keys()].filter((id) => !variant.clients.some((c) => c.id === id)).map((id) => hosted(id, null));
  const all = [...own, ...added];
  all.forEach((c, i) => {
    const path = `clients.${c.id}`;
    if (c.startedBy !== undefined && !all.some((x) => x.id === c.startedBy)) throw new ArgumentError(`${path}.startedBy`, `no client "${c.startedBy}"`);
    if (c.tokenFrom !== undefined && !all.slice(0, i).some((x) => x.id === c.tokenFrom)) throw new ArgumentError(`${path}.tokenFrom`, `no client "${c.tokenFrom}" listed before ${c.id}`);
  });
  return { ...base, variants: [{ ...variant, clients: all }], defaultVariant: variant.id };
}

export class AsyncRun {
  readonly sim: Simulation;
  private readonly host: AsyncHost;

  constructor(base: Scenario, options: { readonly variantId: string; readonly seed: number; readonly clients: AsyncClients; readonly redisClient?: RedisClientChoice }) {
    const io = resolveRedisClient(options.redisClient);
    const epochMs = base.unixEpochMs ?? DEFAULT_UNIX_EPOCH_MS;
    // Date in a client's code: the epoch plus the client's own clock (its drift and jumps, with several nodes).
    const host = new AsyncHost(options.seed, (owner, nowMs) => {
      const clock = this.sim.state.cluster?.clientClocks[owner];
      return epochMs + (clock === undefined ? nowMs : localTimeMs(clock, nowMs));
    });
    const starters = new Map<string, AsyncClientCode>();
    // The code starts with its redis and ctx, made once the simulation has drawn each client's token.
    const relay = new Map<string, (generation: number) => unknown>();
    const scenario = hostedScenario(base, options.variantId, options.clients, (id, code) => {
      starters.set(id, code);
      return host.add(id, (generation) => (relay.get(id) as (generation: number) => unknown)(generation));
    });
    this.host = host;
    this.sim = new Simulation(scenario, { variantId: options.variantId, seed: options.seed, host, checkpointEverySteps: 1 });
    const variant = this.sim.ctx.variant;
    const scope = {
      resources: resourcesOf(scenario, variant).map((r) => r.id),
      counters: (scenario.counters ?? []).map((c) => c.id),
    };
    for (const [id, code] of starters) {
      const token = this.sim.clients.find((c) => c.id === id)?.vars.token ?? '';
      const helpers = variant.clients.filter((c) => c.startedBy === id).map((c) => c.id);
      relay.set(id, (generation) => {
        const { redis, nodes } = clientConnections(host, generation, id, this.sim.ctx.nodeIds, io);
        return code(redis, { ...createClientContext(host, generation, id, token, { ...scope, helpers }), nodes });
      });
    }
  }

  /** Applies one choice, letting async clients catch up as often as the engine needs. Throws ChoiceError when it does not fit. */
  async apply(choice: Choice): Promise<void> {
    await this.catchingUp(() => this.sim.apply(choice));
  }

  /**
   * The explorer's `next-due` move (Simulation.applyNextDue): the `+N` it became, or null when
   * nothing is due. Code that throws during it is reported with the `+N` that replays the throw
   * (`advanceBeforeThrow`): the clients ready now run first under any `+N`, and clients woken at
   * the next due time ran there.
   */
  async applyNextDue(): Promise<Choice | null> {
    const startMs = this.sim.nowMs;
    const dueMs = this.sim.nextDueMs();
    this.catchUpAtMs = startMs;
    try {
      return await this.catchingUp(() => this.sim.applyNextDue());
    } catch (error) {
      const ms = this.catchUpAtMs > startMs ? this.catchUpAtMs - startMs : dueMs === null ? 1 : dueMs - startMs;
      this.advanceBeforeThrow = { kind: 'advance', ms };
      throw error;
    }
  }

  /** The `+N` a `next-due` move stood for when code threw during it (applyNextDue). */
  advanceBeforeThrow: Choice | null = null;
  /** Virtual time of the last catch-up: where the code that threw was running. */
  private catchUpAtMs = 0;

  /** Runs `apply` again each time the engine needs an action an async client has not reached yet. */
  private async catchingUp<T>(apply: () => T): Promise<T> {
    for (let attempt = 0; attempt < choiceAttemptCountMax; attempt++) {
      try {
        return apply();
      } catch (error) {
        if (!(error instanceof HostPending)) throw error;
        this.catchUpAtMs = error.nowMs;
        await this.host.park(error.clientId, error.pc, error.nowMs);
      }
    }
    throw new Error(`a choice needed more than ${choiceAttemptCountMax} catch-ups of async clients`);
  }

  /** Back to time 0 with every client's code not yet started, for another schedule (the explorer's next run). */
  reset(): void {
    this.host.reset();
    this.sim.seek(0);
  }

  /** The state after the choices applied, with each async client's history: equal keys, equal futures. */
  stateKey(): string {
    return `${this.sim.stateKey()}|${this.host.historyKey()}`;
  }

  /** What the run's code reached (run-file.ts): the variant with each client's log as its program, and the activities' logs. */
  recording(): RunRecording {
    const { scenario, variant } = this.sim.ctx;
    const clients = variant.clients.map((c) => (c.hosted ? { ...c, program: [...(this.sim.ctx.programs[c.id] ?? [])] } : c));
    return { scenario: { ...scenario, variants: [{ ...variant, clients }], defaultVariant: variant.id }, activities: this.host.activityLogs() };
  }

  /** Lets every client run on what it was last given, and reports a client whose code threw. */
  async finish(): Promise<void> {
    await this.host.settle();
  }
}
