import { Clients, subscriptionCount, watchName, type ClientData, type ClientState } from './clients';
import { COMMANDS, errors, type CommandContext, type CommandSpec } from './commands';
import { tryServe, type BlockedPop } from './commands/blocking';
import { ALLOWED_WHILE_SUBSCRIBED } from './commands/pubsub';
import { RUN_INSIDE_MULTI } from './commands/transactions';
import { Keyspace, type KeyEntry, type KeyspaceData, type KeyspaceSnapshot } from './keyspace';
import './lua-default';
import { createInstalledLuaEngine } from './lua-runtime';
import { clusterMasterOf, CROSSSLOT_ERROR, slotOf } from './cluster-slots';
import { ScriptBusyTracker, type RunningScript, type ScriptTiming } from './lua/busy';
import { PubSub, type PubSubData } from './pubsub';
import { reply, type Reply } from './reply';
import { SCRIPT_COMMANDS, type ScriptCommandInfo, type ScriptEngine } from './script-engine';
import type { Session } from './session';
import { DEFAULT_UNIX_EPOCH_MS } from './time';
import { nextBelow, seedRng, type RngState } from '../rng';

export interface ServerSnapshot {
  /** A KeyspaceSnapshot (cheap, shares values); JSON.stringify gives its plain, sorted form. */
  readonly keyspace: KeyspaceSnapshot | KeyspaceData;
  /** sha1 -> source of cached scripts. */
  readonly scripts: Record<string, string>;
  /** The scripts' math.random generator state (engine-defined text). */
  readonly scriptRandomState?: string;
  /** A slow script still occupying the server on the virtual clock (lua/busy.ts). */
  readonly runningScript?: RunningScript | null;
  /** Connections with a transaction, watches or subscriptions (absent when none has any). */
  readonly clients?: readonly ClientData[];
  /** Who subscribes to what, in delivery order (absent when nobody subscribes). */
  readonly pubsub?: PubSubData;
  /** Pushes written and not taken yet (absent when none). */
  readonly pushes?: readonly Push[];
  /** Databases 1-15 that hold keys (SELECT), by number; database 0 is `keyspace` (absent when none). */
  readonly databases?: Readonly<Record<string, KeyspaceSnapshot | KeyspaceData>>;
  /** Connections blocked in a blocking pop, first blocked first (absent when none). */
  readonly blocked?: readonly BlockedConnection[];
  /** The last CLIENT ID given (absent until one is asked). */
  readonly lastClientId?: number;
  /** The state of the stream SPOP and SRANDMEMBER draw from (absent until the first draw). */
  readonly randomState?: number;
}

export interface ServerOptions {
  /** Builds the Lua engine for this server (default: a new engine from the realm's installed Lua runtime, lua-runtime.ts). */
  readonly createScriptEngine?: () => ScriptEngine;
  /** How script instructions map to virtual time, and when others get BUSY (lua/busy.ts). */
  readonly scriptTiming?: ScriptTiming;
  /**
   * The server's Unix time at virtual time 0, in ms (default 2026-01-01T00:00:00Z,
   * `DEFAULT_UNIX_EPOCH_MS`). TIME, EXAT, PXAT, EXPIREAT and EXPIRETIME speak Unix time = this
   * epoch + the virtual time; keys keep their expiry on the virtual clock.
   */
  readonly unixEpochMs?: number;
  /**
   * Cluster mode (cluster-enabled yes): the server stands for a cluster of three masters reached
   * by a cluster client that sends each command to the master of its keys' slot; a command whose
   * keys hash to several slots answers CROSSSLOT, and a script may reach only keys its master
   * serves (cluster-slots.ts).
   */
  readonly cluster?: boolean;
  /**
   * Seeds the server's random stream (SPOP, SRANDMEMBER; default 0). A simulation passes its run
   * seed, so the same seed and schedule draw the same members.
   */
  readonly randomSeed?: number;
  /**
   * False: blocking pops answer at once, as inside MULTI (a server among several nodes, whose
   * requests travel as messages; blocking there is not modelled). Default true.
   */
  readonly blocking?: boolean;
}

/** A connection waiting in BLPOP & co.: its database, what it waits for, and its timeout (0: for ever). */
export interface BlockedConnection {
  readonly connectionId: string;
  readonly db: number;
  readonly pop: BlockedPop;
  readonly timeoutMs: number;
}

/** A value written to a connection outside the reply to its own command: a message, a further confirmation. */
export interface Push {
  readonly connectionId: string;
  readonly reply: Reply;
}

/** The connection `execute` uses when the caller names none. */
const DEFAULT_CONNECTION = 'default';

/** Commands a busy script does not hold up (Redis's allow-busy flag); SCRIPT KILL is busy.ts's. */
const ALLOW_BUSY: ReadonlySet<string> = new Set(['multi', 'discard', 'watch', 'unwatch', 'quit', 'reset']);

const SUBSCRIBED_ONLY =
  "only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context";

/**
 * One simulated Redis server: a keyspace plus Lockstep's command layer, which makes what a learner
 * observes behave like Redis 7 (typed replies, option parsing, WRONGTYPE, arity, exact expiry),
 * connections with transactions and Pub/Sub, and Lua scripting. Every call is synchronous and takes
 * the virtual time as an argument: the server has no clock of its own.
 */
export class SimRedisServer {
  /** Database 0: what the page shows and nodes replicate. SELECT reaches 1-15 (`databases`). */
  readonly keyspace = new Keyspace();
  /** Databases 1-15, made on first use. */
  private databases = new Map<number, Keyspace>();
  private lastClientId = 0;
  /** Connections blocked in a blocking pop, in the order they blocked. */
  private blocked: BlockedConnection[] = [];
  private readonly cluster: boolean;
  readonly unixEpochMs: number;
  private readonly scripts: ScriptEngine | null;
  /** The script occupying the server on the virtual clock, if any: see lua/busy.ts. */
  readonly scriptBusy: ScriptBusyTracker;
  private readonly clients = new Clients();
  private readonly pubsub = new PubSub();
  private pushes: Push[] = [];
  private readonly session: Session & { client: ClientState; nowMs: number; db: number; inScript: boolean; clusterMode: boolean; blockingAllowed: boolean } = {
    client: null as unknown as ClientState,
    nowMs: 0,
    db: 0,
    inScript: false,
    databaseCount: DATABASE_COUNT,
    clusterMode: false,
    select: (db) => {
      // A script's SELECT changes the script's database only (Redis since 2.8.12).
      if (this.session.inScript) this.scriptHost.db = db;
      else this.session.client.db = db;
    },
    flushAll: () => {
      this.keyspace.clear();
      for (const keyspace of this.databases.values()) keyspace.clear();
    },
    databaseSizes: (nowMs) => this.databaseSizes(nowMs),
    nextClientId: () => ++this.lastClientId,
    blockingAllowed: true,
    block: (pop, timeoutMs) => {
      this.blocked.push({ connectionId: this.session.client.id, db: this.session.db, pop, timeoutMs });
    },
    clients: this.clients,
    pubsub: this.pubsub,
    send: (clientId, value) => this.send(clientId, value),
    runQueued: (queue) => this.runQueued(this.session.client, this.session.nowMs, queue),
    close: () => {
      this.clients.discardTransaction(this.session.client);
      this.pubsub.forget(this.session.client);
    },
    randomBelow: (bound) => {
      const [value, next] = nextBelow(this.randomState ?? this.randomSeedState, bound);
      this.randomState = next;
      return value;
    },
  };
  /** The random stream's state; null until the first draw, so unused servers snapshot as before. */
  private randomState: RngState | null = null;
  private readonly randomSeedState: RngState;
  /** The connection whose output is being collected (the caller of `execute`, or EXEC's). */
  private capture: { readonly clientId: string; readonly values: Reply[] } | null = null;
  /** What scripts call back into; one object, its time and caller set per EVAL (no closure per call). */
  private readonly scriptHost = {
    nowMs: 0,
    client: null as ClientState | null,
    /** The script's database: the caller's at EVAL, then whatever its SELECTs chose. */
    db: 0,
    call: (inner: readonly string[]): Reply => {
      const result = this.dispatch(inner, this.scriptHost.nowMs, true, this.scriptHost.client as ClientState);
      // Commands that write their own replies are noscript: a script never reaches one.
      if (result === null) throw new Error(`'${inner[0]}' wrote its replies itself inside a script`);
      return result;
    },
    commandInfo: scriptCommandInfo,
    keyCount: (): number => this.database(this.scriptHost.db).size(),
    clusterMode: false,
    /** The slot of the keys the EVAL (or its EXEC) declared; -1: none. */
    slot: -1,
    clusterCheck: (argv: readonly string[]): string | null => this.scriptClusterCheck(argv),
  };
  /** Cluster mode: the slot of the command being run (-1: no keys). */
  private commandSlot = -1;

  constructor(options: ServerOptions = {}) {
    this.scripts = (options.createScriptEngine ?? createInstalledLuaEngine)();
    this.scriptBusy = new ScriptBusyTracker(options.scriptTiming);
    this.unixEpochMs = options.unixEpochMs ?? DEFAULT_UNIX_EPOCH_MS;
    this.scriptHost.clusterMode = options.cluster === true;
    this.cluster = options.cluster === true;
    this.session.clusterMode = this.cluster;
    this.session.blockingAllowed = options.blocking !== false;
    this.randomSeedState = seedRng(options.randomSeed ?? 0);
    this.keyspace.onTouch = (key) => this.clients.touch(key);
  }

  /**
   * Executes one command (argv[0] is its name, any case) at virtual time `nowMs` on the connection
   * `connectionId`, and returns its reply. Anything else the command wrote (further confirmations
   * to this connection, messages to subscribers) is queued for `takePushes`.
   */
  execute(argv: readonly string[], nowMs: number, connectionId: string = DEFAULT_CONNECTION): Reply {
    const client = this.clients.get(connectionId);
    const outer = this.capture;
    const capture = { clientId: connectionId, values: [] as Reply[] };
    this.capture = capture;
    try {
      this.process(client, argv, nowMs);
    } finally {
      this.capture = outer;
      this.clients.release(client);
    }
    // A blocked connection has no reply yet: nil stands in (isBlocked says which it is).
    const first = capture.values[0] ?? reply.nil();
    for (let i = 1; i < capture.values.length; i++) this.pushes.push({ connectionId, reply: capture.values[i] });
    if (this.blocked.length > 0) this.serveBlocked(nowMs);
    return first;
  }

  /** True while the connection waits in a blocking pop (its reply comes as a push, or from `unblock`). */
  isBlocked(connectionId: string): boolean {
    return this.blocked.some((b) => b.connectionId === connectionId);
  }

  /** The timeout of a blocked connection's wait in ms (0: for ever), or null when it is not blocked. */
  blockedTimeoutMs(connectionId: string): number | null {
    return this.blocked.find((b) => b.connectionId === connectionId)?.timeoutMs ?? null;
  }

  /** The wait ends unserved (its timeout passed): the nil reply Redis sends, and the connection is free. */
  unblock(connectionId: string): Reply {
    this.blocked = this.blocked.filter((b) => b.connectionId !== connectionId);
    return reply.nil();
  }

  /**
   * handleClientsBlockedOnKeys: after a command, blocked connections whose keys now hold data are
   * served, first blocked first, each as if its command ran now; the reply is a push to it. A
   * served BLMOVE may fill another's key: passes repeat until one serves nobody (bounded by the
   * number of blocked connections).
   */
  private serveBlocked(nowMs: number): void {
    for (let pass = 0; pass <= this.blocked.length && this.blocked.length > 0; pass++) {
      let served = false;
      for (const waiting of this.blocked.slice()) {
        const client = this.clients.get(waiting.connectionId);
        this.session.client = client;
        this.session.nowMs = nowMs;
        this.session.inScript = false;
        this.session.db = waiting.db;
        const ctx: CommandContext = { keyspace: this.database(waiting.db), nowMs, unixEpochMs: this.unixEpochMs, inScript: false, session: this.session };
        const result = tryServe(ctx, waiting.pop, true);
        this.clients.release(client);
        if (result === null) continue;
        this.blocked = this.blocked.filter((b) => b !== waiting);
        this.pushes.push({ connectionId: waiting.connectionId, reply: result });
        served = true;
      }
      if (!served) return;
    }
  }

  /** A connection's transaction, watches and subscriptions as plain data; null when it has none. */
  connection(connectionId: string): ClientData | null {
    return this.clients.data(connectionId);
  }

  /**
   * The connection is gone (its client's process crashed, its socket closed): as Redis frees a
   * client, its transaction and WATCHes are discarded, its subscriptions end, and pushes not yet
   * taken for it are dropped.
   */
  disconnect(connectionId: string): void {
    if (this.isBlocked(connectionId)) this.unblock(connectionId);
    const client = this.clients.get(connectionId);
    this.clients.discardTransaction(client);
    this.pubsub.forget(client);
    this.clients.release(client);
    if (this.pushes.some((push) => push.connectionId === connectionId)) {
      this.pushes = this.pushes.filter((push) => push.connectionId !== connectionId);
    }
  }

  /** Every push written since the last call, in the order written; the queue is then empty. */
  takePushes(): Push[] {
    const taken = this.pushes;
    this.pushes = [];
    return taken;
  }

  /** processCommand: existence, arity, the Pub/Sub context, a busy script, MULTI queueing, then the call. */
  private process(client: ClientState, argv: readonly string[], nowMs: number): void {
    if (argv.length === 0) return this.send(client.id, reply.error('ERR empty command'));
    const name = argv[0].toLowerCase();
    const spec = commandSpec(name);
    if (spec === null) return this.refuse(client, name, errorText(errors.unknown(argv[0], argv.slice(1))));
    if ((spec.arity > 0 && argv.length !== spec.arity) || (spec.arity < 0 && argv.length < -spec.arity)) {
      return this.refuse(client, name, errorText(errors.arity(name)));
    }
    const refusal = 'refuse' in spec ? (spec.refuse?.(argv) ?? null) : null;
    if (refusal !== null) return this.refuse(client, name, refusal);
    if (this.scriptHost.clusterMode) {
      // processCommand's cluster redirection, right after the arity check; EXEC checks what it queued.
      const slot = slotOf(name === 'exec' ? (client.multi ?? []) : [argv]);
      if (slot === 'cross') {
        if (name !== 'exec') return this.refuse(client, name, CROSSSLOT_ERROR);
        this.clients.discardTransaction(client);
        return this.send(client.id, reply.error(CROSSSLOT_ERROR));
      }
      this.commandSlot = slot ?? -1;
    }
    if (subscriptionCount(client) > 0 && !ALLOWED_WHILE_SUBSCRIBED.has(name)) {
      return this.refuse(client, name, `ERR Can't execute '${name}': ${SUBSCRIBED_ONLY}`);
    }
    const scriptKill = name === 'script' && argv[1]?.toLowerCase() === 'kill';
    if (!ALLOW_BUSY.has(name) && !(scriptKill && client.multi !== null)) {
      const busy = this.scriptBusy.intercept(argv, nowMs);
      if (busy !== null) return busy.type === 'error' ? this.refuse(client, name, busy.value) : this.send(client.id, busy);
    }
    if (client.multi !== null && !RUN_INSIDE_MULTI.has(name)) {
      client.multi.push(argv.slice());
      return this.send(client.id, reply.status('QUEUED'));
    }
    this.keyspace.expireDue(nowMs);
    for (const keyspace of this.databases.values()) keyspace.expireDue(nowMs);
    const result = this.run(spec, name, argv, nowMs, false, client);
    if (result !== null) this.send(client.id, result);
  }

  /**
   * A command refused before it runs (rejectCommand): inside MULTI it dooms the transaction, and
   * a refused EXEC discards it with EXECABORT and the reason.
   */
  private refuse(client: ClientState, name: string, error: string): void {
    if (client.multi !== null) client.execAborted = true;
    if (name !== 'exec') return this.send(client.id, reply.error(error));
    this.clients.discardTransaction(client);
    this.send(client.id, reply.error(`EXECABORT Transaction discarded because of: ${error.replace(/^ERR /, '')}`));
  }

  /** Writes a value to a connection: into the capture when it is the one being collected, else a push. */
  private send(clientId: string, value: Reply): void {
    if (this.capture !== null && this.capture.clientId === clientId) this.capture.values.push(value);
    else this.pushes.push({ connectionId: clientId, reply: value });
  }

  /** A command from a script (redis.call) or from EXEC: looked up and run, no queueing or context checks. */
  private dispatch(argv: readonly string[], nowMs: number, inScript: boolean, client: ClientState): Reply | null {
    if (argv.length === 0) return reply.error('ERR empty command');
    const name = argv[0].toLowerCase();
    const spec = commandSpec(name);
    if (spec === null) return errors.unknown(argv[0], argv.slice(1));
    if ((spec.arity > 0 && argv.length !== spec.arity) || (spec.arity < 0 && argv.length < -spec.arity)) {
      return errors.arity(name);
    }
    const refusal = 'refuse' in spec ? (spec.refuse?.(argv) ?? null) : null;
    if (refusal !== null) return reply.error(refusal);
    return this.run(spec, name, argv, nowMs, inScript, client);
  }

  private run(spec: CommandSpec | ScriptingSpec, name: string, argv: readonly string[], nowMs: number, inScript: boolean, client: ClientState): Reply | null {
    if ('scripting' in spec) {
      if (inScript) return reply.error('ERR This Redis command is not allowed from script');
      if (!this.scripts) return reply.error('ERR scripting is not available on this server');
      this.scriptHost.nowMs = nowMs;
      this.scriptHost.client = client;
      this.scriptHost.db = client.db;
      this.scriptHost.slot = this.commandSlot;
      const result = this.scripts.execute(argv, this.scriptHost);
      const run = name === 'script' ? null : (this.scripts.lastRun?.() ?? null);
      if (run !== null) this.scriptBusy.record(nowMs, run, result);
      return result;
    }
    // One session object, pointed at this command's connection (a command never runs another connection's).
    this.session.client = client;
    this.session.nowMs = nowMs;
    this.session.inScript = inScript;
    this.session.db = inScript ? this.scriptHost.db : client.db;
    const ctx: CommandContext = { keyspace: this.database(this.session.db), nowMs, unixEpochMs: this.unixEpochMs, inScript, session: this.session };
    return spec.run(ctx, argv);
  }

  /**
   * scriptVerifyClusterState (Redis 7.0 script.c): a command a script calls must reach only keys
   * its node serves. The script runs on the master serving the slot of the keys it declared (a
   * cluster client sends it there; with none declared, on the first master), so a key of another
   * master's slot, or keys spanning slots, are "non local". Keys in other slots of the same master
   * pass, as in Redis 7.0.
   */
  private scriptClusterCheck(argv: readonly string[]): string | null {
    if (!this.scriptHost.clusterMode) return null;
    const slot = slotOf([argv]);
    if (slot === null) return null;
    const node = this.scriptHost.slot < 0 ? 0 : clusterMasterOf(this.scriptHost.slot);
    if (slot === 'cross' || clusterMasterOf(slot) !== node) return 'ERR Script attempted to access a non local key in a cluster node';
    return null;
  }

  /** EXEC's body: every queued command runs as the caller, and what it writes to the caller is collected. */
  private runQueued(client: ClientState, nowMs: number, queue: readonly (readonly string[])[]): Reply[] {
    const outer = this.capture;
    const capture = { clientId: client.id, values: [] as Reply[] };
    this.capture = capture;
    try {
      for (const argv of queue) {
        const result = this.dispatch(argv, nowMs, false, client);
        if (result !== null) this.send(client.id, result);
      }
    } finally {
      this.capture = outer;
    }
    return capture.values;
  }

  /** Database `db` (0-15); 1-15 are made on first use, their changes reaching WATCH by their tagged names. */
  private database(db: number): Keyspace {
    if (db === 0) return this.keyspace;
    let keyspace = this.databases.get(db);
    if (keyspace === undefined) {
      keyspace = new Keyspace();
      keyspace.onTouch = (key) => this.clients.touch(watchName(db, key));
      this.databases.set(db, keyspace);
    }
    return keyspace;
  }

  /** INFO's keyspace lines: databases with keys, in order, with how many expire. */
  private databaseSizes(nowMs: number): { db: number; keys: number; expires: number }[] {
    const out: { db: number; keys: number; expires: number }[] = [];
    for (let db = 0; db < DATABASE_COUNT; db++) {
      const keyspace = db === 0 ? this.keyspace : this.databases.get(db);
      if (keyspace === undefined) continue;
      keyspace.expireDue(nowMs);
      const keys = keyspace.keys();
      if (keys.length > 0) out.push({ db, keys: keys.length, expires: keys.filter((key) => keyspace.expireAt(key) !== null).length });
    }
    return out;
  }

  /** Every live key at `nowMs`, sorted, with type, value and absolute expiry. */
  inspect(nowMs: number): KeyEntry[] {
    this.keyspace.expireDue(nowMs);
    return this.keyspace.snapshot().entries.slice();
  }

  snapshot(): ServerSnapshot {
    const snapshot: { -readonly [K in keyof ServerSnapshot]: ServerSnapshot[K] } = {
      keyspace: this.keyspace.snapshot(),
      scripts: this.scripts ? this.scripts.cachedScripts() : {},
      scriptRandomState: this.scripts?.randomState?.(),
      runningScript: this.scriptBusy.snapshot(),
    };
    // Only when present: a server that never used them snapshots (and hashes) as it always did.
    const clients = this.clients.snapshot();
    if (clients.length > 0) snapshot.clients = clients;
    if (!this.pubsub.isEmpty()) snapshot.pubsub = this.pubsub.snapshot();
    if (this.pushes.length > 0) snapshot.pushes = this.pushes.slice();
    if (this.randomState !== null) snapshot.randomState = this.randomState;
    const databases: Record<string, KeyspaceSnapshot> = {};
    for (const [db, keyspace] of [...this.databases].sort(([a], [b]) => a - b)) if (keyspace.size() > 0) databases[db] = keyspace.snapshot();
    if (Object.keys(databases).length > 0) snapshot.databases = databases;
    if (this.lastClientId > 0) snapshot.lastClientId = this.lastClientId;
    if (this.blocked.length > 0) snapshot.blocked = this.blocked.slice();
    return snapshot;
  }

  restore(snapshot: ServerSnapshot): void {
    this.keyspace.restore(snapshot.keyspace);
    this.scripts?.restoreCache(snapshot.scripts);
    if (snapshot.scriptRandomState !== undefined) this.scripts?.restoreRandomState?.(snapshot.scriptRandomState);
    this.scriptBusy.restore(snapshot.runningScript ?? null);
    this.clients.restore(snapshot.clients ?? []);
    this.pubsub.restore(snapshot.pubsub);
    this.pushes = (snapshot.pushes ?? []).slice();
    this.randomState = snapshot.randomState ?? null;
    this.lastClientId = snapshot.lastClientId ?? 0;
    this.blocked = (snapshot.blocked ?? []).slice();
    for (const keyspace of this.databases.values()) keyspace.restore(EMPTY_KEYSPACE);
    for (const [db, data] of Object.entries(snapshot.databases ?? {})) this.database(Number(db)).restore(data);
  }
}

/** Logical databases per server (redis.conf `databases 16`). */
const DATABASE_COUNT = 16;

const EMPTY_KEYSPACE: KeyspaceData = { entries: [] };

function errorText(r: Reply): string {
  return r.type === 'error' ? r.value : '';
}

/** EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT: run by the script engine; their arity is Redis's. */
interface ScriptingSpec {
  readonly scripting: true;
  readonly arity: number;
}
const SCRIPTING_SPECS: Record<string, ScriptingSpec> = {
  eval: { scripting: true, arity: -3 },
  eval_ro: { scripting: true, arity: -3 },
  evalsha: { scripting: true, arity: -3 },
  evalsha_ro: { scripting: true, arity: -3 },
  script: { scripting: true, arity: -2 },
};

function commandSpec(name: string): CommandSpec | ScriptingSpec | null {
  if (SCRIPT_COMMANDS.has(name)) return SCRIPTING_SPECS[name];
  // hasOwn: a learner typing `constructor` or `__proto__` must get Redis's unknown-command error.
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : null;
}

/**
 * The command table as scripts see it. Commands Redis 7.0 flags `noscript` (from its COMMAND
 * output) are refused inside a script whether or not Lockstep implements them.
 */
const NOSCRIPT_ARITY: Record<string, number> = {
  auth: -2, bgrewriteaof: 1, bgsave: -1, blmove: 6, client: -2, blpop: -3, brpop: -3, brpoplpush: 4, bzpopmax: -3, bzpopmin: -3,
  debug: -2, discard: 1, eval: -3, eval_ro: -3, evalsha: -3, evalsha_ro: -3, exec: 1, failover: -1, fcall: -3,
  fcall_ro: -3, hello: -1, monitor: 1, multi: 1, psubscribe: -2, psync: -3, punsubscribe: -1, quit: -1, replconf: -1,
  replicaof: 3, reset: 1, role: 1, save: 1, script: -2, shutdown: -1, slaveof: 3, ssubscribe: -2, subscribe: -2,
  sunsubscribe: -1, sync: 1, unsubscribe: -1, unwatch: 1, wait: 3, watch: -2,
};
const NOSCRIPT_INFO: Record<string, ScriptCommandInfo> = Object.fromEntries(
  Object.entries(NOSCRIPT_ARITY).map(([name, arity]) => [name, { arity, write: false, noScript: true }]),
);

function scriptCommandInfo(name: string): ScriptCommandInfo | null {
  if (Object.hasOwn(NOSCRIPT_INFO, name)) return NOSCRIPT_INFO[name];
  // A CommandSpec is a ScriptCommandInfo (arity, write); hasOwn keeps 'constructor' & co. out.
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : null;
}
