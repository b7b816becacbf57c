// ioredis-mock 8.13.1 in a worker thread, for the fidelity baseline (ioredis-mock.ts). Some inputs
// never finish in the mock (a KEYS pattern that backtracks without end); in a worker, the caller
// can stop it after a timeout and count the case as a mismatch instead of hanging.
//
// Messages in: { type: 'reset' } starts a fresh keyspace; { type: 'run', connection, argv } runs
// one command. Out: { reply, pushes } for each run, { ready: true } after a reset.
import { parentPort } from 'node:worker_threads';
import RedisMock from 'ioredis-mock';

const STATUS_WORDS = ['OK', 'PONG', 'QUEUED', 'RESET', 'string', 'hash', 'list', 'set', 'zset', 'none'];
let keyspaceCount = 0;
let host = '';
let connections = new Map();

function errorReply(error) {
  const message = error instanceof Error ? error.message : String(error);
  return { type: 'error', value: /^[A-Z]+ /.test(message) ? message : `ERR ${message}` };
}

function arrayOf(values) {
  return { type: 'array', value: values.map((value) => ({ type: 'bulk', value })) };
}

// The naive conversion a user of the library would make from its JS values.
function toReply(value) {
  if (value === null || value === undefined) return { type: 'nil' };
  if (typeof value === 'number') return Number.isInteger(value) ? { type: 'integer', value: String(value) } : { type: 'bulk', value: String(value) };
  if (typeof value === 'string') return STATUS_WORDS.includes(value) ? { type: 'status', value } : { type: 'bulk', value };
  if (value instanceof Uint8Array) return { type: 'bulk', value: new TextDecoder().decode(value) };
  if (Array.isArray(value)) return { type: 'array', value: value.map(toReply) };
  if (value instanceof Error) return errorReply(value);
  return { type: 'bulk', value: String(value) };
}

function connection(name) {
  let conn = connections.get(name);
  if (conn === undefined) {
    const redis = new RedisMock({ host, port: 6379, lazyConnect: false });
    const received = [];
    redis.on('message', (channel, message) => received.push(arrayOf(['message', channel, message])));
    redis.on('pmessage', (pattern, channel, message) => received.push(arrayOf(['pmessage', pattern, channel, message])));
    conn = { redis, received, multi: null };
    connections.set(name, conn);
  }
  return conn;
}

function isCommand(redis, name) {
  return Object.hasOwn(Object.getPrototypeOf(redis), name) || Object.hasOwn(redis, name);
}

async function run(name, argv) {
  const conn = connection(name);
  const command = argv[0].toLowerCase();
  const args = argv.slice(1);
  try {
    if (command === 'multi') {
      conn.multi = conn.redis.multi();
      return { type: 'status', value: 'OK' };
    }
    if (command === 'exec' && conn.multi !== null) {
      const results = await conn.multi.exec();
      conn.multi = null;
      return { type: 'array', value: results.map(([error, value]) => (error ? errorReply(error) : toReply(value))) };
    }
    if (conn.multi !== null) {
      if (typeof conn.multi[command] !== 'function') throw new Error(`ERR unknown command '${argv[0]}'`);
      conn.multi[command](...args);
      return { type: 'status', value: 'QUEUED' };
    }
    if (!isCommand(conn.redis, command) || typeof conn.redis[command] !== 'function') throw new Error(`ERR unknown command '${argv[0]}'`);
    return toReply(await conn.redis[command](...args));
  } catch (error) {
    return errorReply(error);
  }
}

parentPort.on('message', async (message) => {
  if (message.type === 'reset') {
    for (const { redis } of connections.values()) redis.disconnect();
    keyspaceCount += 1;
    host = `lockstep-baseline-${keyspaceCount}`;
    connections = new Map();
    parentPort.postMessage({ ready: true });
    return;
  }
  const reply = await run(message.connection, message.argv);
  // The mock emits messages on a later tick: let them arrive before reading them.
  await new Promise((resolve) => setImmediate(resolve));
  const pushes = {};
  for (const [other, state] of connections) if (state.received.length > 0) pushes[other] = state.received.splice(0);
  parentPort.postMessage({ reply, pushes });
});
