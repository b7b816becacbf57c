import { COMMANDS, errors, type CommandContext } from './commands';
import { Keyspace, type KeyEntry, type KeyspaceSnapshot } from './keyspace';
import { reply, type Reply } from './reply';
import { createLuaScriptEngine } from './lua';
import { ScriptBusyTracker, type RunningScript, type ScriptTiming } from './lua/busy';
import { SCRIPT_COMMANDS, type ScriptCommandInfo, type ScriptEngine } from './script-engine';

export interface ServerSnapshot {
  readonly keyspace: KeyspaceSnapshot;
  /** sha1 -> source of cached scripts. */
  readonly scripts: Record<string, string>;
  /** The scripts' math.random generator state (engine-defined text). */
  readonly scriptRandomState?: string;
  /** A slow script still occupying the server on the virtual clock (lua/busy.ts). */
  readonly runningScript?: RunningScript | null;
}

export interface ServerOptions {
  /** Builds the Lua engine for this server (default: Lockstep's fengari engine, `createLuaScriptEngine`). */
  readonly createScriptEngine?: () => ScriptEngine;
  /** How script instructions map to virtual time, and when others get BUSY (lua/busy.ts). */
  readonly scriptTiming?: ScriptTiming;
}

/**
 * One simulated Redis server: a keyspace (in ioredis-mock) plus Lockstep's command layer, which
 * makes what a learner observes behave like Redis 7 (typed replies, option parsing, WRONGTYPE,
 * arity, exact expiry). Every call is synchronous and takes the virtual time as an argument: the
 * server has no clock of its own.
 */
export class SimRedisServer {
  readonly keyspace = new Keyspace();
  private readonly scripts: ScriptEngine | null;
  /** The script occupying the server on the virtual clock, if any: see lua/busy.ts. */
  readonly scriptBusy: ScriptBusyTracker;
  /** What scripts call back into; one object, its time set per EVAL (no closure per call). */
  private readonly scriptHost = {
    nowMs: 0,
    call: (inner: readonly string[]): Reply => this.dispatch(inner, this.scriptHost.nowMs, true),
    commandInfo: scriptCommandInfo,
    keyCount: (): number => this.keyspace.size(),
  };

  constructor(options: ServerOptions = {}) {
    this.scripts = (options.createScriptEngine ?? createLuaScriptEngine)();
    this.scriptBusy = new ScriptBusyTracker(options.scriptTiming);
  }

  /** Executes one command (argv[0] is its name, any case) at virtual time `nowMs`. */
  execute(argv: readonly string[], nowMs: number): Reply {
    const busy = this.scriptBusy.intercept(argv, nowMs);
    if (busy !== null) return busy;
    this.keyspace.expireDue(nowMs);
    return this.dispatch(argv, nowMs, false);
  }

  private dispatch(argv: readonly string[], nowMs: number, inScript: boolean): Reply {
    if (argv.length === 0) return reply.error('ERR empty command');
    const name = argv[0].toLowerCase();
    if (SCRIPT_COMMANDS.has(name)) {
      if (inScript) return reply.error('ERR This Redis command is not allowed from script');
      if (!this.scripts) return reply.error('ERR scripting is not available on this server');
      this.scriptHost.nowMs = nowMs;
      const result = this.scripts.execute(argv, this.scriptHost);
      const run = name === 'script' ? null : (this.scripts.lastRun?.() ?? null);
      if (run !== null) this.scriptBusy.record(nowMs, run, result);
      return result;
    }
    // hasOwn: a learner typing `constructor` or `__proto__` must get Redis's unknown-command error.
    const spec = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
    if (!spec) return errors.unknown(argv[0], argv.slice(1));
    if ((spec.arity > 0 && argv.length !== spec.arity) || (spec.arity < 0 && argv.length < -spec.arity)) {
      return errors.arity(name);
    }
    const ctx: CommandContext = { keyspace: this.keyspace, nowMs, inScript };
    return spec.run(ctx, argv);
  }

  /** Every live key at `nowMs`, sorted, with type, value and absolute expiry. */
  inspect(nowMs: number): KeyEntry[] {
    this.keyspace.expireDue(nowMs);
    return this.keyspace.snapshot().entries.slice();
  }

  snapshot(): ServerSnapshot {
    return {
      keyspace: this.keyspace.snapshot(),
      scripts: this.scripts ? this.scripts.cachedScripts() : {},
      scriptRandomState: this.scripts?.randomState?.(),
      runningScript: this.scriptBusy.snapshot(),
    };
  }

  restore(snapshot: ServerSnapshot): void {
    this.keyspace.restore(snapshot.keyspace);
    this.scripts?.restoreCache(snapshot.scripts);
    if (snapshot.scriptRandomState !== undefined) this.scripts?.restoreRandomState?.(snapshot.scriptRandomState);
    this.scriptBusy.restore(snapshot.runningScript ?? null);
  }
}

/**
 * The command table as scripts see it. Commands Redis 7.0 flags `noscript` (from its COMMAND
 * output) are refused inside a script whether or not Lockstep implements them.
 */
const NOSCRIPT_ARITY: Record<string, number> = {
  auth: -2, bgrewriteaof: 1, bgsave: -1, blmove: 6, blpop: -3, brpop: -3, brpoplpush: 4, bzpopmax: -3, bzpopmin: -3,
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
