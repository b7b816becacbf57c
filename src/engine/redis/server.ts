import { COMMANDS, errors, type CommandContext } from './commands';
import { Keyspace, type KeyEntry, type KeyspaceSnapshot } from './keyspace';
import { reply, type Reply } from './reply';
import { createLuaScriptEngine } from './lua';
import { SCRIPT_COMMANDS, type ScriptCommandInfo, type ScriptEngine } from './script-engine';

export interface ServerSnapshot {
  readonly keyspace: KeyspaceSnapshot;
  /** sha1 -> source of cached scripts. */
  readonly scripts: Record<string, string>;
}

export interface ServerOptions {
  /** Builds the Lua engine for this server (default: Lockstep's fengari engine, `createLuaScriptEngine`). */
  readonly createScriptEngine?: () => ScriptEngine;
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

  constructor(options: ServerOptions = {}) {
    this.scripts = (options.createScriptEngine ?? createLuaScriptEngine)();
  }

  /** Executes one command (argv[0] is its name, any case) at virtual time `nowMs`. */
  execute(argv: readonly string[], nowMs: number): Reply {
    this.keyspace.expireDue(nowMs);
    return this.dispatch(argv, nowMs, false);
  }

  private dispatch(argv: readonly string[], nowMs: number, inScript: boolean): Reply {
    if (argv.length === 0) return reply.error('ERR empty command');
    const name = argv[0].toLowerCase();
    if (SCRIPT_COMMANDS.has(name)) {
      if (inScript) return reply.error('ERR This Redis command is not allowed from script');
      if (!this.scripts) return reply.error('ERR scripting is not available on this server');
      return this.scripts.execute(argv, { nowMs, call: (inner) => this.dispatch(inner, nowMs, true), commandInfo: scriptCommandInfo });
    }
    const spec = COMMANDS[name];
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
    return { keyspace: this.keyspace.snapshot(), scripts: this.scripts ? this.scripts.cachedScripts() : {} };
  }

  restore(snapshot: ServerSnapshot): void {
    this.keyspace.restore(snapshot.keyspace);
    this.scripts?.restoreCache(snapshot.scripts);
  }
}

/** The command table as scripts see it: scripting commands exist but are refused inside a script. */
function scriptCommandInfo(name: string): ScriptCommandInfo | null {
  if (SCRIPT_COMMANDS.has(name)) return { arity: name === 'script' ? -2 : -3, write: false, noScript: true };
  const spec = COMMANDS[name];
  return spec ? { arity: spec.arity, write: spec.write } : null;
}
