import { expect } from 'vitest';
import { createLuaScriptEngine, type LuaScriptEngine } from '../../../src/engine/redis/lua';
import type { ScriptLimits } from '../../../src/engine/redis/lua/budget';
import { reply, type Reply } from '../../../src/engine/redis/reply';
import { SimRedisServer } from '../../../src/engine/redis/server';

/**
 * Small budgets for hostile-input tests: every runaway script ends within a few hundred
 * thousand units (milliseconds), so a test shows bounded-ness by the budget error, not by time.
 */
export const SMALL_LIMITS: ScriptLimits = { workUnitsMax: 300_000, memoryBytesMax: 4 * 1024 * 1024 };

export interface BudgetedServer {
  readonly server: SimRedisServer;
  readonly engine: LuaScriptEngine;
  eval(script: string, ...keysThenArgs: string[]): Reply;
}

export function budgetedServer(limits: Partial<ScriptLimits> = SMALL_LIMITS): BudgetedServer {
  const engine = createLuaScriptEngine({ limits });
  const server = new SimRedisServer({ createScriptEngine: () => engine });
  return { server, engine, eval: (script, ...rest) => server.execute(['EVAL', script, '0', ...rest], 0) };
}

export const WORK_ERROR = "ERR Script exceeded Lockstep's work budget";
export const MEMORY_ERROR = "ERR Script exceeded Lockstep's memory budget";

/** The reply is one of the two budget errors (and never claims a SCRIPT KILL nobody sent). */
export function expectBudgetError(result: Reply, kind?: 'work' | 'memory'): void {
  expect(result.type).toBe('error');
  const text = result.type === 'error' ? result.value : '';
  expect(text).not.toMatch(/SCRIPT KILL/);
  if (kind === 'work') expect(text.startsWith(WORK_ERROR)).toBe(true);
  else if (kind === 'memory') expect(text.startsWith(MEMORY_ERROR)).toBe(true);
  else expect(text.startsWith(WORK_ERROR) || text.startsWith(MEMORY_ERROR)).toBe(true);
}

/** After any script: the server answers PING, the next EVAL works, and the Lua state is intact. */
export function expectServerUsable(s: BudgetedServer): void {
  expect(s.server.execute(['PING'], 0)).toEqual(reply.status('PONG'));
  expect(s.eval('return 1')).toEqual(reply.integer(1));
  // Globals still protected, libraries in place, KEYS/ARGV set per call, string methods work.
  expect(s.eval('x = 1')).toMatchObject({ type: 'error' });
  expect(s.eval("return {type(cjson), type(cmsgpack), type(struct), type(bit), ARGV[1], ('ab'):upper()}", 'arg')).toEqual(
    reply.array([reply.bulk('table'), reply.bulk('table'), reply.bulk('table'), reply.bulk('table'), reply.bulk('arg'), reply.bulk('AB')]),
  );
  expect(s.eval("return redis.call('ping')")).toEqual(reply.status('PONG'));
}
