import type { LocalizedText, Step } from './program';
import type { ScriptTiming } from './redis/lua/busy';
import type { ViolationKind } from './trace';

/** A Lua script a scenario uses, shown to learners as source. */
export interface ScriptSpec {
  readonly source: string;
  readonly title?: LocalizedText;
  /**
   * Which of the script's values are durations in ms, so a replay on a real Redis at a faster
   * `--time-scale` scales them as it scales PX and PEXPIRE (src/cli/replay): `argv` lists ARGV
   * positions (1-based), `reply` says an integer reply is one (a PTTL). The simulation ignores it.
   */
  readonly durationsMs?: { readonly argv?: readonly number[]; readonly reply?: boolean };
}

export interface ClientSpec {
  /** Short id used in schedules and test ids: `A`, `B`, `C`. */
  readonly id: string;
  readonly program: readonly Step[];
  /** Extra starting variables (besides the generated `token`). */
  readonly vars?: Readonly<Record<string, string>>;
  /**
   * Start with this other client's `token` instead of a fresh one: a helper acting for that client,
   * such as a lock watchdog renewing the lease its owner holds.
   */
  readonly tokenFrom?: string;
  /**
   * The process this client runs in (default: its own id). Clients of one process share its fate:
   * a stall (a stop-the-world GC pause) freezes all of them and a crash kills all of them (a
   * watchdog thread stops with the JVM it lives in).
   */
  readonly process?: string;
  /**
   * The client whose `start` step starts this one (a helper thread, such as a watchdog started
   * once the lock is taken). Absent: the schedule starts it, with its first step.
   */
  readonly startedBy?: string;
  /**
   * Its program is written while it runs, by code outside the engine (engine/host.ts): its steps
   * are literal (no `${}` templates) and reaching the end of them asks the host for more.
   */
  readonly hosted?: boolean;
  /**
   * The client's own clock runs this many parts per million fast (positive) or slow (negative)
   * against the world's virtual time (docs/SCHEDULES.md, "Many nodes"). Read with a `clock` step.
   */
  readonly clockDriftPpm?: number;
}

/**
 * One simulated Redis node of a scenario with several (docs/SCHEDULES.md, "Many nodes"). Node ids
 * are written `@r1` in schedules and must not clash with client ids.
 */
export interface NodeSpec {
  readonly id: string;
  readonly role: 'primary' | 'replica';
  /** A replica's primary. */
  readonly replicaOf?: string;
  /** A replica applies each write of its primary this many ms after the primary made it (default 0). */
  readonly replicationDelayMs?: number;
  /** The node's clock runs this many ppm fast (positive) or slow (negative); its TTLs run on it. */
  readonly clockDriftPpm?: number;
  /**
   * 'fsync' (appendfsync always): a restart keeps every write the node acknowledged. 'none'
   * (default): a restart comes back empty, as a node without persistence (or whose writes had not
   * reached the disk) does.
   */
  readonly persistence?: 'fsync' | 'none';
  /**
   * A delayed restart (antirez's answer to restarts in Redlock): after a restart the node serves
   * no client for this many ms (longer than the longest lease), so locks it forgot have expired.
   */
  readonly restartDelayMs?: number;
}

/** Request and reply delays between clients and nodes, in ms each way. */
export interface LinkSpec {
  /** Every client-node link, unless overridden (default 0: a command is answered at once). */
  readonly delayMs?: number;
  readonly overrides?: readonly { readonly client: string; readonly node: string; readonly delayMs: number }[];
}

/** A protected counter (e.g. stock): the `oversell` checker compares sales with what there was. */
export interface CounterSpec {
  readonly id: string;
  readonly key: string;
  readonly initial: number;
  /**
   * What a `mark` on this counter records. 'sale' (default): one item sold from `key`, whose stock
   * starts at `initial` (the oversell checker). 'rebuild': one rebuild of the cache entry `key` from
   * the database, of which the story needs `initial` (the duplicate-rebuild checker). 'db-read': one
   * query to the database, limited in bursts (see burstMax).
   */
  readonly kind?: 'sale' | 'rebuild' | 'db-read';
  /**
   * 'db-read': one database query. The database takes at most `burstMax` of them within any
   * `burstWindowMs` (the load-spike checker reports more).
   */
  readonly burstMax?: number;
  readonly burstWindowMs?: number;
}

/** A protected resource (database row, file) clients write to while they believe they hold the lock. */
export interface ResourceSpec {
  readonly id: string;
  /** Refuse writes whose fencing token is lower than the highest seen (Kleppmann's fencing). */
  readonly fencing: boolean;
}

/** Narration for one step of the default schedule. */
export interface NarrationSpec {
  /** Index into the default schedule's choices (0-based). */
  readonly step: number;
  readonly text: LocalizedText;
}

export interface VariantSpec {
  readonly id: string;
  readonly title: LocalizedText;
  readonly summary: LocalizedText;
  readonly clients: readonly ClientSpec[];
  readonly scripts?: Readonly<Record<string, ScriptSpec>>;
  /**
   * This variant's protected resources, when they differ from the scenario's (e.g. a storage that
   * checks fencing tokens where the broken variant's does not). Replaces `Scenario.resources`.
   */
  readonly resources?: readonly ResourceSpec[];
  /** This variant's Redis nodes, when they differ from the scenario's. Replaces `Scenario.nodes`. */
  readonly nodes?: readonly NodeSpec[];
  /** Params that differ for this variant (a shorter lease, another interval); merged over the scenario's. */
  readonly params?: Readonly<Record<string, string>>;
  /** The key this variant's checkers and timeline treat as the lock, when it differs from the scenario's (a hash-tagged name). */
  readonly lockKey?: string;
  /** Redis version this variant needs, when newer than 7.0 (e.g. '8.4' for DELEX). */
  readonly requiresRedis?: string;
  /** Narration that differs from the scenario's for this variant, by step. */
  readonly narration?: readonly NarrationSpec[];
  /** What the default schedule must show: kinds that appear, and kinds that must not. */
  readonly expect: { readonly violations: readonly ViolationKind[]; readonly absent: readonly ViolationKind[] };
}

/**
 * Faults an explorer may add to a schedule (docs/EXPLORER.md): stalls of the given lengths and
 * crashes, of any client's process, at any point, at most this many of each per schedule.
 */
export interface FaultBudget {
  /** Stalls (`A~N`) one schedule may contain, over all processes. */
  readonly stallCountMax: number;
  /** The stall lengths tried at every point (ms). */
  readonly stallLengthsMs: readonly number[];
  /** Crashes (`!A`) one schedule may contain. */
  readonly crashCountMax: number;
  /** Only these clients' processes may be faulted (default: every client's). */
  readonly clients?: readonly string[];
  // Node faults (scenarios with several Redis nodes; docs/EXPLORER.md, "Node faults"). Absent: 0.
  /** Node crashes (`!@r1`) one schedule may contain. A crashed node may be restarted (`^@r1`) at any later point, free. */
  readonly nodeCrashCountMax?: number;
  /** Promotions of a replica (`@r2^`) one schedule may contain. */
  readonly promoteCountMax?: number;
  /** Node clock jumps (`@r3+11000`) one schedule may contain, of the lengths in `clockJumpsMs`. */
  readonly clockJumpCountMax?: number;
  /** The clock jumps tried at every point (ms; negative: the clock steps back). */
  readonly clockJumpsMs?: readonly number[];
  /** Client-node partitions (`A/@r1`) one schedule may contain. A partitioned link may be healed (`A|@r1`) at any later point, free. */
  readonly partitionCountMax?: number;
  /** Lost messages one schedule may contain: a client's next request to a node (`A-@r1`) or a node's next reply to it (`@r1-A`). */
  readonly lossCountMax?: number;
  /** Client clock jumps (`A@+2000`) one schedule may contain, of the lengths in `clientClockJumpsMs`. */
  readonly clientClockJumpCountMax?: number;
  /** The client clock jumps tried at every point (ms; negative: the clock steps back). */
  readonly clientClockJumpsMs?: readonly number[];
  /** Changes of a replica's replication delay (`@r2~3000`) one schedule may contain, to the delays in `replicationDelaysMs`. */
  readonly replicationDelayCountMax?: number;
  /** The replication delays tried at every point (ms, 0 or more). */
  readonly replicationDelaysMs?: readonly number[];
  /** Only these nodes are faulted (crashed, promoted, jumped, partitioned from, lost messages of, delayed); default: every node. */
  readonly nodes?: readonly string[];
}

/** The bounds a scenario's lesson is checked within by the explorer (docs/EXPLORER.md). */
export interface ExploreSpec {
  /** The declared fault budget (default: no faults). */
  readonly faults?: FaultBudget;
  /** Longest schedule searched, in choices. */
  readonly depthMax?: number;
  /** Distinct states the search may visit. */
  readonly stateCountMax?: number;
  /** Latest virtual time a searched schedule may reach (ms); none when absent. */
  readonly horizonMs?: number;
  /** Why these bounds, when they leave something out (said beside the verdict). */
  readonly note?: LocalizedText;
}

export interface Scenario {
  /** Stable id: share links and tests use it. */
  readonly id: string;
  readonly title: LocalizedText;
  /** One line for the picker. */
  readonly summary: LocalizedText;
  /** One paragraph: what this scenario teaches. */
  readonly lesson: LocalizedText;
  /** Values programs refer to as `${name}`, e.g. lockKey, ttlMs. */
  readonly params: Readonly<Record<string, string>>;
  /** The key the checkers and the timeline treat as the lock. */
  readonly lockKey: string;
  /**
   * Longest the story's critical section should ever keep the lock (ms). When set, a lock held
   * longer (for example kept alive by renewals while its owner hangs) is a lock-held-too-long.
   */
  readonly lockHoldMsMax?: number;
  /**
   * Most clients the story's critical section admits at once: a counting semaphore's limit. When
   * set, an enter that makes more clients inside is over-limit (the scenario lists its checkers,
   * leaving out mutual-exclusion, which allows one).
   */
  readonly holderCountMax?: number;
  /**
   * Longest a client should wait to get into the critical section for the first time (ms), from
   * its arrival. When set, a live client still waiting after that long is starving (a fair lock
   * whose queue is stuck, a writer that readers keep out).
   */
  readonly waitMsMax?: number;
  /**
   * Most times other clients may get into the critical section while a client still waits to get
   * in for the first time (from its arrival). When set, one more is starvation: the count version
   * of waitMsMax, independent of how long the others take (an unfair lock, a barging client).
   */
  readonly acquisitionsWhileWaitingMax?: number;
  /**
   * Keys where several clients may hold the lock at once, each named by its token: a string's
   * value, a sorted set's members, a hash's fields (a semaphore's entries, a read-write lock's
   * writer and readers). When set, the lock as the trace shows it also lists `holders`, the
   * clients whose tokens are there, and "who holds it" means any of them, not the last writer.
   */
  readonly holderKeys?: readonly string[];
  /**
   * How fast Lua runs on this scenario's virtual clock, and when other clients get BUSY
   * (redis/lua/busy.ts). Default: Redis-like speed, so lock scripts take no time; a story about a
   * slow script slows it down.
   */
  readonly scriptTiming?: ScriptTiming;
  /**
   * The simulated server's Unix time at virtual time 0, in ms (default 2026-01-01T00:00:00Z,
   * `DEFAULT_UNIX_EPOCH_MS` in redis/time.ts). TIME, EXAT/PXAT, EXPIREAT and EXPIRETIME speak
   * Unix time = this epoch + the virtual time; traces and views keep showing t from 0.
   */
  readonly unixEpochMs?: number;
  /**
   * The simulated Redis is a Redis Cluster (redis/cluster-slots.ts): three masters reached through
   * a cluster client, so a command or a script's KEYS whose keys hash to several slots answer
   * CROSSSLOT, and a script reaches only keys its master serves. Single-node engine only.
   */
  readonly redisCluster?: boolean;
  /**
   * The Redis nodes (docs/SCHEDULES.md, "Many nodes"). Absent: one primary, `redis`, with a
   * perfect clock and no link delay (the single-node engine, whose traces carry no node fields).
   */
  readonly nodes?: readonly NodeSpec[];
  /** Client-node link delays (only with `nodes`). */
  readonly links?: LinkSpec;
  /** Commands run at time 0 before any client (e.g. `SET stock 1`); with `nodes`, on every node. */
  readonly setup?: readonly (readonly string[])[];
  readonly scripts?: Readonly<Record<string, ScriptSpec>>;
  readonly counters?: readonly CounterSpec[];
  readonly resources?: readonly ResourceSpec[];
  /** The checkers that watch the run: every one when absent (engine/checkers.ts). */
  readonly checkers?: readonly ViolationKind[];
  /** Your own properties (engine/properties): invariants over each event, and goals a schedule must reach. */
  readonly properties?: readonly ScenarioProperty[];
  /** In the schedule grammar of docs/SCHEDULES.md. */
  readonly defaultSchedule: string;
  readonly narration?: readonly NarrationSpec[];
  readonly variants: readonly VariantSpec[];
  /** The first variant shown; usually the broken one. */
  readonly defaultVariant: string;
  /** The explorer's bounds for this lesson: its fault budget and depth (docs/EXPLORER.md). */
  readonly explore?: ExploreSpec;
}

export function findVariant(scenario: Scenario, variantId: string | undefined): VariantSpec {
  const id = variantId ?? scenario.defaultVariant;
  const variant = scenario.variants.find((v) => v.id === id);
  if (!variant) {
    throw new ScenarioError(
      `unknown variant "${id}" for scenario "${scenario.id}"; variants: ${scenario.variants.map((v) => v.id).join(', ')}`,
    );
  }
  return variant;
}

export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

/** The Redis nodes a variant runs against, or null for the single-node engine. */
export function nodesOf(scenario: Scenario, variant: VariantSpec): readonly NodeSpec[] | null {
  return variant.nodes ?? scenario.nodes ?? null;
}

/** The node ids a variant's schedules may name (empty for the single-node engine). */
export function nodeIdsOf(scenario: Scenario, variant: VariantSpec): string[] {
  return nodesOf(scenario, variant)?.map((n) => n.id) ?? [];
}

/** The key a variant's checkers and timeline treat as the lock. */
export function lockKeyOf(scenario: Scenario, variant: VariantSpec): string {
  return variant.lockKey ?? scenario.lockKey;
}

/** The protected resources a variant writes to: its own when it lists them, else the scenario's. */
export function resourcesOf(scenario: Scenario, variant: VariantSpec): readonly ResourceSpec[] {
  return variant.resources ?? scenario.resources ?? [];
}

/**
 * A property stated in a scenario: `always` must hold at every event (a `property` finding where
 * it does not); `reachable` must hold at some event of some schedule (the explorer's goal). The
 * expression is text in the property language (engine/properties/parse.ts).
 */
export interface ScenarioProperty {
  readonly name: string;
  readonly kind: 'always' | 'reachable';
  readonly expression: string;
}
