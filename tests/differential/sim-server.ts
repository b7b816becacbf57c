import { SimRedisServer } from '../../src/engine/redis/server';

/**
 * The simulated server under test, built as the application builds it. Scripting: once the Lua
 * engine (src/engine/redis/lua/) lands, it is wired here so the EVAL cases run against it.
 */
export function createSimServer(): SimRedisServer {
  return new SimRedisServer();
}
