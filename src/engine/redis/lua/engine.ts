import { reply, type Reply } from '../reply';
import type { ScriptEngine, ScriptHost, ScriptRunReport } from '../script-engine';
import { BudgetExceeded, budgetErrorMessage, defaultScriptLimits, ScriptBudget, setActiveBudget, workPrices, type BudgetKind, type ScriptLimits } from './budget';
import { luaToReply, pushErrorTable, pushReply, redisErrorText } from './convert';
import { openBitLibrary } from './bit';
import { openCjsonLibrary, type CjsonLibrary } from './cjson';
import { openCmsgpackLibrary } from './cmsgpack';
import { jsText, lauxlib, lua as luaApi, luaBytes, raiseError, type LuaState } from './fengari-api';
import { measureHeap } from './heap';
import {
  installLua51Semantics,
  lua51Escapes,
  lua51SyntaxMessage,
  protectRecursively,
  runError,
  setActiveRun,
  type RunHooks,
} from './lua51';
import { installMetering } from './metering';
import { setActiveTimeMeter, VirtualTimeMeter } from './timing';
import { formatArgumentNumber } from './numbers';
import { Rand48 } from './rand48';
import { callFailure, checkScriptCall, defineErrorHandlerGlobal, KEYSPACE_WALKS, parseNumkeys, raiseRedisError, replyHelper, setGlobalArrays } from './script-calls';
import { scriptCommand, type ScriptCache } from './script-command';
import { parseShebang } from './shebang';
import { sha1Hex, sha1HexBytes } from './sha1';
import { openStructLibrary } from './struct';
import { openStandardLibraries, setFunctions } from './stdlib';

// A module-local reference: calls through it skip the import binding on hot paths.
const lua = luaApi;

/** The count hook fires every this many instructions: often enough to stop promptly, rarely enough to cost nothing. */
export const hookInstructionStep = 1_000;

export interface LuaScriptEngineOptions {
  /** Overrides parts of `defaultScriptLimits` (tests use small budgets). */
  readonly limits?: Partial<ScriptLimits>;
}

const CJSON_STATE_SEPARATOR = '|cjson:';

/**
 * The report of one run. `instructionCount` is the measure busy.ts turns into virtual time
 * (timing.ts: VM instructions and a few weights, unchanged by the work budget); `workUnits` is
 * everything the work budget charged (budget.ts). `killed`: a budget stopped the script.
 */
export interface LuaRunReport extends ScriptRunReport {
  readonly workUnits: number;
}

/** Stack slots the engine keeps on the main Lua thread for its whole life. */
const SLOT_ERROR_HANDLER = 1;
const SLOT_FUNCTIONS = 2;

/** What `redis.REDIS_VERSION` reports: the version Lockstep's semantics were checked against. */
const REDIS_VERSION = '7.0.15';
const REDIS_VERSION_NUM = 0x07000f;

const NOSCRIPT = 'NOSCRIPT No matching script. Please use EVAL.';

/** What the message handler learned about an error (Redis's __redis__err__handler). */
interface ScriptError {
  readonly message: string;
  readonly source: string | null;
  readonly line: number | null;
}

interface CachedScript {
  readonly source: string;
  /** Index of the compiled function in the functions table. */
  readonly slot: number;
  /** The script's shebang flags (`#!lua flags=...`), or null for an old-style script. */
  readonly flags: ReadonlySet<string> | null;
}

/** Flags Redis 7.0 accepts in an EVAL script's shebang (scripts_flags_def). */
/** Per-run state: which host answers redis.call, and what the script did so far. */
class RunState implements RunHooks {
  wroteDataset = false;
  /** What the script's virtual duration is made of (timing.ts, busy.ts). */
  readonly time = new VirtualTimeMeter();
  /** A call went deeper than Lua 5.1 allows: the next instruction raises "stack overflow". */
  overflowPending = false;

  constructor(
    readonly engine: LuaScriptEngine,
    readonly host: ScriptHost,
    readonly readOnly: boolean,
    readonly budget: ScriptBudget,
  ) {}

  tooDeep(L: LuaState): void {
    this.overflowPending = true;
    this.engine.raiseSoon(L);
  }
}

/**
 * Redis 7.0 scripting (EVAL, EVAL_RO, EVALSHA, EVALSHA_RO, SCRIPT) on one persistent fengari
 * state per server, built on first use.
 *
 * - Scripts compile once and are cached by SHA1 (sha1.ts, pure TS); EVAL of a known source skips
 *   even the hashing. The cache is part of the server's snapshot.
 * - redis.call / redis.pcall run synchronously through ScriptHost.call at the frozen `nowMs`.
 * - Values convert both ways by Redis's rules (convert.ts); errors are shaped as Redis 7.0 shapes
 *   them ("... script: <sha>, on @user_script:<line>.").
 * - The language is Lua 5.1 as Redis embeds it, not fengari's 5.3 (lua51.ts, stdlib.ts), with
 *   Redis's read-only globals and its libraries: cjson, bit, struct, cmsgpack.
 * - Every script runs on a work and a memory budget (budget.ts): Lua instructions and what is
 *   done on the script's behalf (metering.ts, the libraries, reply conversion, redis.call). A
 *   script over budget ends with an error saying which budget ran out; the state stays usable.
 *   `lastRun()` reports the work done, which the server maps to virtual time (busy.ts).
 */
export class LuaScriptEngine implements ScriptEngine {
  private state: LuaState | null = null;
  private readonly scripts = new Map<string, CachedScript>();
  /** Source -> cached script: EVAL of a known source skips hashing it (Redis hashes every time; the answer is the same). */
  private readonly scriptsBySource = new Map<string, { sha: string; script: CachedScript }>();
  private readonly hook = (L: LuaState) => this.countHook(L);
  private nextSlot = 1;
  private run: RunState | null = null;
  private lastReport: LuaRunReport | null = null;
  private readonly limits: ScriptLimits;
  private readonly random = new Rand48();
  private cjson: CjsonLibrary | null = null;

  constructor(options: LuaScriptEngineOptions = {}) {
    this.limits = { ...defaultScriptLimits, ...options.limits };
  }

  /**
   * The Lua state, built on first use: a server that never runs a script (most Redlock nodes,
   * explorer copies) pays nothing for it.
   */
  private get L(): LuaState {
    return this.state ?? this.buildState();
  }

  private buildState(): LuaState {
    installLua51Semantics();
    installMetering();
    const L = lauxlib.luaL_newstate();
    this.state = L;
    this.buildEnvironment();
    lua.lua_settop(L, 0);
    lua.lua_pushjsfunction(L, (state) => this.errorHandler(state));
    lua.lua_createtable(L, 0, 0);
    return L;
  }

  execute(argv: readonly string[], host: ScriptHost): Reply {
    this.lastReport = null;
    const name = argv[0].toLowerCase();
    switch (name) {
      case 'eval':
      case 'eval_ro':
      case 'evalsha':
      case 'evalsha_ro':
        return this.evalCommand(name, argv, host);
      case 'script':
        return scriptCommand(this.scriptCache(), argv);
      default:
        return reply.error(`ERR unknown command '${argv[0]}'`);
    }
  }

  cachedScripts(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const sha of [...this.scripts.keys()].sort()) out[sha] = (this.scripts.get(sha) as CachedScript).source;
    return out;
  }

  restoreCache(scripts: Record<string, string>): void {
    if (this.state === null && Object.keys(scripts).length === 0) return;
    this.flush();
    for (const sha of Object.keys(scripts).sort()) {
      const compiled = this.compile(scripts[sha]);
      if (typeof compiled === 'string') throw new Error(`restoreCache: cached script ${sha} no longer compiles: ${compiled}`);
    }
  }

  /** What the EVAL/EVALSHA just executed did: instructions run, whether it wrote, whether a budget stopped it, its work. */
  lastRun(): LuaRunReport | null {
    return this.lastReport;
  }

  /**
   * The state scripts leave behind for later scripts: math.random's generator and, when a script
   * changed it, cjson's configuration (`<rand48>|cjson:<json>`), so a restored snapshot replays
   * exactly. With the default configuration the text is the generator's alone.
   */
  randomState(): string {
    const cjson = this.cjson?.save() ?? null;
    return cjson === null ? this.random.save() : `${this.random.save()}${CJSON_STATE_SEPARATOR}${cjson}`;
  }

  restoreRandomState(state: string): void {
    const at = state.indexOf(CJSON_STATE_SEPARATOR);
    this.random.restore(at < 0 ? state : state.slice(0, at));
    const cjson = at < 0 ? null : state.slice(at + CJSON_STATE_SEPARATOR.length);
    // A changed configuration needs the library, so the state is built for it.
    if (cjson !== null && this.state === null) this.buildState();
    this.cjson?.restore(cjson);
  }

  // ---------------------------------------------------------------- commands

  private evalCommand(name: string, argv: readonly string[], host: ScriptHost): Reply {
    if (argv.length < 3) return reply.error(`ERR wrong number of arguments for '${name}' command`);
    const numkeys = parseNumkeys(argv[2]);
    if (numkeys === null) return reply.error('ERR value is not an integer or out of range');
    if (numkeys > argv.length - 3) return reply.error("ERR Number of keys can't be greater than number of args");
    if (numkeys < 0) return reply.error("ERR Number of keys can't be negative");
    let sha: string;
    let script: CachedScript | undefined;
    if (name === 'eval' || name === 'eval_ro') {
      const known = this.scriptsBySource.get(argv[1]);
      if (known) {
        sha = known.sha;
        script = known.script;
      } else {
        sha = sha1Hex(argv[1]);
        script = this.scripts.get(sha);
        if (!script) {
          const compiled = this.compile(argv[1], sha);
          if (typeof compiled === 'string') return reply.error(compiled);
          script = compiled;
        }
      }
    } else {
      sha = argv[1].toLowerCase();
      script = sha.length === 40 ? this.scripts.get(sha) : undefined;
      if (!script) return reply.error(NOSCRIPT);
    }
    const keys = argv.slice(3, 3 + numkeys);
    const args = argv.slice(3 + numkeys);
    const readOnlyCommand = name.endsWith('_ro');
    // A script with a shebang declares whether it writes; an old-style one is checked per call.
    if (readOnlyCommand && script.flags !== null && !script.flags.has('no-writes')) {
      return reply.error('ERR Can not execute a script with write flag using *_ro command.');
    }
    if (host.clusterMode === true && script.flags?.has('no-cluster') === true) return reply.error("ERR Can not run script on cluster, 'no-cluster' flag is set.");
    return this.runScript(script, sha, keys, args, host, readOnlyCommand || script.flags?.has('no-writes') === true);
  }

  /** What SCRIPT's subcommands reach of the script cache. */
  private scriptCache(): ScriptCache {
    return {
      has: (sha) => this.scripts.has(sha),
      load: (source, sha) => {
        const compiled = this.compile(source, sha);
        return typeof compiled === 'string' ? compiled : null;
      },
      flush: () => this.flush(),
    };
  }

  // ---------------------------------------------------------------- compile and run

  /**
   * The error EVAL would answer for `source` at compile time (a bad shebang or a Lua syntax
   * error, `... user_script:3: ...`), or null if it compiles. Caches nothing and runs nothing:
   * an editor checks a script before any client runs it.
   */
  syntaxError(source: string): string | null {
    const loaded = this.load(source);
    if (typeof loaded === 'string') return loaded;
    lua.lua_pop(this.L, 1);
    return null;
  }

  /** Compiles `source` onto the stack (its flags returned), or the Redis error text. */
  private load(source: string): { flags: CachedScript['flags'] } | string {
    const L = this.L;
    const shebang = parseShebang(source);
    if (typeof shebang === 'string') return shebang;
    const bytes = lua51Escapes(luaBytes(source.slice(shebang.length)));
    const status = lauxlib.luaL_loadbufferx(L, bytes, bytes.length, '@user_script', 't');
    if (status !== lua.LUA_OK) {
      const message = lua.lua_type(L, -1) === lua.LUA_TSTRING ? jsText(lua.lua_tostring(L, -1) as Uint8Array) : 'unknown error';
      lua.lua_pop(L, 1);
      return `ERR Error compiling script (new function): ${lua51SyntaxMessage(message)}`;
    }
    return { flags: shebang.flags };
  }

  /** Compiles and caches `source`; returns the Redis error text on a syntax error. */
  private compile(source: string, sha = sha1Hex(source)): CachedScript | string {
    const L = this.L;
    const loaded = this.load(source);
    if (typeof loaded === 'string') return loaded;
    const slot = this.nextSlot++;
    lua.lua_rawseti(L, SLOT_FUNCTIONS, slot);
    const script: CachedScript = { source, slot, flags: loaded.flags };
    this.scripts.set(sha, script);
    this.scriptsBySource.set(source, { sha, script });
    return script;
  }

  /** SCRIPT FLUSH: Redis 7.0 builds a fresh Lua state, so cjson's configuration is back to its defaults too. */
  private flush(): void {
    this.cjson?.reset();
    this.scripts.clear();
    this.scriptsBySource.clear();
    this.nextSlot = 1;
    lua.lua_createtable(this.L, 0, 0);
    lua.lua_replace(this.L, SLOT_FUNCTIONS);
  }

  private runScript(script: CachedScript, sha: string, keys: readonly string[], args: readonly string[], host: ScriptHost, readOnly: boolean): Reply {
    const L = this.L;
    const budget = new ScriptBudget(this.limits);
    budget.raise = (state, kind) => this.raiseBudget(state, kind);
    const skip = new Set([lua.lua_topointer(L, SLOT_FUNCTIONS)]);
    budget.measureHeap = () => measureHeap(L, skip);
    const run = new RunState(this, host, readOnly, budget);
    this.run = run;
    setGlobalArrays(L, keys, args);
    lua.lua_rawgeti(L, SLOT_FUNCTIONS, script.slot);
    lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, hookInstructionStep);
    setActiveRun(L, run);
    setActiveBudget(budget);
    setActiveTimeMeter(run.time);
    let result: Reply;
    try {
      const status = lua.lua_pcall(L, 0, 1, SLOT_ERROR_HANDLER);
      if (status !== lua.LUA_OK) result = reply.error(this.errorReplyText(sha));
      // An overrun recorded in the script's last instructions, after the hook's last look.
      else if (budget.exceeded !== null) result = reply.error(budgetErrorMessage(budget.exceeded, this.limits));
      else result = this.convertResult(budget);
      lua.lua_settop(L, SLOT_FUNCTIONS);
    } finally {
      lua.lua_sethook(L, null, 0, 0);
      setActiveRun(null, null);
      setActiveBudget(null);
      setActiveTimeMeter(null);
      this.run = null;
      this.lastReport = {
        sha,
        instructionCount: run.time.units,
        wroteDataset: run.wroteDataset,
        killed: budget.exceeded !== null,
        workUnits: Math.round(budget.units),
      };
    }
    return result;
  }

  /** The script's return value as a reply; its conversion is charged to the script's budget. */
  private convertResult(budget: ScriptBudget): Reply {
    // The script has returned: an overrun now ends the conversion, not a Lua function.
    budget.raise = (_L, kind) => {
      throw new BudgetExceeded(kind);
    };
    try {
      return luaToReply(this.L, budget);
    } catch (error) {
      if (!(error instanceof BudgetExceeded)) throw error;
      return reply.error(`${budgetErrorMessage(error.kind, this.limits)} (while converting the script's return value)`);
    }
  }

  /** Turns the value the message handler left on the stack into Redis 7.0's error reply text. */
  private errorReplyText(sha: string): string {
    const L = this.L;
    const info = lua.lua_touserdata(L, -1) as ScriptError | null;
    if (info === null || typeof info !== 'object') {
      // The handler itself failed (LUA_ERRERR) or memory ran out: Redis's generic form.
      const text = lua.lua_type(L, -1) === lua.LUA_TSTRING ? jsText(lua.lua_tostring(L, -1) as Uint8Array) : 'execution failure';
      return `ERR Error running script f_${sha}, ${text.slice(0, 100)}`;
    }
    const message = info.message.replace(/[\r\n]/g, ' ');
    if (info.source !== null && info.line !== null) return `${message} script: ${sha}, on ${info.source}:${info.line}.`;
    return message;
  }

  /**
   * Message handler for the top-level pcall, Redis's __redis__err__handler in JS: a string error
   * becomes "ERR <text>", an {err=...} table keeps its text; both get the source and line of the
   * Lua function that raised it (skipping a C function such as `error` or `redis.call`).
   */
  private errorHandler(L: LuaState): number {
    let message: string;
    if (lua.lua_type(L, 1) === lua.LUA_TTABLE) {
      lua.lua_getfield(L, 1, 'err');
      message = lua.lua_isstring(L, -1) ? jsText(lua.lua_tostring(L, -1) as Uint8Array) : '(null)';
      lua.lua_pop(L, 1);
    } else {
      message = `ERR ${jsText(lauxlib.luaL_tolstring(L, 1))}`;
      lua.lua_pop(L, 1);
    }
    let source: string | null = null;
    let line: number | null = null;
    const ar = new lua.lua_Debug();
    if (lua.lua_getstack(L, 1, ar)) {
      lua.lua_getinfo(L, 'Sl', ar);
      // fengari names native (JS) functions 'J' where C Lua says 'C'.
      if (ar.what !== null && ['C', 'J'].includes(jsText(ar.what))) {
        if (!lua.lua_getstack(L, 2, ar)) ar.source = null;
        else lua.lua_getinfo(L, 'Sl', ar);
      }
      if (ar.source !== null) {
        source = jsText(ar.source);
        line = ar.currentline;
      }
    }
    const info: ScriptError = { message, source, line };
    lua.lua_pushlightuserdata(L, info);
    return 1;
  }

  private countHook(L: LuaState): void {
    const run = this.run;
    if (run === null) return;
    const budget = run.budget;
    if (budget.exceeded !== null) {
      run.time.units += 1;
      budget.raiseNow(L);
    }
    if (run.overflowPending) {
      run.overflowPending = false;
      lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, hookInstructionStep);
      runError(L, 'stack overflow');
    }
    run.time.units += hookInstructionStep;
    budget.charge(L, hookInstructionStep);
  }

  /** Makes the count hook fire on the very next instruction (for a pending "stack overflow"). */
  raiseSoon(L: LuaState): void {
    lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, 1);
  }

  /** Ends the running script: raises the budget error now, and (through the hook) on every later instruction. */
  private raiseBudget(L: LuaState, kind: BudgetKind): never {
    // Every later instruction raises again, on this coroutine and on the main thread, so a pcall
    // inside the script cannot swallow the error.
    lua.lua_sethook(L, this.hook, lua.LUA_MASKCOUNT, 1);
    if (this.state !== null && L !== this.state) lua.lua_sethook(this.state, this.hook, lua.LUA_MASKCOUNT, 1);
    // Raised from the count hook, fengari has turned hooks off until the hook returns, which it
    // never does: a message handler (xpcall) would then run unhooked, so a looping one forever.
    (L as unknown as { allowhook: number }).allowhook = 1;
    // The error may come from inside a VM instruction (a charged table write or string), where
    // the frame has no free slot: make room for the error table first.
    lua.lua_checkstack(L, 4);
    pushErrorTable(L, budgetErrorMessage(kind, this.limits));
    return lua.lua_error(L);
  }

  // ---------------------------------------------------------------- environment

  /**
   * Builds the script environment once, like Redis's scriptingInit: libraries, the `redis`
   * table, a globals metatable that refuses reads of undefined names, then every table reachable
   * from the globals made read-only.
   */
  private buildEnvironment(): void {
    const L = this.L;
    openStandardLibraries(L, this.random);
    openBitLibrary(L);
    this.cjson = openCjsonLibrary(L);
    openStructLibrary(L);
    openCmsgpackLibrary(L);
    this.openRedisLibrary();
    defineErrorHandlerGlobal(L);
    lua.lua_pushglobaltable(L);
    lua.lua_createtable(L, 0, 1);
    lua.lua_pushjsfunction(L, (state) => {
      const name = lua.lua_type(state, 2) === lua.LUA_TSTRING || lua.lua_type(state, 2) === lua.LUA_TNUMBER ? jsText(lua.lua_tostring(state, 2) as Uint8Array) : '?';
      return raiseError(state, `Script attempted to access nonexistent global variable '${name}'`);
    });
    lua.lua_setfield(L, -2, '__index');
    lua.lua_setmetatable(L, -2);
    protectRecursively(L);
    lua.lua_pop(L, 1);
    // Strings share one metatable ({__index = string}); Redis protects it too, or a script could
    // stash data in it for the next script.
    lua.lua_pushstring(L, luaBytes(''));
    if (lua.lua_getmetatable(L, -1)) {
      protectRecursively(L);
      lua.lua_pop(L, 1);
    }
    lua.lua_pop(L, 1);
    // Library loaders registered their tables here; 5.1-style error names need it empty (stdlib.ts).
    lua.lua_createtable(L, 0, 0);
    lua.lua_setfield(L, lua.LUA_REGISTRYINDEX, '_LOADED');
    lua.lua_atnativeerror(L, (state) => {
      // A JS exception inside fengari (a bug, or the JS stack running out): a Lua error instead.
      const error = lua.lua_touserdata(state, 1);
      lua.lua_pushstring(state, luaBytes(error instanceof Error ? error.message : String(error)));
      return 1;
    });
  }

  private openRedisLibrary(): void {
    const L = this.L;
    lua.lua_createtable(L, 0, 32);
    const returnsNil = (state: LuaState) => {
      lua.lua_pushnil(state);
      return 1;
    };
    setFunctions(L, {
      call: (state) => this.redisCall(state, true),
      pcall: (state) => this.redisCall(state, false),
      error_reply: (state) => replyHelper(state, 'err'),
      status_reply: (state) => replyHelper(state, 'ok'),
      sha1hex: (state) => {
        if (lua.lua_gettop(state) !== 1) return raiseRedisError(state, 'wrong number of arguments');
        const bytes = lua.lua_tostring(state, 1);
        lua.lua_pushstring(state, sha1HexBytes(bytes ?? new Uint8Array()));
        return 1;
      },
      log: (state) => {
        if (lua.lua_gettop(state) < 2) return raiseRedisError(state, 'redis.log() requires two arguments or more.');
        if (lua.lua_type(state, 1) !== lua.LUA_TNUMBER) return raiseRedisError(state, 'First argument must be a number (log level).');
        const level = lua.lua_tonumber(state, 1);
        if (level < 0 || level > 3) return raiseRedisError(state, 'Invalid debug level.');
        // The simulated server keeps no log file: the message is dropped, as at a high loglevel.
        return 0;
      },
      setresp: (state) => {
        const version = lua.lua_gettop(state) === 1 ? lua.lua_tonumber(state, 1) : NaN;
        if (version !== 2 && version !== 3) return raiseRedisError(state, 'RESP version must be 2 or 3.');
        // Replies stay RESP2: Lockstep's clients speak RESP2 only.
        return 0;
      },
      set_repl: (state) => {
        if (lua.lua_gettop(state) !== 1) return raiseRedisError(state, 'redis.set_repl() requires two arguments.');
        const flags = lua.lua_tonumber(state, 1);
        if (!(flags >= 0 && flags <= 3)) return raiseRedisError(state, 'Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.');
        return 0;
      },
      replicate_commands: (state) => {
        lua.lua_pushboolean(state, true);
        return 1;
      },
      breakpoint: (state) => {
        lua.lua_pushboolean(state, false);
        return 1;
      },
      debug: returnsNil,
      acl_check_cmd: (state) => {
        if (lua.lua_gettop(state) < 1) return raiseRedisError(state, 'Please specify at least one argument for this redis lib call');
        const name = jsText(lua.lua_tostring(state, 1) ?? new Uint8Array()).toLowerCase();
        const info = this.run?.host.commandInfo?.(name);
        if (info === null) return raiseRedisError(state, 'Invalid command passed to redis.acl_check_cmd()');
        // Lockstep has no ACL users: the default user may run every command.
        lua.lua_pushboolean(state, true);
        return 1;
      },
    });
    const constants: Record<string, number> = {
      LOG_DEBUG: 0,
      LOG_VERBOSE: 1,
      LOG_NOTICE: 2,
      LOG_WARNING: 3,
      REPL_NONE: 0,
      REPL_AOF: 1,
      REPL_SLAVE: 2,
      REPL_REPLICA: 2,
      REPL_ALL: 3,
      REDIS_VERSION_NUM: REDIS_VERSION_NUM,
    };
    for (const [name, value] of Object.entries(constants)) {
      lua.lua_pushnumber(L, value);
      lua.lua_setfield(L, -2, name);
    }
    lua.lua_pushstring(L, luaBytes(REDIS_VERSION));
    lua.lua_setfield(L, -2, 'REDIS_VERSION');
    lua.lua_setglobal(L, 'redis');
  }

  /**
   * redis.call (raise = true) and redis.pcall: run one command through the host, synchronously.
   * Charged by what it moves: a base price, its arguments' bytes, its reply (pushReply), and for
   * a command that walks the whole keyspace (KEYS, FLUSHALL, ...) the number of keys.
   */
  private redisCall(L: LuaState, raise: boolean): number {
    const run = this.run;
    const argc = lua.lua_gettop(L);
    if (argc === 0) return callFailure(L, raise, 'ERR Please specify at least one argument for this redis lib call');
    const argv: string[] = new Array<string>(argc);
    let argumentBytes = 0;
    for (let i = 1; i <= argc; i++) {
      const t = lua.lua_type(L, i);
      if (t === lua.LUA_TSTRING) {
        const bytes = lua.lua_tostring(L, i) as Uint8Array;
        argumentBytes += bytes.length;
        argv[i - 1] = jsText(bytes);
      } else if (t === lua.LUA_TNUMBER) argv[i - 1] = formatArgumentNumber(lua.lua_tonumber(L, i));
      else return callFailure(L, raise, 'ERR Lua redis lib command arguments must be strings or integers');
    }
    if (run === null) return callFailure(L, raise, 'ERR redis.call is only available while a script runs');
    const name = argv[0].toLowerCase();
    const keyspaceWalk = KEYSPACE_WALKS.has(name) ? (run.host.keyCount?.() ?? 0) : 0;
    run.budget.charge(L, workPrices.redisCall + argumentBytes / workPrices.bytesPerUnitCopied + keyspaceWalk);
    const info = run.host.commandInfo ? run.host.commandInfo(name) : undefined;
    if (info !== undefined) {
      const refusal = checkScriptCall(info, argv.length, run.readOnly) ?? (info === null ? null : (run.host.clusterCheck?.(argv) ?? null));
      if (refusal !== null) return callFailure(L, raise, refusal);
    }
    const result = run.host.call(argv);
    if (info?.write && result.type !== 'error') run.wroteDataset = true;
    if (result.type === 'error') return callFailure(L, raise, redisErrorText(`-${result.value}`));
    pushReply(L, result, run.budget);
    return 1;
  }
}


/** A Lua script engine with Redis 7.0 semantics, for one simulated server. */
export function createLuaScriptEngine(options: LuaScriptEngineOptions = {}): LuaScriptEngine {
  return new LuaScriptEngine(options);
}
