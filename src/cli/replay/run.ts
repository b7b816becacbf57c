import { setTimeout as sleep } from 'node:timers/promises';
import { compareReplies, type Match } from './compare';
import type { ServerAddress } from './address';
import { ConnectionFailure, RealConnection, type RealReply } from './connection';
import { timingMarginMinMs, type ReplayPlan } from './plan';

/**
 * Sends a plan's commands to a real server: each client over its own connection, one command at a
 * time in the trace's order (the next goes only after the previous one's reply), each no earlier
 * than its virtual time divided by the time scale after the start. Before writing anything it
 * checks that none of the prefixed keys exists; afterwards, also after an error, it removes them.
 */
interface ReplayRow {
  readonly index: number;
  readonly real: RealReply;
  readonly match: Match;
  /** When it was sent, real ms after the start, and how late against its scaled virtual time. */
  readonly sentAtMs: number;
  readonly lateMs: number;
}

interface Cleanup {
  readonly removed: number;
  /** Keys that may still be on the server (the server could not be reached to remove them). */
  readonly left: readonly string[];
  readonly problem: string | null;
}

export interface ReplayResult {
  readonly serverVersion: string | null;
  readonly rows: readonly ReplayRow[];
  /** The first command whose real reply differs, or null. */
  readonly divergence: number | null;
  /** Why the replay stopped before its end (a refusal before writing, a lost server), or null. */
  readonly error: { readonly atCommand: number | null; readonly message: string } | null;
  readonly cleanup: Cleanup | null;
  readonly elapsedMs: number;
}

export interface ReplayHooks {
  /** After each command's reply: `done` of `total`, real ms since the start. */
  readonly onProgress?: (done: number, total: number, elapsedMs: number) => void;
  /** Stops the replay (Ctrl-C); the keys are still removed. */
  readonly signal?: AbortSignal;
  /** Awaited once every connection is open and checked, just before the replay's clock starts. */
  readonly beforeStart?: () => Promise<void>;
}

export async function replayOnServer(plan: ReplayPlan, address: ServerAddress, hooks: ReplayHooks = {}): Promise<ReplayResult> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  const rows: ReplayRow[] = [];
  let control: RealConnection;
  try {
    control = await RealConnection.open(address, 'control');
  } catch (error) {
    return { serverVersion: null, rows, divergence: null, error: { atCommand: null, message: messageOf(error) }, cleanup: null, elapsedMs: elapsed() };
  }
  const clients = new Map<string, RealConnection>();
  let serverVersion: string | null = null;
  let wrote = false;
  let error: ReplayResult['error'] = null;
  let divergence: number | null = null;
  try {
    serverVersion = await readVersion(control);
    const required = plan.variant.requiresRedis;
    if (required !== undefined && serverVersion !== null && compareVersions(serverVersion, required) < 0) {
      throw new Refused(`variant ${plan.variant.id} needs Redis ${required} or later; the server runs ${serverVersion}`);
    }
    const existing: string[] = [];
    for (const key of plan.realKeys) {
      const reply = await control.send(['EXISTS', key]);
      if (reply.type !== 'integer' || reply.value !== '0') existing.push(key);
    }
    if (existing.length > 0) {
      throw new Refused(
        `the server already holds ${existing.map((k) => JSON.stringify(k)).join(', ')}: the replay only writes keys that nobody else uses, ` +
          'so it refuses rather than overwrite them (choose another --key-prefix, or remove them if they are left from an earlier replay)',
      );
    }
    for (const id of plan.clientIds) clients.set(id, await RealConnection.open(address, id));
    const lateMsMax = lateMsMaxOf(plan);
    await hooks.beforeStart?.();
    const replayStart = performance.now();
    for (const command of plan.commands) {
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
      const dueMs = command.atMs / plan.timeScale;
      const waitMs = dueMs - (performance.now() - replayStart);
      if (waitMs > 0) await sleep(waitMs, undefined, { signal: hooks.signal }).catch(() => undefined);
      if (hooks.signal?.aborted) throw new Refused('stopped (interrupted)');
      const sentAtMs = performance.now() - replayStart;
      if (lateMsMax !== null && sentAtMs - dueMs > lateMsMax) throw new FellBehind(command.index, sentAtMs - dueMs, lateMsMax);
      const connection = command.clientId === null ? control : (clients.get(command.clientId) as RealConnection);
      wrote = true;
      let real: RealReply;
      try {
        real = await connection.send(command.realArgv);
      } catch (failure) {
        throw new LostAt(command.index, failure);
      }
      const match = compareReplies(command.simReply, real, command.replyIsDurationMs ? { scale: plan.timeScale, toleranceMs: timingMarginMinMs } : null);
      if (match === 'different' && divergence === null) divergence = command.index;
      rows.push({ index: command.index, real, match, sentAtMs, lateMs: Math.max(0, sentAtMs - dueMs) });
      hooks.onProgress?.(rows.length, plan.commands.length, elapsed());
    }
  } catch (failure) {
    if (failure instanceof LostAt) {
      error = { atCommand: failure.index, message: `command ${failure.index + 1} of ${plan.commands.length}: ${messageOf(failure.cause)}` };
    } else error = { atCommand: null, message: messageOf(failure) };
  }
  for (const connection of clients.values()) connection.close();
  const cleanup = wrote ? await removeKeys(plan.realKeys, control, address) : null;
  control.close();
  return { serverVersion, rows, divergence, error, cleanup, elapsedMs: elapsed() };
}

class Refused extends Error {}

/**
 * How late a command may be sent: half the tightest margin (real ms). Two commands whose lateness
 * differs by the whole margin would meet a key on the wrong side of its expiry; beyond half, the
 * replay no longer tests what the simulation ran. Null: no command depends on an expiry.
 */
function lateMsMaxOf(plan: ReplayPlan): number | null {
  return plan.margin === null ? null : plan.margin.virtualMs / plan.timeScale / 2;
}

class FellBehind extends Error {
  constructor(index: number, lateMs: number, lateMsMax: number) {
    super(
      `fell behind: command ${index + 1} was due ${lateMs.toFixed(0)} ms ago, more than half the run's tightest margin (${lateMsMax.toFixed(0)} ms), ` +
        'so the real server would no longer see the simulated timing; the machine is too busy for this --time-scale: use a smaller one',
    );
  }
}

class LostAt extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(messageOf(cause));
  }
}

function messageOf(error: unknown): string {
  if (error instanceof ConnectionFailure || error instanceof Refused || error instanceof FellBehind) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/** Removes the replay's keys, over a fresh connection if the control connection was lost. */
async function removeKeys(keys: readonly string[], control: RealConnection, address: ServerAddress): Promise<Cleanup> {
  if (keys.length === 0) return { removed: 0, left: [], problem: null };
  const attempt = async (connection: RealConnection): Promise<Cleanup> => {
    const reply = await connection.send(['DEL', ...keys]);
    if (reply.type === 'error') return { removed: 0, left: keys, problem: reply.value };
    return { removed: Number(reply.type === 'integer' ? reply.value : 0), left: [], problem: null };
  };
  try {
    return await attempt(control);
  } catch {
    let fresh: RealConnection | null = null;
    try {
      fresh = await RealConnection.open(address, 'cleanup');
      return await attempt(fresh);
    } catch (error) {
      return { removed: 0, left: keys, problem: messageOf(error) };
    } finally {
      fresh?.close();
    }
  }
}

async function readVersion(control: RealConnection): Promise<string | null> {
  const info = await control.send(['INFO', 'server']);
  if (info.type !== 'string') return null;
  return /^redis_version:(\S+)/m.exec(info.value)?.[1] ?? null;
}

/** Compares dotted version numbers: '7.0.15' < '8.4'. */
function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
