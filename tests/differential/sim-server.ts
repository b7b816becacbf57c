import { SimRedisServer } from '../../src/engine/redis/server';

/** The simulated server under test, built as the application builds it (with its Lua engine). */
export function createSimServer(): SimRedisServer {
  return new SimRedisServer();
}
