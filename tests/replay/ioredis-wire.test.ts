/**
 * Goal: Lockstep's ioredis-compatible client puts on the wire what ioredis 5.11.1 puts there, and
 * hands the code the replies ioredis hands it. One piece of client code (a small lock library
 * written against ioredis, and a workout of the forms lock code uses: SET NX PX, defineCommand
 * with and without numberOfKeys, a pipeline, multi() chained, from an array and with
 * pipeline: false, errors inside them, a callback call, EVAL then EVALSHA, SCRIPT LOAD and FLUSH,
 * Buffers, duplicate() and quit()) runs twice:
 * (1) on a real ioredis against a private redis-server, while another connection records MONITOR;
 * (2) under Lockstep's `simulate`, with a schedule that steps it to the end.
 * The command streams (name and arguments, in order, each labelled with its connection) and the
 * values the code saw must be equal.
 *
 * Left out of the real stream, and why: commands Redis's Lua runs (MONITOR's `lua` source: Lockstep
 * records the script's command, not its calls), and ioredis's connect handshake on duplicate()'s
 * new connection (`info`, its ready check, and `client` SETINFO/SETNAME, which Redis 7.0 refuses
 * before they run): Lockstep connects before the run, so its connections have no handshake. The
 * first connection and the monitor connect before MONITOR starts recording.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulate, type LockstepRedis } from '../../src/api';
import { AsyncRun } from '../../src/api/async/run';
import { resolveScenario } from '../../src/api/source';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';

const RELEASE = 'if redis.call("get", KEYS[1]) == ARGV[1] then\n  return redis.call("del", KEYS[1])\nelse\n  return 0\nend';
const EXTEND = 'if redis.call("get", KEYS[1]) == ARGV[1] then\n  return redis.call("pexpire", KEYS[1], ARGV[2])\nelse\n  return 0\nend';
const PEEK = 'return redis.call("get", KEYS[1])';

/** A small lock library written against ioredis (the release declares its key count; the extend, as @sesamecare-oss/redlock does, does not). */
class WireLock {
  constructor(
    private readonly redis: LockstepRedis,
    private readonly key: string,
  ) {
    redis.defineCommand('wireRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('wireExtend', { lua: EXTEND });
  }
  acquire(token: string, ttlMs: number): Promise<unknown> {
    return this.redis.set(this.key, token, 'NX', 'PX', ttlMs);
  }
  extend(token: string, ttlMs: number): Promise<unknown> {
    return this.redis.wireExtend(1, this.key, token, ttlMs);
  }
  release(token: string): Promise<unknown> {
    return this.redis.wireRelease(this.key, token);
  }
}

/** The client code both runs execute; `out` gets every value the code saw. */
async function workout(redis: LockstepRedis, out: unknown[]): Promise<void> {
  const lock = new WireLock(redis, 'lock');
  out.push(redis.status, redis.isCluster, redis.options.keyPrefix);
  out.push(await lock.acquire('t1', 5000));
  out.push(await lock.acquire('t2', 5000));
  out.push(await redis.get('lock'));
  out.push(await lock.extend('t1', 8000));
  out.push(await lock.extend('t1', 9000));
  out.push(await lock.extend('t2', 9000));
  const pipeline = redis.pipeline().get('lock').incr('lock').hset('h', { a: 1, b: 'two' }).mset({ m1: 'x', m2: 2 }).del(['m1', 'm2']).wireExtend(1, 'lock', 't1', 9500);
  out.push(pipeline.length, await pipeline.exec());
  const multi = redis.multi().get('lock').hgetall('h').incr('lock').exists('lock', 'h');
  out.push(multi.length, await multi.exec());
  out.push(await redis.multi([['set', 'n', 1.5], ['incrbyfloat', 'n', '0.25'], ['hmset', 'h2', new Map([['k', 'v']])]]).exec());
  out.push(await new Promise((resolve) => void redis.get('lock', (error: Error | null, value?: unknown) => resolve([error, value]))));
  out.push(await new Promise((resolve) => void redis.incr('lock', (error: Error | null) => resolve(error))));
  out.push(await redis.eval(PEEK, 1, 'lock'));
  out.push(await redis.evalsha(createHash('sha1').update(PEEK).digest('hex'), 1, 'lock'));
  out.push(await redis.script('LOAD', RELEASE));
  out.push(await redis.multi({ pipeline: false }));
  out.push(await redis.set('tx', 'v'));
  out.push(await redis.incr('tx'));
  out.push(await redis.exec());
  out.push(await redis.set(Buffer.from('buf'), Buffer.from('bytes')));
  out.push(await redis.getBuffer('buf'));
  out.push(await redis.call('SET', 'upper', 1, 'PX', 5000));
  out.push(await redis.rpush('list', ['a', 'b'], 'c', 7));
  out.push(await redis.lrange('list', 0, -1));
  out.push(await redis.incr('lock').catch((error: unknown) => error));
  const other = redis.duplicate();
  const otherLock = new WireLock(other, 'lock');
  out.push(await other.get('lock'));
  out.push(await otherLock.extend('t1', 7000));
  out.push(await otherLock.release('t1'));
  out.push(await other.quit());
  out.push(await lock.release('t1'));
  out.push(await lock.acquire('t3', 5000));
  out.push(await redis.script('FLUSH'));
  out.push(await lock.release('t3'));
  out.push(await lock.release('t3'));
}

/** A value as plain data: errors with their name, text and the command ioredis attached; Buffers as hex. */
function plain(value: unknown): unknown {
  if (value instanceof Error) {
    const e = value as Error & { command?: unknown; previousErrors?: Error[] };
    return { error: e.name, message: e.message, command: e.command ?? null, ...(e.previousErrors ? { previousErrors: e.previousErrors.map(plain) } : {}) };
  }
  if (Buffer.isBuffer(value)) return { buffer: value.toString('hex') };
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

interface WireCommand {
  readonly connection: string;
  readonly argv: readonly string[];
}

const HANDSHAKE = new Set(['info', 'client']);

let server: RealRedis;

beforeAll(async () => {
  server = await startRealRedis();
});

afterAll(async () => {
  await server?.stop();
});

/**
 * One MONITOR line (`1733300000.123456 [0 127.0.0.1:54321] "get" "k"`): its source and its
 * arguments, unescaped from Redis's sdscatrepr quoting (`\n`, `\"`, `\xHH`, ...).
 */
function monitorLine(line: string): { source: string; args: string[] } {
  const open = line.indexOf('[');
  const close = line.indexOf(']', open);
  const source = line.slice(open + 1, close).split(' ')[1];
  const args: string[] = [];
  const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b', '"': '"', '\\': '\\' };
  let i = close + 1;
  while (i < line.length) {
    if (line[i] !== '"') {
      i += 1;
      continue;
    }
    let arg = '';
    for (i += 1; i < line.length && line[i] !== '"'; i++) {
      if (line[i] !== '\\') {
        arg += line[i];
      } else if (line[i + 1] === 'x') {
        arg += String.fromCharCode(parseInt(line.slice(i + 2, i + 4), 16));
        i += 3;
      } else {
        arg += escapes[line[i + 1]] ?? line[i + 1];
        i += 1;
      }
    }
    args.push(arg);
    i += 1;
  }
  return { source, args };
}

async function realRun(): Promise<{ wire: WireCommand[]; handshake: WireCommand[]; seen: unknown[] }> {
  const redis = new Redis({ port: server.port, host: '127.0.0.1' });
  await new Promise((resolve) => redis.once('ready', resolve));
  // Each run starts from an empty server, as each simulated run does (before MONITOR: not recorded).
  await redis.flushall();
  const monitor = await RespClient.connect(server.port);
  expect(await monitor.send(['MONITOR'])).toEqual({ type: 'status', value: 'OK' });
  const seen: unknown[] = [];
  const lines: { source: string; args: string[] }[] = [];
  try {
    await workout(redis as unknown as LockstepRedis, seen);
    // The monitor's own ECHO closes the record: every line before it has arrived.
    monitor.write(['ECHO', 'end-of-run']);
    for (let n = 0; n < 1000; n++) {
      const reply = await monitor.read(5000);
      if (reply.type !== 'status') continue;
      const line = monitorLine(reply.value);
      if (line.args[0] === 'ECHO' && line.args[1] === 'end-of-run') break;
      lines.push(line);
    }
  } finally {
    await monitor.close();
    redis.disconnect();
  }
  const labels = new Map<string, string>();
  const wire: WireCommand[] = [];
  const handshake: WireCommand[] = [];
  for (const { source, args } of lines) {
    if (source === 'lua') continue;
    if (!labels.has(source)) labels.set(source, labels.size === 0 ? 'own' : `dup${labels.size}`);
    const command = { connection: labels.get(source) as string, argv: args };
    (HANDSHAKE.has(args[0].toLowerCase()) ? handshake : wire).push(command);
  }
  return { wire, handshake, seen };
}

/** Steps the client to its end (each step: one command), and reads each command's connection from its action log. */
async function lockstepRun(redisClient: 'lockstep' | 'ioredis'): Promise<{ wire: WireCommand[]; seen: unknown[]; schedule: string }> {
  const seen: unknown[] = [];
  const clients = { A: (redis: LockstepRedis) => workout(redis, seen) };
  const run = new AsyncRun(resolveScenario(undefined, undefined, true), { variantId: 'async', seed: 1, clients, redisClient });
  for (let i = 0; i < 200 && run.sim.refusal({ kind: 'step', clientId: 'A' }) === null; i++) await run.apply({ kind: 'step', clientId: 'A' });
  await run.finish();
  const log = run.sim.ctx.programs.A;
  const wire = run.sim.trace().events.flatMap((e) => {
    if (e.kind !== 'command') return [];
    const step = log[e.pc];
    return [{ connection: step.op === 'command' && step.connection !== undefined ? step.connection : 'own', argv: e.argv }];
  });
  // The same run through the public API: the same schedule gives the same trace and the same values.
  const viaApi: unknown[] = [];
  const result = await simulate({ clients: { A: (redis) => workout(redis, viaApi) }, schedule: run.sim.schedule, redisClient });
  expect(result.trace.events).toEqual(run.sim.trace().events);
  expect(plain(viaApi)).toEqual(plain(seen));
  return { wire, seen, schedule: run.sim.schedule };
}

describe.each(['lockstep', 'ioredis'] as const)('the wire: the %s client in Lockstep against ioredis 5.11.1 on a real redis-server', (redisClient) => {
  it('sends the same commands on the same connections, and the code sees the same values', async () => {
    const real = await realRun();
    const sim = await lockstepRun(redisClient);
    expect(sim.wire.map((c) => `${c.connection}: ${c.argv.join(' ')}`)).toEqual(real.wire.map((c) => `${c.connection}: ${c.argv.join(' ')}`));
    expect(plain(sim.seen)).toEqual(plain(real.seen));
    // The filter hides only duplicate()'s connect handshake: one INFO (the ready check) on the new connection.
    expect(real.handshake).toEqual([{ connection: 'dup1', argv: ['info'] }]);
    // What the stream must contain for the comparison to mean something.
    const names = real.wire.map((c) => `${c.connection} ${c.argv[0]}`);
    expect(names.filter((n) => n === 'own eval').length).toBeGreaterThanOrEqual(3);
    expect(names).toContain('own evalsha');
    expect(names).toContain('dup1 eval');
    expect(names).toContain('dup1 quit');
    expect(names).toContain('own multi');
    expect(real.wire.some((c) => c.argv.join(' ') === 'wireExtend')).toBe(false);
    expect(real.wire.find((c) => c.argv[0] === 'hset')?.argv).toEqual(['hset', 'h', 'a', '1', 'b', 'two']);
  });
});
