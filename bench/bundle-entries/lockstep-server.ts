// Entry for bench/bundle.bench.ts: everything the page needs for its in-memory Redis.
export { SimRedisServer } from '../../src/engine/redis/server';
