import { createHash } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/args';
import { startRecordingProxy, type RecordingProxy } from '../../src/cli/record/proxy';
import { checkHistoryText, parseHistoryLine, type HistoryCommand } from '../../src/history';
import { parseQuoted } from '../../src/history/monitor';
import { startRealRedis, type RealRedis } from '../support/real-redis';

/**
 * The recording proxy in front of a real redis-server: what Redis saw (MONITOR on the far side)
 * is exactly what the applications sent through it, per connection and in order, and the history
 * has each command with the reply the application got.
 */
let server: RealRedis;
let proxy: RecordingProxy;
const lines: string[] = [];
beforeAll(async () => {
  server = await startRealRedis();
  proxy = await startRecordingProxy({ listenPort: 0, upstream: { host: '127.0.0.1', port: server.port }, write: (line) => lines.push(line) });
});
afterAll(async () => {
  await proxy.close();
  await server.stop();
});

const options = { lazyConnect: false, enableReadyCheck: false, disableClientInfo: true } as const;
const CAD = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

describe('record proxy', () => {
  it('loses and reorders nothing: MONITOR on the far side sees what the clients sent, connection by connection', async () => {
    // MONITOR over a raw socket, read back with the MONITOR importer's own unquoting.
    const seen = new Map<string, string[][]>();
    const monitorSocket = net.connect(server.port, '127.0.0.1');
    let monitorText = '';
    monitorSocket.on('data', (chunk: Buffer) => {
      monitorText += chunk.toString('latin1');
      let end = monitorText.indexOf('\r\n');
      while (end >= 0) {
        const line = monitorText.slice(0, end);
        monitorText = monitorText.slice(end + 2);
        end = monitorText.indexOf('\r\n');
        const m = /^\+[0-9.]+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
        if (m === null || m[1] === 'lua') continue;
        const args = parseQuoted(Buffer.from(m[2], 'latin1').toString('utf8')) ?? [];
        seen.set(m[1], [...(seen.get(m[1]) ?? []), args.map((a, i) => (i === 0 ? a.toUpperCase() : a))]);
      }
    });
    monitorSocket.write('MONITOR\r\n');
    await new Promise<void>((resolve) => monitorSocket.once('data', () => resolve()));
    const a = new Redis(proxy.port, '127.0.0.1', options);
    const b = new Redis(proxy.port, '127.0.0.1', options);
    const sub = new Redis(proxy.port, '127.0.0.1', options);
    const big = 'x'.repeat(300_000);
    try {
      // A pipeline of many commands, written in few chunks, with a value spanning many chunks.
      const pipeline = a.pipeline();
      for (let i = 0; i < 300; i++) pipeline.set(`k${i}`, `v ${i}\r\n"quoted"`);
      pipeline.set('big', big);
      pipeline.get('big');
      for (let i = 0; i < 300; i++) pipeline.incr('counter');
      const results = await pipeline.exec();
      expect(results?.at(-1)).toEqual([null, 300]);
      await sub.subscribe('news');
      await b.set('lock', 'tok-b', 'PX', 5000, 'NX');
      await b.publish('news', 'hello');
      expect(await b.eval(CAD, 1, 'lock', 'tok-b')).toBe(1);
      await expect(b.call('NOPE', 'x')).rejects.toThrow(/unknown command/);
      // An inline command, as redis-cli in a pipe or telnet sends it.
      const raw = net.connect(proxy.port, '127.0.0.1');
      await new Promise<void>((resolve) => raw.on('connect', () => resolve()));
      raw.write('PING\r\n');
      await new Promise<void>((resolve) => raw.once('data', () => resolve()));
      raw.end();
      await b.ping();
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      a.disconnect();
      b.disconnect();
      sub.disconnect();
      monitorSocket.end();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const commands = lines.map((l, i) => parseHistoryLine(l, i + 1)).flatMap((r) => (r !== null && 'kind' in r && r.kind === 'command' ? [r.command] : []));
    const byConn = new Map<string, HistoryCommand[]>();
    for (const c of commands) byConn.set(c.conn ?? c.client, [...(byConn.get(c.conn ?? c.client) ?? []), c]);
    // Redis rejects an unknown command before MONITOR sees it: that one is in the history only.
    // Compared as digests: a mismatch of a 300 kB argument must not print it.
    const digest = (argvs: readonly (readonly string[])[]) => `${argvs.length} commands, ${createHash('sha1').update(JSON.stringify(argvs)).digest('hex')}`;
    const sent = [...byConn.values()].map((cs) => digest(cs.filter((c) => c.argv[0] !== 'NOPE').map((c) => c.argv))).sort();
    const received = [...seen.values()].map(digest).sort();
    expect(sent).toEqual(received);
    expect(commands.length).toBeGreaterThan(600);
    const get = commands.find((c) => c.argv[0] === 'GET' && c.argv[1] === 'big');
    expect(String(get?.reply)).toMatch(/^x{4096}…\(cut: 300000 characters\)$/);
    expect(commands.find((c) => c.argv[0] === 'NOPE')?.error).toMatch(/unknown command/);
    expect(commands.filter((c) => c.argv[0] === 'INCR').map((c) => c.reply)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    for (const c of commands) expect(c.endMs).toBeGreaterThanOrEqual(c.startMs);
    const verdict = checkHistoryText(lines.join('\n'), { lockKey: 'lock' });
    expect(verdict.violations).toEqual([]);
    expect(verdict.problems).toEqual([]);
  });

  it('forwards what it cannot read, untouched: Redis answers the protocol error itself', async () => {
    const raw = net.connect(proxy.port, '127.0.0.1');
    await new Promise<void>((resolve) => raw.on('connect', () => resolve()));
    let answer = '';
    raw.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    raw.write('*x\r\n');
    await new Promise<void>((resolve) => raw.on('close', () => resolve()));
    expect(answer).toMatch(/^-ERR Protocol error/);
  });

  it('is a CLI command: record --listen --redis --out', () => {
    expect(parseCommandLine(['record', '--listen', '6380', '--redis', 'redis://127.0.0.1:6379', '--out', 'h.jsonl'])).toEqual({
      name: 'record',
      listenHost: '127.0.0.1',
      listenPort: 6380,
      redis: 'redis://127.0.0.1:6379',
      out: 'h.jsonl',
    });
    expect(() => parseCommandLine(['record', '--listen', 'x', '--redis', 'redis://h:1', '--out', 'o'])).toThrow(/--listen/);
    expect(() => parseCommandLine(['record', '--listen', '1'])).toThrow(/needs --listen, --redis and --out/);
  });
});
