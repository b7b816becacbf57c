import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHistoryText, mark, record } from '../../src/api';
import { parseHistoryLine } from '../../src/history';
import { startRealRedis, type RealRedis } from '../support/real-redis';

/** record(): a real ioredis client against a real redis-server, every command and reply on a line the checker reads. */
let server: RealRedis;
beforeAll(async () => {
  server = await startRealRedis();
});
afterAll(async () => {
  await server.stop();
});

const CAD = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

function tmpFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lockstep-record-')), 'history.jsonl');
}

describe('record()', () => {
  it('writes each command with its reply, times that never run backwards, and marks; a correct lock checks clean', async () => {
    const file = tmpFile();
    const a = new Redis(server.port, '127.0.0.1');
    const b = new Redis(server.port, '127.0.0.1');
    const ra = record(a, { client: 'worker-1', file });
    const rb = record(b, { client: 'worker-2', file });
    try {
      expect(await a.set('job-lock', 'tok-a', 'PX', 5000, 'NX')).toBe('OK');
      ra.mark('enter');
      expect(await b.set('job-lock', 'tok-b', 'PX', 5000, 'NX')).toBeNull();
      mark(a, 'write', { resource: 'db', token: 'tok-a' });
      ra.mark('leave');
      expect(await a.eval(CAD, 1, 'job-lock', 'tok-a')).toBe(1);
      expect(await b.set('job-lock', 'tok-b', 'PX', 5000, 'NX')).toBe('OK');
      await expect(b.call('NOPE')).rejects.toThrow();
      expect(await b.evalsha('0000000000000000000000000000000000000000', 0).catch((e: Error) => e.message)).toMatch(/NOSCRIPT/);
      expect(await b.del('job-lock')).toBe(1);
    } finally {
      await ra.close();
      await rb.close();
      a.disconnect();
      b.disconnect();
    }
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    const records = lines.map((l, i) => parseHistoryLine(l, i + 1));
    expect(records.every((r) => r !== null && !('message' in r))).toBe(true);
    const commands = records.flatMap((r) => (r !== null && 'kind' in r && r.kind === 'command' ? [r.command] : []));
    expect(commands.map((c) => `${c.client} ${c.argv[0]} ${JSON.stringify('reply' in c ? c.reply : c.error)}`)).toEqual(
      expect.arrayContaining(['worker-1 SET "OK"', 'worker-2 SET null', 'worker-1 EVAL 1', 'worker-2 SET "OK"', 'worker-2 DEL 1', expect.stringMatching(/^worker-2 NOPE "ERR unknown command/)]),
    );
    for (const c of commands) {
      expect(c.endMs).toBeGreaterThanOrEqual(c.startMs);
      expect(c.endWallMs).toBeGreaterThanOrEqual(c.startWallMs);
    }
    const verdict = checkHistoryText(lines.join('\n'));
    expect(verdict.lockKey).toBe('job-lock');
    expect(verdict.markCount).toBe(3);
    expect(verdict.violations).toEqual([]);
  });

  it('a release without checking the owner, recorded for real, is found as a certain foreign release', async () => {
    const file = tmpFile();
    const a = new Redis(server.port, '127.0.0.1');
    const b = new Redis(server.port, '127.0.0.1');
    const ra = record(a, { client: 'A', file });
    const rb = record(b, { client: 'B', file });
    try {
      await a.set('lock2', 'a', 'PX', 30, 'NX');
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await b.set('lock2', 'b', 'PX', 5000, 'NX')).toBe('OK');
      expect(await a.del('lock2')).toBe(1);
    } finally {
      await ra.close();
      await rb.close();
      a.disconnect();
      b.disconnect();
    }
    const verdict = checkHistoryText(fs.readFileSync(file, 'utf8'));
    expect(verdict.violations.map((v) => `${v.kind}:${v.certainty}:${v.clients.join(',')}`)).toContain('foreign-release:certain:A,B');
  });

  it('refuses a client recorded twice, and a mark on a client not recorded', () => {
    const a = new Redis(server.port, '127.0.0.1', { lazyConnect: true });
    const r = record(a, { client: 'A', write: () => undefined });
    expect(() => record(a, { client: 'A', write: () => undefined })).toThrow(/already/);
    expect(() => mark({}, 'enter')).toThrow(/not being recorded/);
    void r.close();
    a.disconnect();
  });
});
