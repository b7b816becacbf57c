import { SimRedisServer, type ServerOptions } from '../../src/engine/redis/server';

/** The simulated server under test, built as the application builds it (with its Lua engine). */
export function createSimServer(options: ServerOptions = {}): SimRedisServer {
  return new SimRedisServer(options);
}
