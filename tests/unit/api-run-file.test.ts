/**
 * Goal: a run of async clients (hand-written code, unmodified redis-semaphore and redlock) becomes a
 * scenario file the page's Import reads (issue 24, item 5): each client's recorded log as a plain
 * program, timers as helper clients `A_1` of their owner's process, the schedule rewritten to
 * those names. The file is only handed out when its replay, program-only, shows the run: the same
 * commands with the same replies, critical sections and violations, in order, at the same times.
 */
import { Mutex } from 'redis-semaphore';
import Redlock from 'redlock';
import { describe, expect, it } from 'vitest';
import { ArgumentError, RunFileError, runFileOf, simulate, writeRunFile, type AsyncClientCode, type LockstepRedis, type SimulateResult, type TraceEvent } from '../../src/api';
import { formatScenarioFile, parseScenarioFileText } from '../../src/definition/file';
import { recordingOf, rememberRecording } from '../../src/api/recording';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type MutexClient = ConstructorParameters<typeof Mutex>[0];
type RedlockClient = ConstructorParameters<typeof Redlock>[0] extends Iterable<infer C> ? C : never;

/** What the page shows of a run, activities named as the file names them (`A·3` → `A_3`). */
function shown(events: readonly TraceEvent[], rename: (id: string) => string = (id) => id): string[] {
  const out: string[] = [];
  for (const e of events) {
    const who = e.clientId === null ? '-' : rename(e.clientId);
    if (e.kind === 'command') out.push(`${e.atMs} ${who} ${e.argv.join(' ')} -> ${JSON.stringify(e.reply)}`);
    if (e.kind === 'enter' || e.kind === 'leave') out.push(`${e.atMs} ${who} ${e.kind}`);
    if (e.kind === 'violation') out.push(`${e.atMs} violation ${e.violation} ${e.clients.map(rename).join(',')}`);
  }
  return out;
}

/** The file reads as the page reads it, and replayed with simulate (programs only) shows the run. */
async function expectRecordingShowsRun(result: SimulateResult): Promise<ReturnType<typeof runFileOf>> {
  const file = runFileOf(result);
  const text = formatScenarioFile(file);
  const read = parseScenarioFileText(text);
  expect(read.ok).toBe(true);
  expect(file.run.schedule).not.toContain('·');
  expect(JSON.stringify(file.definition.variants)).not.toContain('·');
  const replay = await simulate({ scenario: file.definition, variant: file.run.variant, seed: file.run.seed, schedule: file.run.schedule });
  const rename = (id: string) => id.replace(/·([0-9]+)$/, '_$1');
  expect(shown(replay.trace.events)).toEqual(shown(result.trace.events, rename));
  expect(replay.violations.map((v) => [v.kind, v.atMs])).toEqual(result.violations.map((v) => [v.kind, v.atMs]));
  expect(replay.verdict.ok).toBe(true);
  // The description says, in both languages, that this is a recording and not the code.
  const lesson = file.definition.lesson as { en: string; zh: string };
  expect(lesson.en).toMatch(/recording, not the code/);
  expect(lesson.en).toMatch(/another schedule the page replays these same commands, not the library's code/);
  expect(lesson.zh).toMatch(/录制/);
  return file;
}

/** Naive lock: SET NX PX, the work, then GET-then-DEL; a loser retries every 100 ms. */
const naive: AsyncClientCode = async (redis, ctx) => {
  for (let attempt = 0; attempt < 30; attempt++) {
    if ((await redis.set('lock', ctx.id, 'PX', 1000, 'NX')) === 'OK') break;
    await ctx.sleep(100);
  }
  ctx.enter();
  await ctx.work(1500);
  ctx.leave();
  if ((await redis.get('lock')) === ctx.id) await redis.del('lock');
};

describe('runFileOf: a run as a recording the page opens', () => {
  it('hand-written GET-then-DEL: the lock expires under A, B enters beside it; the recording shows the same', async () => {
    const result = await simulate({ clients: { A: naive, B: naive }, schedule: 'A B +4000' });
    expect(result.violations.map((v) => v.kind)).toContain('mutual-exclusion');
    const file = await expectRecordingShowsRun(result);
    const a = file.definition.variants[0].clients.find((c) => c.id === 'A');
    expect(a?.program[0]).toEqual({ op: 'command', argv: ['set', 'lock', 'A', 'PX', '1000', 'NX'] });
    expect(a?.program.some((s) => s.op === 'work' && s.durationMs === 1500)).toBe(true);
    expect(file.definition.variants[0].expect?.violations).toEqual([...new Set(result.violations.map((v) => v.kind))]);
  });

  it('redis-semaphore Mutex with refresh, A stalled: refresh runs are helpers A_k started by their interval, and B enters beside A', async () => {
    const job: AsyncClientCode = async (redis: LockstepRedis, ctx) => {
      const mutex = new Mutex(redis as unknown as MutexClient, 'lock', { lockTimeout: 1000, refreshInterval: 400, acquireTimeout: 10_000, retryInterval: 100, onLockLost: () => undefined });
      await mutex.acquire();
      ctx.enter();
      await ctx.work(1200);
      ctx.leave();
      await mutex.release();
    };
    const result = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:lock', schedule: 'A B A~1500 +4000' });
    expect(result.violations.map((v) => v.kind)).toContain('mutual-exclusion');
    const file = await expectRecordingShowsRun(result);
    const helpers = file.definition.variants[0].clients.filter((c) => c.startedBy !== undefined);
    expect(helpers.length).toBeGreaterThan(0);
    for (const h of helpers) {
      expect(h.id).toMatch(/^[AB]_[0-9]+$/);
      expect(h.process).toBe(h.id[0]);
    }
    // A refresh run is an EVALSHA (or EVAL) of the library's script, started with its timer's delay (400 ms).
    const clients = file.definition.variants[0].clients;
    const refresh = helpers.find((h) => h.program.some((s) => s.op === 'command' && /^eval/i.test(s.argv[0])));
    const starter = clients.find((c) => c.id === refresh?.startedBy);
    expect(starter?.program).toContainEqual({ op: 'start', client: refresh?.id, delayMs: 400 });
    // Timers that did nothing the page shows (B's retry waits) are left out; B's program waits instead.
    expect(helpers.every((h) => h.program.length > 0)).toBe(true);
  });

  it('redlock acquire with retries (its setTimeout, Math.random jitter): the waits are sleeps, and the replay matches', async () => {
    const job: AsyncClientCode = async (redis, ctx) => {
      const redlock = new Redlock([redis as unknown as RedlockClient], { retryCount: 20, retryDelay: 200, retryJitter: 100 });
      const lock = await redlock.acquire(['orders'], 1000);
      ctx.enter();
      await ctx.work(300);
      ctx.leave();
      await lock.release();
    };
    const result = await simulate({ clients: { A: job, B: job }, lockKey: 'orders', schedule: 'A B +5000' });
    expect(result.trace.events.filter((e) => e.kind === 'enter').map((e) => e.clientId)).toEqual(['A', 'B']);
    const file = await expectRecordingShowsRun(result);
    const b = file.definition.variants[0].clients.find((c) => c.id === 'B');
    // B's retries: several attempts, a wait between them.
    expect(b?.program.filter((s) => s.op === 'command' && /^eval/i.test(s.argv[0])).length).toBeGreaterThan(1);
    expect(b?.program.some((s) => s.op === 'sleep' && s.durationMs > 0)).toBe(true);
  });

  it('a schedule that steps an activity (as the explorer writes them) names its helper: A·1 → A_1', async () => {
    const job: AsyncClientCode = async (redis: LockstepRedis, ctx) => {
      const mutex = new Mutex(redis as unknown as MutexClient, 'lock', { lockTimeout: 1000, refreshInterval: 400, acquireTimeout: 10_000, retryInterval: 300, onLockLost: () => undefined });
      await mutex.acquire();
      ctx.enter();
      await ctx.work(900);
      ctx.leave();
      await mutex.release();
    };
    const result = await simulate({ clients: { A: job, B: job }, lockKey: 'mutex:lock', schedule: 'A A~1500 A·1 +2000' });
    const file = await expectRecordingShowsRun(result);
    expect(file.run.schedule).toBe('A A~1500 A_1 +2000');
  });

  it("a `start` step's delayMs is a timer: the helper's wait begins at the start, so a stall makes it late, not later", async () => {
    const definition = {
      version: 1,
      id: 'timer-helper',
      variants: [
        {
          id: 'v',
          clients: [
            { id: 'A', program: [{ op: 'start', client: 'H', delayMs: 500 }, { op: 'work', durationMs: 1000 }, { op: 'command', argv: ['SET', 'owner', 'A'] }] },
            { id: 'H', startedBy: 'A', process: 'A', program: [{ op: 'command', argv: ['SET', 'owner', 'H'] }] },
          ],
        },
      ],
    };
    const calm = await simulate({ scenario: definition, schedule: 'A +2000' });
    expect(shown(calm.trace.events)).toEqual(['500 H SET owner H -> {"type":"status","value":"OK"}', '1000 A SET owner A -> {"type":"status","value":"OK"}']);
    // Both due during the stall, both run at its end: the helper's timer was due first, so it goes first.
    const stalled = await simulate({ scenario: definition, schedule: 'A A~2000 +3000' });
    expect(shown(stalled.trace.events)).toEqual(['2000 H SET owner H -> {"type":"status","value":"OK"}', '2000 A SET owner A -> {"type":"status","value":"OK"}']);
  });

  it('writeRunFile writes the file the page imports', async () => {
    const result = await simulate({ clients: { A: naive, B: naive }, schedule: 'A B +4000' });
    const path = join(tmpdir(), `lockstep-run-file-${process.pid}.json`);
    const file = await writeRunFile(path, result);
    const read = parseScenarioFileText(await readFile(path, 'utf8'));
    expect(read.ok && read.file.run).toEqual(file.run);
  });

  it('refuses what is not a finished async run, and a recording whose replay parts from the run', async () => {
    const program = await simulate({ scenario: 'get-then-del' });
    expect(() => runFileOf(program)).toThrow(ArgumentError);
    const result = await simulate({ clients: { A: naive, B: naive }, schedule: 'A B +4000' });
    expect(() => runFileOf({ ...result })).toThrow(ArgumentError);
    // A run whose trace says Redis answered otherwise than the recorded commands do: never a file that shows something else.
    const events = result.trace.events.map((e) => (e.kind === 'command' && e.clientId === 'B' && e.argv[0] === 'set' ? { ...e, reply: { type: 'status' as const, value: 'FORGED' } } : e));
    const forged: SimulateResult = { ...result, trace: { ...result.trace, events } };
    rememberRecording(forged, recordingOf(result) as NonNullable<ReturnType<typeof recordingOf>>);
    let error: unknown = null;
    try {
      runFileOf(forged);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RunFileError);
    expect((error as RunFileError).code).toBe('not-a-recording');
    expect((error as Error).message).toMatch(/FORGED/);
  });
});
