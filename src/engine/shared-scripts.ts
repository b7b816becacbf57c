import type { LuaScriptEngine } from './redis/lua/engine';
import { RAND48_INITIAL_SAVED } from './redis/lua/rand48';
import { createInstalledLuaEngine } from './redis/lua-runtime';
import type { Reply } from './redis/reply';
import type { ScriptEngine, ScriptHost, ScriptRunReport } from './redis/script-engine';

/**
 * One Lua engine for every simulated server of a JavaScript realm (page, worker, Node process),
 * lent to each server in turn. Building a Lua state costs milliseconds; a simulation, an
 * explorer's copy of a run or a replay per variant should not pay it again.
 *
 * Sharing is exact because a Redis script cannot leave anything behind for the next one except
 * what a server's snapshot already holds: the globals and every library table are read-only
 * (Redis 7, lua/engine.ts), so what persists is the script cache and the scripts' random state.
 * Each server keeps its own of both here (`cachedScripts`, `randomState`: the snapshot's fields).
 * Before a server's script command runs, the shared engine is given that server's random state
 * and, for EVALSHA and SCRIPT (whose answers depend on what is cached), exactly that server's
 * cache. EVAL does not depend on the cache (a known source runs the same compiled or not), so it
 * runs on whatever the engine holds as long as that includes the server's scripts: compiling is
 * the expensive part, and explorers move between states with and without a script cached.
 */
interface Lender {
  readonly engine: LuaScriptEngine;
  /** The loan whose random state the engine holds now. */
  holder: ScriptEngineLoan | null;
  /** The shas the engine's cache holds. */
  shas: Set<string>;
}

let lender: Lender | null = null;

function theLender(): Lender {
  if (lender === null) {
    // Built on the first script command, not with the run: a realm (the page) may load its Lua
    // engine after its first runs, and a run that never evaluates a script never needs it.
    lender = { engine: createInstalledLuaEngine(), holder: null, shas: new Set() };
  }
  return lender;
}

class ScriptEngineLoan implements ScriptEngine {
  /** This server's script cache, sorted by sha (as cachedScripts answers). */
  private cache: Record<string, string> = {};
  /** The scripts' random state: a fresh engine's until a script runs (the engine's own `randomState()`). */
  private random: string = RAND48_INITIAL_SAVED;
  private report: ScriptRunReport | null = null;

  execute(argv: readonly string[], host: ScriptHost): Reply {
    const pool = theLender();
    const engine = pool.engine;
    const name = argv[0]?.toLowerCase();
    const isEval = name === 'eval' || name === 'eval_ro';
    const shas = Object.keys(this.cache);
    const exact = shas.length === pool.shas.size && shas.every((sha) => pool.shas.has(sha));
    if (isEval ? !shas.every((sha) => pool.shas.has(sha)) : !exact) {
      engine.restoreCache(this.cache);
      pool.shas = new Set(shas);
    }
    if (pool.holder !== this || engine.randomState?.() !== this.random) engine.restoreRandomState?.(this.random);
    pool.holder = this;
    const result = engine.execute(argv, host);
    this.report = engine.lastRun?.() ?? null;
    this.random = engine.randomState?.() ?? this.random;
    if (isEval) {
      // A script that ran was compiled and cached (even if it then failed); one that did not compile was not.
      if (this.report !== null && !Object.hasOwn(this.cache, this.report.sha)) {
        this.cache = sortedCache({ ...this.cache, [this.report.sha]: argv[1] });
        pool.shas.add(this.report.sha);
      }
    } else {
      this.cache = engine.cachedScripts();
      pool.shas = new Set(Object.keys(this.cache));
    }
    return result;
  }

  cachedScripts(): Record<string, string> {
    return { ...this.cache };
  }

  restoreCache(scripts: Record<string, string>): void {
    this.cache = sortedCache(scripts);
  }

  lastRun(): ScriptRunReport | null {
    return this.report;
  }

  randomState(): string {
    return this.random;
  }

  restoreRandomState(state: string): void {
    this.random = state;
  }
}

function sortedCache(scripts: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sha of Object.keys(scripts).sort()) out[sha] = scripts[sha];
  return out;
}

/** A script engine for one server, backed by the realm's shared Lua engine (a `createScriptEngine`). */
export function sharedScriptEngine(): ScriptEngine {
  return new ScriptEngineLoan();
}

/** A script's compile-time error: Redis's text, and the source line it names (1-based) when it names one. */
export interface ScriptSyntaxProblem {
  readonly message: string;
  readonly line: number | null;
}

/** The source line an error from a script names (`user_script:3: ...`, compile or run time), or null. */
export function scriptErrorLine(message: string): number | null {
  const match = /user_script:(\d+):/.exec(message);
  return match ? Number(match[1]) : null;
}

/**
 * What EVAL would answer at compile time for `source` (the engine's Lua 5.1 parser, Redis's
 * shebang rules), or null if it compiles: nothing runs and nothing is cached.
 */
export function scriptSyntaxProblem(source: string): ScriptSyntaxProblem | null {
  const message = theLender().engine.syntaxError(source);
  return message === null ? null : { message, line: scriptErrorLine(message) };
}
