// Goal: node faults happen only on servers the replay started itself. On its own server a crash
// (SHUTDOWN NOSAVE and a restart) loses the data and brings the server back on the same port, and
// a promotion (REPLICAOF NO ONE) is accepted; on a server it did not start, both are refused
// before anything is sent and the server keeps its data. `--start-server` replays on such a
// private server and stops it at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnedServers, NodeFaultRefusal } from '../../src/cli/replay/owned-servers';
import { RealConnection } from '../../src/cli/replay/connection';
import { startRealRedis, type RealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { replay, type JsonReport } from './support';

let foreign: RealRedis;
const owned = new OwnedServers();

beforeAll(async () => {
  foreign = await startRealRedis();
});

afterAll(async () => {
  await owned.stopAll();
  await foreign?.stop();
});

describe('node faults', () => {
  it('crashes a server it started: the data is gone, the server is back on the same port as a new process', async () => {
    const address = await owned.start();
    const before = await RealConnection.open(address, 'test');
    expect(await before.send(['SET', 'k', 'v'])).toEqual({ type: 'string', value: 'OK' });
    before.close();
    const pid = owned.pidOf(address);
    await owned.crash(address);
    expect(owned.pidOf(address)).not.toBe(pid);
    const after = await RealConnection.open(address, 'test');
    expect(await after.send(['EXISTS', 'k'])).toEqual({ type: 'integer', value: '0' });
    after.close();
    await owned.promote(address);
  });

  it('refuses both faults on a server it did not start, and sends nothing', async () => {
    const client = await RespClient.connect(foreign.port);
    try {
      await client.send(['SET', 'theirs', 'v']);
      const address = { url: `redis://127.0.0.1:${foreign.port}`, display: `redis://127.0.0.1:${foreign.port}` };
      await expect(owned.crash(address)).rejects.toThrow(NodeFaultRefusal);
      await expect(owned.crash(address)).rejects.toThrow(/was not started by this replay, so it will not crash it .*--start-server/);
      await expect(owned.promote(address)).rejects.toThrow(/will not promote it \(REPLICAOF NO ONE\)/);
      expect(await client.send(['GET', 'theirs'])).toEqual({ type: 'bulk', value: 'v' });
      expect(await client.send(['PING'])).toEqual({ type: 'status', value: 'PONG' });
    } finally {
      await client.close();
    }
  });

  it('--start-server replays on a private server and stops it at the end', async () => {
    const { runReplay } = await import('../../src/cli/replay');
    let stdout = '';
    let stderr = '';
    const code = await runReplay(
      { scenario: 'get-then-del', variant: undefined, schedule: undefined, seed: 1, redis: null, timeScale: 5, keyPrefix: undefined, allowServerWide: false, cluster: false, json: true },
      { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } },
    );
    expect(code, stderr).toBe(0);
    const started = /started redis-server on (redis:\/\/127\.0\.0\.1:(\d+))/.exec(stderr);
    expect(started).not.toBeNull();
    const report = JSON.parse(stdout) as JsonReport & { server: { url: string } };
    expect(report.server.url).toBe(started![1]);
    expect(report.firstDivergence).toBeNull();
    await expect(RespClient.connect(Number(started![2]))).rejects.toThrow();
  });
});

// The replay helper's type keeps `redis` a string: a sanity check that it still refuses a bad URL.
it('still needs a valid --redis when it does not start a server', async () => {
  const out = await replay({ scenario: 'get-then-del', redis: 'http://x' });
  expect(out.code).toBe(2);
  expect(out.stderr).toMatch(/--redis must start with redis:\/\//);
  expect((out.stdout === '' ? null : (JSON.parse(out.stdout) as JsonReport))?.cleanup ?? null).toBeNull();
});
