import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCheck } from '../src/cli/check';
import type { HistoryVerdict } from '../src/history';
import { fmt } from './format';
import type { BenchOptions, BenchPart, Figure, TextTable } from './types';

/**
 * The history checker (issue 27): `lockstep check` on generated histories of 64 connections taking
 * a lock in turns (SET NX PX, work on other keys, compare-and-delete), with a stalled holder's
 * plain DEL every 100,000 commands (a foreign release and a mutual exclusion each time). The whole
 * CLI path is timed: reading the file line by line, validating each line, checking. Peak memory is
 * sampled every 20 ms while it runs; two file sizes show that it stays flat in the file's length.
 * Goal: 1,000,000 commands under 10 s.
 */
const CONNECTION_COUNT = 64;
const SIZES = [250_000, 1_000_000] as const;
const GOAL_MS = 10_000;
const INJECT_EVERY = 100_000;
const TTL_MS = 50;
const CAD = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

export async function run(_options: BenchOptions): Promise<BenchPart> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-bench-history-'));
  const rows: TextTable['rows'][number][] = [];
  const figures: Figure[] = [];
  try {
    for (const size of SIZES) {
      const file = path.join(dir, `h${size}.jsonl`);
      const injected = writeHistory(file, size);
      const bytes = fs.statSync(file).size;
      global.gc?.();
      const baseHeap = process.memoryUsage().heapUsed;
      let peakHeap = baseHeap;
      let peakRss = process.memoryUsage().rss;
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        peakHeap = Math.max(peakHeap, m.heapUsed);
        peakRss = Math.max(peakRss, m.rss);
      }, 20);
      let out = '';
      const t0 = performance.now();
      const code = await runCheck({ file, format: 'jsonl', lockKey: undefined, maxHoldMs: undefined, clockSkewMs: undefined, json: true }, { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => undefined } });
      const ms = performance.now() - t0;
      clearInterval(sampler);
      const verdict = JSON.parse(out) as HistoryVerdict;
      const foreign = verdict.violations.filter((v) => v.kind === 'foreign-release').length;
      rows.push({
        name: `${size.toLocaleString('en-US')} commands, ${CONNECTION_COUNT} connections`,
        cells: [
          `${(bytes / 1e6).toFixed(0)} MB`,
          fmt(ms / 1000, 2),
          Math.round(size / (ms / 1000)).toLocaleString('en-US'),
          fmt((peakHeap - baseHeap) / 1e6, 0),
          fmt(peakRss / 1e6, 0),
          `exit ${code}, ${foreign} of ${injected} injected foreign releases found (${verdict.violations.length} violations), ${verdict.problems.length} problems`,
        ],
      });
      const id = `history.check.${size}`;
      figures.push({ id: `${id}.seconds`, value: ms / 1000, unit: 's', better: 'lower', ...(size === 1_000_000 ? { goal: '< 10', meetsGoal: ms < GOAL_MS } : {}) });
      figures.push({ id: `${id}.peakHeapMB`, value: (peakHeap - baseHeap) / 1e6, unit: 'MB', better: 'lower' });
      figures.push({ id: `${id}.peakRssMB`, value: peakRss / 1e6, unit: 'MB', better: 'lower' });
      fs.rmSync(file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return {
    tables: [
      {
        title: 'history check (lockstep check, whole CLI path)',
        columns: ['file', 's', 'commands/s', 'peak heap +MB', 'peak RSS MB', 'verdict'],
        rows,
        notes: [`goal: 1,000,000 commands in under ${GOAL_MS / 1000} s; memory flat in the file's length (compare the two rows)`],
      },
    ],
    figures,
  };
}

/**
 * A history of `size` commands: connections in turn try the lock; the holder does a few commands
 * on other keys and releases with compare-and-delete. Every INJECT_EVERY commands the holder
 * stalls past its TTL, another acquires, and the stalled one releases with a plain DEL.
 * Returns how many foreign releases it injected.
 */
export function writeHistory(file: string, size: number): number {
  const fd = fs.openSync(file, 'w');
  const epoch = 1_700_000_000_000;
  let nowMs = 0;
  let holder: { conn: number; token: string; untilMs: number; work: number } | null = null;
  let stalled = null as { conn: number; token: string } | null;
  /** The holder whose lock the stalled client deleted: it releases on its next turn (and finds nothing). */
  let victim = null as { conn: number; token: string } | null;
  let injected = 0;
  let chunk: string[] = [];
  const line = (conn: number, argv: string[], reply: unknown) => {
    const startMs = nowMs;
    const endMs = nowMs + 0.3;
    chunk.push(JSON.stringify({ client: `worker-${conn}`, argv, reply, startMs, endMs, startWallMs: epoch + startMs, endWallMs: epoch + endMs }));
    if (chunk.length >= 10_000) {
      fs.writeSync(fd, `${chunk.join('\n')}\n`);
      chunk = [];
    }
    nowMs += 0.05;
  };
  for (let n = 0; n < size; n++) {
    const conn = n % CONNECTION_COUNT;
    if (holder !== null && holder.untilMs <= nowMs) holder = null;
    if (stalled !== null && holder !== null && holder.conn !== stalled.conn && conn === stalled.conn) {
      // The stalled holder wakes and deletes what is there: the other client's lock.
      line(conn, ['DEL', 'lock'], 1);
      injected++;
      victim = { conn: holder.conn, token: holder.token };
      holder = null;
      stalled = null;
      continue;
    }
    if (victim !== null && victim.conn === conn) {
      line(conn, ['EVAL', CAD, '1', 'lock', victim.token], 0);
      victim = null;
      continue;
    }
    const stalledConn: number | null = stalled === null ? null : stalled.conn;
    if (holder !== null && holder.conn === conn && stalledConn !== conn) {
      if (n % INJECT_EVERY < CONNECTION_COUNT && stalled === null) {
        // A stop-the-world pause: it says nothing until its lease has expired and another holds the lock.
        stalled = { conn, token: holder.token };
        continue;
      }
      if (holder.work > 0) {
        holder.work--;
        line(conn, ['SET', `data:${n % 97}`, `v${n}`], 'OK');
      } else {
        line(conn, ['EVAL', CAD, '1', 'lock', holder.token], 1);
        holder = null;
      }
      continue;
    }
    if (stalled !== null && conn === stalled.conn) {
      nowMs += 0.01;
      continue;
    }
    const token = `t${n}`;
    if (holder === null) {
      line(conn, ['SET', 'lock', token, 'NX', 'PX', String(TTL_MS)], 'OK');
      holder = { conn, token, untilMs: nowMs + TTL_MS, work: 3 };
    } else line(conn, ['SET', 'lock', token, 'NX', 'PX', String(TTL_MS)], null);
  }
  if (chunk.length > 0) fs.writeSync(fd, `${chunk.join('\n')}\n`);
  fs.closeSync(fd);
  return injected;
}
