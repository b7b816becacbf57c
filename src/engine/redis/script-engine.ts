import type { Reply } from './reply';

/**
 * What the server gives a script while it runs: commands execute synchronously against the same
 * keyspace, at the same frozen time, with no other client in between.
 */
export interface ScriptHost {
  /** Runs one command from inside a script (redis.call / redis.pcall). argv[0] is the command name. */
  call(argv: readonly string[]): Reply;
  /** Virtual time of the script's start, frozen for the whole script. */
  readonly nowMs: number;
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
}

/** The scripting commands the server routes to its ScriptEngine. */
export const SCRIPT_COMMANDS = new Set(['eval', 'eval_ro', 'evalsha', 'evalsha_ro', 'script']);
