import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { RespClient } from './resp-client';

/**
 * Starts a real redis-server (Debian's 7.0.x) for tests and benchmarks: one private process on a
 * free loopback port, no persistence, stopped by its pid. Throws a clear error when redis-server
 * is not installed: the differential suite must fail, never skip, on a machine without it.
 */
export interface RealRedis {
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

const START_ATTEMPT_COUNT_MAX = 5;
const READY_WAIT_MS_MAX = 10_000;
const READY_POLL_MS = 25;
const STOP_WAIT_MS_MAX = 5_000;

export const REDIS_NOT_INSTALLED =
  'redis-server is not installed (or not on PATH). Install Redis 7.0.x, e.g. `apt-get install -y redis-server` on Debian; .ci/run does this in CI.';

/**
 * Absolute path of redis-server, or null. LOCKSTEP_REDIS_SERVER names a binary explicitly (and
 * nothing else is tried); otherwise PATH, then Debian's /usr/bin (PATH may lack /usr/sbin).
 */
export function findRedisServer(): string | null {
  const explicit = process.env.LOCKSTEP_REDIS_SERVER;
  if (explicit !== undefined && explicit !== '') return isExecutable(explicit) ? explicit : null;
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin', '/usr/local/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, 'redis-server');
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `extraArgs`: more redis-server options, e.g. `['--cluster-enabled', 'yes']` (nodes.conf goes to the private --dir). */
export async function startRealRedis(extraArgs: readonly string[] = []): Promise<RealRedis> {
  const binary = findRedisServer();
  if (binary === null) throw new Error(REDIS_NOT_INSTALLED);
  let lastError: Error | null = null;
  // Another process may take the port between our probe and redis-server's bind: retry a few times.
  for (let attempt = 0; attempt < START_ATTEMPT_COUNT_MAX; attempt++) {
    const port = await freePort();
    try {
      return await startOn(binary, port, extraArgs);
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw new Error(`could not start redis-server after ${START_ATTEMPT_COUNT_MAX} attempts: ${lastError?.message}`);
}

async function startOn(binary: string, port: number, extraArgs: readonly string[]): Promise<RealRedis> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-redis-'));
  const child = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--daemonize', 'no', '--logfile', '', ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', () => {
      exited = true;
      resolve();
    });
    child.once('error', (error) => {
      output += String(error);
      exited = true;
      resolve();
    });
  });
  const cleanupDir = () => fs.rmSync(dir, { recursive: true, force: true });

  const deadline = Date.now() + READY_WAIT_MS_MAX;
  while (Date.now() < deadline) {
    if (exited) {
      cleanupDir();
      throw new Error(`redis-server exited during start on port ${port}:\n${output.slice(-2000)}`);
    }
    if (await answersPing(port)) {
      const pid = child.pid as number;
      return {
        port,
        pid,
        stop: () => stopChild(child, exitPromise, () => exited).finally(cleanupDir),
      };
    }
    await sleep(READY_POLL_MS);
  }
  await stopChild(child, exitPromise, () => exited);
  cleanupDir();
  throw new Error(`redis-server did not answer PING on port ${port} within ${READY_WAIT_MS_MAX} ms:\n${output.slice(-2000)}`);
}

async function stopChild(child: ChildProcess, exitPromise: Promise<void>, hasExited: () => boolean): Promise<void> {
  if (hasExited() || child.pid === undefined) return;
  process.kill(child.pid, 'SIGTERM');
  const timedOut = await Promise.race([exitPromise.then(() => false), sleep(STOP_WAIT_MS_MAX).then(() => true)]);
  if (timedOut && !hasExited()) {
    process.kill(child.pid, 'SIGKILL');
    await exitPromise;
  }
}

async function answersPing(port: number): Promise<boolean> {
  let client: RespClient | null = null;
  try {
    client = await RespClient.connect(port);
    const answer = await client.send(['PING']);
    return answer.type === 'status' && answer.value === 'PONG';
  } catch {
    return false;
  } finally {
    await client?.close().catch(() => undefined);
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
