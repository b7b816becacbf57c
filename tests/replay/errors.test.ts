// Goal: a replay never harms what it did not write and never leaves its keys behind where the
// server can still be reached: a key that already exists stops it before anything is written; a
// lost connection, a killed server and a refused connection end it with a clear message and a
// non-zero exit; a time scale too fast for the run's timing is refused, naming the margin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { replay, type JsonReport } from './support';

let redis: RealRedis;
let client: RespClient;
let url: string;

beforeAll(async () => {
  redis = await startRealRedis();
  client = await RespClient.connect(redis.port);
  url = `redis://127.0.0.1:${redis.port}`;
});

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await redis?.stop();
});

describe('replay errors', () => {
  it('refuses to run when the server already holds one of its keys, and leaves that key as it was', async () => {
    await client.send(['SET', 'mine:lock', 'not-yours', 'PX', '100000']);
    const out = await replay({ scenario: 'get-then-del', redis: url, keyPrefix: 'mine:', timeScale: 10 });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/already holds "mine:lock".*refuses rather than overwrite/);
    const report = JSON.parse(out.stdout) as JsonReport;
    expect(report.cleanup).toBeNull();
    expect(report.commands.every((c) => c.match === null)).toBe(true);
    expect(await client.send(['GET', 'mine:lock'])).toEqual({ type: 'bulk', value: 'not-yours' });
    expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '1' });
    await client.send(['DEL', 'mine:lock']);
  });

  it('stops with a clear message when its connection is lost, and still removes its keys', async () => {
    let killed: Promise<unknown> | null = null;
    const out = await replay({ scenario: 'get-then-del', redis: url, keyPrefix: 'lost:', timeScale: 2 }, (text) => {
      // After A's SET (command 1) wrote lost:lock, and 1000 ms before A's GET: cut A's connection.
      if (killed === null && /command 1 of 4/.test(text)) killed = client.send(['CLIENT', 'KILL', 'USER', 'default', 'SKIPME', 'yes']);
    });
    expect(killed).not.toBeNull();
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/replay failed: command 2 of 4: the server closed the connection/);
    const report = JSON.parse(out.stdout) as JsonReport;
    expect(report.commands[0].match).toBe('same');
    expect(report.verdicts.real.complete).toBe(false);
    expect(report.cleanup).toEqual({ removed: 1, left: [], problem: null });
    expect(await client.send(['EXISTS', 'lost:lock'])).toEqual({ type: 'integer', value: '0' });
  });

  it('stops with a clear message when the server is killed mid-run, naming the keys it could not remove', async () => {
    const doomed = await startRealRedis();
    let stopping: Promise<void> | null = null;
    try {
      const out = await replay({ scenario: 'get-then-del', redis: `redis://127.0.0.1:${doomed.port}`, keyPrefix: 'gone:', timeScale: 2 }, (text) => {
        if (stopping === null && /command 1 of 4/.test(text)) {
          process.kill(doomed.pid, 'SIGKILL');
          stopping = doomed.stop();
        }
      });
      expect(out.code).toBe(2);
      expect(out.stderr).toMatch(/replay failed: command 2 of 4: (the server closed the connection|connection refused)/);
      expect(out.stderr).toMatch(/keys left on the server: gone:lock/);
      const report = JSON.parse(out.stdout) as JsonReport;
      expect(report.cleanup?.left).toEqual(['gone:lock']);
    } finally {
      await (stopping ?? doomed.stop());
    }
  });

  it('reports the first divergence, exits 1, and leaves the real verdict unknown from there', async () => {
    let meddled: Promise<unknown> | null = null;
    const out = await replay({ scenario: 'get-then-del', redis: url, keyPrefix: 'meddled:', timeScale: 2 }, (text) => {
      // Someone else deletes the lock between A's SET and A's GET: the real GET answers nil.
      if (meddled === null && /command 1 of 4/.test(text)) meddled = client.send(['DEL', 'meddled:lock']);
    });
    expect(out.code).toBe(1);
    const report = JSON.parse(out.stdout) as JsonReport;
    expect(report.firstDivergence).toBe(2);
    expect(report.commands.map((c) => c.match)).toEqual(['same', 'different', 'same', 'same']);
    expect(report.verdicts.simulation.map((v) => v.kind)).toEqual(['foreign-release']);
    expect(report.verdicts.real).toMatchObject({ violations: [], complete: false });
    expect(report.exitCode).toBe(1);
    expect(await client.send(['EXISTS', 'meddled:lock'])).toEqual({ type: 'integer', value: '0' });
    const text = await replay({ scenario: 'get-then-del', redis: url, keyPrefix: 'meddled:', timeScale: 2, json: false }, (line) => {
      if (/command 1 of 4/.test(line)) void client.send(['DEL', 'meddled:lock']);
    });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('First divergence at #2 (step 2, A, t=2000): GET lock\n  simulated: "<A\'s token>"\n  real:      nil');
    expect(text.stdout).toContain('from #2 on the real clients would have acted on other replies: unknown');
  });

  it('says so when nothing listens at the address', async () => {
    const doomed = await startRealRedis();
    await doomed.stop();
    const out = await replay({ scenario: 'get-then-del', redis: `redis://127.0.0.1:${doomed.port}`, timeScale: 10 });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/cannot connect to redis:\/\/127\.0\.0\.1:\d+: connection refused/);
    expect((JSON.parse(out.stdout) as JsonReport).cleanup).toBeNull();
  });

  it('refuses a time scale that leaves less than 50 ms between a command and an expiry, naming the margin, before connecting', async () => {
    const out = await replay({ scenario: 'get-then-del', redis: 'redis://127.0.0.1:1', timeScale: 50 });
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('the tightest timing margin is 1000 ms of virtual time');
    expect(out.stderr).toContain('at --time-scale 50 that is 20 ms on the real server, below the 50 ms');
    expect(out.stderr).toContain('use --time-scale 20 or less');
  });

  it('refuses SCRIPT FLUSH unless --allow-server-wide says the server is yours', async () => {
    const out = await replay({ scenario: 'script-cache', redis: url, timeScale: 10 });
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/SCRIPT FLUSH empties the server's whole script cache.*--allow-server-wide/);
    expect(await client.send(['DBSIZE'])).toEqual({ type: 'integer', value: '0' });
  });
});
