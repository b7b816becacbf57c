import type { Reply } from './reply';

/** What a script needs to know about a command before running it (Redis's command table). */
export interface ScriptCommandInfo {
  /** Redis arity: n > 0 exactly n words (with the name), n < 0 at least -n words. */
  readonly arity: number;
  /** Mutates the dataset: refused in EVAL_RO, and makes a running script unkillable. */
  readonly write: boolean;
  /** Refused inside scripts (EVAL, SCRIPT, MULTI, ...). */
  readonly noScript?: boolean;
}

/**
 * What the server gives a script while it runs: commands execute synchronously against the same
 * keyspace, at the same frozen time, with no other client in between.
 */
export interface ScriptHost {
  /** Runs one command from inside a script (redis.call / redis.pcall). argv[0] is the command name. */
  call(argv: readonly string[]): Reply;
  /** Virtual time of the script's start, frozen for the whole script. */
  readonly nowMs: number;
  /**
   * The command's table entry by lower-case name, or null for an unknown command. Lets the engine
   * answer Redis's script-specific errors ("Unknown Redis command called from script", "Wrong
   * number of args calling Redis command from script", EVAL_RO write refusal) and know when a
   * script wrote. Without it, those checks are left to `call`.
   */
  commandInfo?(name: string): ScriptCommandInfo | null;
  /**
   * Number of keys in the keyspace: the price of a command that walks all of them (KEYS,
   * FLUSHALL, ...) in the script's work budget. Without it, such commands cost what any other does.
   */
  keyCount?(): number;
  /** The server runs in cluster mode: a script flagged `no-cluster` is refused. */
  readonly clusterMode?: boolean;
  /** Cluster mode: why a command a script calls may not run (a key another master serves), or null. */
  clusterCheck?(argv: readonly string[]): string | null;
}

/** What one EVAL/EVALSHA did, for the server's virtual-time and SCRIPT KILL model. */
export interface ScriptRunReport {
  readonly sha: string;
  /** Lua VM instructions the script ran, counted in steps of the engine's hook interval. */
  readonly instructionCount: number;
  /** A write command succeeded: from then on SCRIPT KILL answers UNKILLABLE. */
  readonly wroteDataset: boolean;
  /** A work or memory budget stopped the script (lua/budget.ts); its reply is the budget error. */
  readonly killed: boolean;
}

/**
 * A Lua scripting engine for one simulated server: EVAL, EVALSHA and SCRIPT LOAD|EXISTS|FLUSH.
 * One persistent Lua state per server; scripts compiled once and cached by SHA1. The cache is part
 * of the server's state: `cachedScripts` / `restoreCache` take it in and out of snapshots.
 */
export interface ScriptEngine {
  /** Handles EVAL, EVAL_RO, EVALSHA, EVALSHA_RO and SCRIPT (argv[0] is the command, any case). */
  execute(argv: readonly string[], host: ScriptHost): Reply;
  /** sha1 -> source of every cached script, sorted by sha. */
  cachedScripts(): Record<string, string>;
  restoreCache(scripts: Record<string, string>): void;
  /** What the EVAL/EVALSHA just executed did; null if the last command ran no script. */
  lastRun?(): ScriptRunReport | null;
  /** The scripts' random generator (math.random) state, for snapshots. */
  randomState?(): string;
  restoreRandomState?(state: string): void;
}

/** The scripting commands the server routes to its ScriptEngine. */
export const SCRIPT_COMMANDS = new Set(['eval', 'eval_ro', 'evalsha', 'evalsha_ro', 'script']);
