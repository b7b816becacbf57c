/**
 * Measures the Lua script budget from outside the tests: how long each hostile script runs in
 * Lockstep and how much memory the process reaches, and how long the heavy-but-legitimate
 * calibration scripts take in Lockstep and on a real redis-server 7.0.15.
 *
 *   npx tsx scripts/measure-lua-budget.ts [--only <name,...>] [--no-real] [--timeout-ms N]
 *   npx tsx scripts/measure-lua-budget.ts --calibrate     (ns per work unit, by kind of work)
 *
 * Every case runs in a child process of its own (a fresh SimRedisServer), so a case that hangs or
 * exhausts memory is reported as such instead of taking the measurement down; the parent stops a
 * child by its pid after the timeout. Peak memory is the child's maximum resident set size, which
 * includes about 100 MB for Node, tsx and the engine (the `baseline` row shows it).
 *
 * Not a test: nothing here asserts a time. docs/REDIS-FIDELITY.md quotes its output.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createLuaScriptEngine } from '../src/engine/redis/lua';
import { SimRedisServer } from '../src/engine/redis/server';
import type { Reply } from '../src/engine/redis/reply';
import { startRealRedis } from '../tests/support/real-redis';
import { RespClient } from '../tests/support/resp-client';

interface Case {
  readonly name: string;
  /** legit: real Redis finishes it well under a second, so Lockstep must too; hostile: must end by a budget error. */
  readonly kind: 'legit' | 'hostile' | 'baseline';
  readonly script: string;
}

const CMSGPACK_100K = `local array_big = {}
for i = 1, 100000 do array_big[i] = i end
local map_big = {}
for i = 1, 100000 do map_big[tostring(i)] = i end
local some_map = { s1 = string.rep('x', 30), s2 = string.rep('x', 250), s3 = string.rep('x', 65530), s4 = string.rep('x', 100000),
  d1 = 3.1415926, a1 = {1, 2, 3, 4, 5}, a2 = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18}, ab = array_big, m1 = {a = 1, b = 2}, mb = map_big }
local encoded = cmsgpack.pack(some_map)
local decoded = cmsgpack.unpack(encoded)
assert(#decoded.ab == 100000)
local n = 0 for _ in pairs(decoded.mb) do n = n + 1 end
assert(n == 100000)
return #encoded`;

const CASES: readonly Case[] = [
  { name: 'baseline', kind: 'baseline', script: 'return 1' },
  // Calibration: heavy scripts a real Redis finishes well under a second.
  { name: 'cmsgpack-100k', kind: 'legit', script: CMSGPACK_100K },
  { name: 'loop-10M', kind: 'legit', script: 'local x = 0 for i = 1, 10000000 do x = x + i end return x' },
  { name: 'table-1M-concat', kind: 'legit', script: "local t = {} for i = 1, 1000000 do t[i] = i end return #table.concat(t, ',')" },
  { name: 'cjson-100k', kind: 'legit', script: "local t = {} for i = 1, 100000 do t[i] = {id = i, name = 'item' .. i} end local s = cjson.encode(t) return #cjson.decode(s)" },
  { name: 'concat-loop-10k', kind: 'legit', script: "local s = '' for i = 1, 10000 do s = s .. '0123456789' end return #s" },
  { name: 'redis-call-100k', kind: 'legit', script: "for i = 1, 100000 do redis.call('incr', 'counter') end return redis.call('get', 'counter')" },
  { name: 'gsub-fn-1MB', kind: 'legit', script: "local s = string.rep('abcd', 262144) local n = 0 s = s:gsub('b', function(c) n = n + 1 return 'B' end) return n" },
  { name: 'rep-100MB', kind: 'legit', script: "return #string.rep('x', 100000000)" },
  { name: 'sort-100k', kind: 'legit', script: 'local t = {} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end table.sort(t) return t[1]' },
  { name: 'reply-100k', kind: 'legit', script: 'local t = {} for i = 1, 100000 do t[i] = i end return t' },
  // Hostile: each must end with a budget error, in bounded time and memory.
  { name: 'reply-shared-subtable', kind: 'hostile', script: 'local t = {} for i = 1, 40 do t = {t, t} end return t' },
  { name: 'cjson-shared-subtable', kind: 'hostile', script: 'local t = {} for i = 1, 40 do t = {t, t} end return cjson.encode(t)' },
  { name: 'cmsgpack-shared-subtable', kind: 'hostile', script: 'local t = {} for i = 1, 40 do t = {t, t, t, t} end return #cmsgpack.pack(t)' },
  { name: 'reply-cycle', kind: 'hostile', script: 'local a = {} a[1] = a return a' },
  { name: 'cjson-cycle-deep', kind: 'hostile', script: 'cjson.encode_max_depth(2147483647) local a = {} a[1] = a return cjson.encode(a)' },
  { name: 'xpcall-looping-handler', kind: 'hostile', script: "return xpcall(function() error('x') end, function() while true do end end)" },
  { name: 'table-concat-2.5GB', kind: 'hostile', script: "local s = string.rep('x', 1048576) local t = {} for i = 1, 2500 do t[i] = s end return #table.concat(t)" },
  { name: 'format-doubling', kind: 'hostile', script: "local s = 'x' for i = 1, 40 do s = string.format('%s%s', s, s) end return #s" },
  { name: 'rep-2^40', kind: 'hostile', script: "return #string.rep('x', 2^40)" },
  { name: 'rep-hoard', kind: 'hostile', script: "local t = {} for i = 1, 100 do t[i] = string.rep(tostring(i), 30000000) end return #t" },
  { name: 'gsub-quadratic', kind: 'hostile', script: "local s = string.rep('x', 50000) return #s:gsub('.', s)" },
  { name: 'gsub-doubling', kind: 'hostile', script: "local s = 'xy' while true do s = s:gsub('.', '%0%0') end" },
  { name: 'concat-doubling', kind: 'hostile', script: "local s = 'x' while true do s = s .. s end" },
  { name: 'concat-loop-1M', kind: 'hostile', script: "local s = '' for i = 1, 1000000 do s = s .. 'x' end return #s" },
  { name: 'pattern-backtracking', kind: 'hostile', script: "return string.find(string.rep('a', 300), '.-.-.-.-b')" },
  { name: 'struct-pack-200kB-format', kind: 'hostile', script: "return #struct.pack('c200000', string.rep('x', 200000))" },
  { name: 'struct-pack-long-format', kind: 'hostile', script: "return #struct.pack(string.rep('x', 200000))" },
  { name: 'table-fill', kind: 'hostile', script: 'local t = {} local i = 0 while true do i = i + 1 t[i] = i end' },
  { name: 'infinite-loop', kind: 'hostile', script: 'while true do end' },
  { name: 'redis-call-big-get', kind: 'hostile', script: "redis.call('set', 'big', string.rep('x', 50000000)) local n = 0 while true do n = n + #redis.call('get', 'big') end" },
];

/**
 * Workloads each dominated by one kind of charge, for `--calibrate`: the time per work unit of
 * each, next to a plain loop's, shows whether a price is right (the same ns per unit everywhere
 * means a unit is the same time everywhere). Run in this process, one after the other.
 */
const CALIBRATION: readonly { readonly name: string; readonly script: string }[] = [
  { name: 'vm-loop (1 unit = 1 instruction)', script: 'local x = 0 for i = 1, 1000000 do x = x + i end return x' },
  { name: 'table slots created', script: 'for r = 1, 5 do local t = {} for i = 1, 100000 do t[i] = i end end return 1' },
  { name: 'table writes', script: 'local t = {} for r = 1, 10 do for i = 1, 100000 do t[i] = i end end return #t' },
  { name: 'short strings created', script: "local n = 0 for i = 1, 300000 do local s = 'k' .. i n = n + #s end return n" },
  { name: 'long strings copied', script: "local s = string.rep('x', 100000) local n = 0 for i = 1, 300 do local c = s .. i n = n + #c end return n" },
  { name: 'string keys hashed', script: "local s = string.rep('x', 1000) local t = {} for i = 1, 3000 do t[s .. i] = i end return 1" },
  { name: 'pattern steps', script: "return string.find(string.rep('a', 200), '.-.-.-b')" },
  { name: 'gsub per character', script: "local s = string.rep('abcd', 200000) local r = s:gsub('b', 'B') return #r" },
  { name: 'tables created', script: 'local n = 0 for i = 1, 300000 do local t = {i} n = n + #t end return n' },
  { name: 'reply values', script: 'local t = {} for i = 1, 300000 do t[i] = {i} end return t' },
  { name: 'cjson values', script: "local t = {} for i = 1, 30000 do t[i] = {id = i, name = 'n' .. i} end return #cjson.decode(cjson.encode(t))" },
  { name: 'cmsgpack values', script: "local t = {} for i = 1, 100000 do t[i] = i end return #cmsgpack.unpack(cmsgpack.pack(t))" },
  { name: 'redis.call', script: "for i = 1, 30000 do redis.call('incr', 'n') end return 1" },
  { name: 'compiling', script: "local src = string.rep('local x = 1 + 2 ', 2000) for i = 1, 30 do loadstring(src) end return 1" },
  { name: 'coroutine switches', script: 'local co = coroutine.wrap(function() while true do coroutine.yield(1) end end) for i = 1, 30000 do co() end return 1' },
  { name: 'sort comparisons', script: 'local t = {} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end table.sort(t) return t[1]' },
  { name: 'xpcall error-in-handler', script: "for i = 1, 100 do xpcall(function() error('e') end, function(m) error(m) end) end return 1" },
];

/** Milliseconds and work units of one script on a fresh server with unbounded budgets. */
function timed(script: string): { ms: number; units: number; error: string | null } {
  const engine = createLuaScriptEngine({ limits: { workUnitsMax: 1e12, memoryBytesMax: 4 * 1024 ** 3 } });
  const server = new SimRedisServer({ createScriptEngine: () => engine });
  server.execute(['EVAL', 'return 1', '0'], 0);
  const start = performance.now();
  const result = server.execute(['EVAL', script, '0'], 0);
  const ms = performance.now() - start;
  return { ms, units: engine.lastRun()?.workUnits ?? 0, error: result.type === 'error' ? result.value.slice(0, 80) : null };
}

/**
 * Each workload's time per unit divided by a plain loop's, measured right before and after it
 * (so a busy machine slows both alike); the median of five rounds. 1.0 means its prices are
 * right; 3.0 means its work costs three times what it is charged.
 */
function calibrate(only: ReadonlySet<string> | null): void {
  const reference = CALIBRATION[0].script;
  for (const item of CALIBRATION.slice(1).filter((c) => only === null || [...only].some((word) => c.name.includes(word)))) {
    const ratios: number[] = [];
    let units = 0;
    let error: string | null = null;
    for (let round = 0; round < 5; round++) {
      const before = timed(reference);
      const work = timed(item.script);
      const after = timed(reference);
      const nsPerReferenceUnit = ((before.ms + after.ms) * 1e6) / (before.units + after.units);
      ratios.push((work.ms * 1e6) / work.units / nsPerReferenceUnit);
      units = work.units;
      error = work.error;
    }
    ratios.sort((x, y) => x - y);
    console.log(`${ratios[2].toFixed(2).padStart(6)}x  ${String(units).padStart(10)} units  ${item.name}${error === null ? '' : `  (${error})`}`);
  }
}

interface ChildResult {
  /** Work units the script used (deterministic: the same on every machine). */
  readonly units: number;
  readonly elapsedMs: number;
  readonly maxRssMb: number;
  readonly reply: string;
  readonly pingAfter: string;
}

function describe(r: Reply): string {
  const text = r.type === 'array' ? `array(${r.value.length})` : r.type === 'nil' ? 'nil' : `${r.type} ${r.value}`;
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/** In the child: one case on a fresh server, then PING and a plain EVAL to show the server still works. */
function runChild(name: string): void {
  const found = CASES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown case ${name}`);
  const engine = createLuaScriptEngine();
  const server = new SimRedisServer({ createScriptEngine: () => engine });
  server.execute(['EVAL', 'return 1', '0'], 0);
  const start = performance.now();
  const result = server.execute(['EVAL', found.script, '0'], 0);
  const elapsedMs = performance.now() - start;
  const units = engine.lastRun()?.workUnits ?? 0;
  const ping = server.execute(['PING'], 0);
  const after = server.execute(['EVAL', "return redis.call('ping')", '0'], 0);
  const out: ChildResult = {
    units,
    elapsedMs,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    reply: describe(result),
    pingAfter: `${describe(ping)} / ${describe(after)}`,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function runInChild(name: string, timeoutMs: number): Promise<ChildResult | string> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', self, '--child', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve(`did not end within ${timeoutMs} ms (stopped)`);
      if (code !== 0) return resolve(`crashed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 200)}`);
      resolve(JSON.parse(stdout.trim().split('\n').pop() as string) as ChildResult);
    });
  });
}

/** Each calibration script on a real redis-server: its own time as SLOWLOG records it (the server's, not the network's). */
async function realTimes(names: readonly Case[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const redis = await startRealRedis();
  try {
    const client = await RespClient.connect(redis.port);
    await client.send(['CONFIG', 'SET', 'slowlog-log-slower-than', '0']);
    for (const c of names) {
      await client.send(['FLUSHALL']);
      await client.send(['SLOWLOG', 'RESET']);
      const reply = await client.send(['EVAL', c.script, '0']);
      const log = await client.send(['SLOWLOG', 'GET', '1']);
      const entry = log.type === 'array' ? log.value[0] : null;
      const micros = entry?.type === 'array' && entry.value[2].type === 'integer' ? Number(entry.value[2].value) : NaN;
      out.set(c.name, `${(micros / 1000).toFixed(0)} ms (server time)  ${describe(reply)}`);
    }
    await client.close();
  } finally {
    await redis.stop();
  }
  return out;
}

async function main(argv: readonly string[]): Promise<void> {
  if (argv[0] === '--child') return runChild(argv[1]);
  if (argv[0] === '--calibrate') return calibrate(argv.length > 1 ? new Set(argv.slice(1)) : null);
  const only = argv.includes('--only') ? new Set(argv[argv.indexOf('--only') + 1].split(',')) : null;
  const timeoutMs = argv.includes('--timeout-ms') ? Number(argv[argv.indexOf('--timeout-ms') + 1]) : 60_000;
  const cases = CASES.filter((c) => only === null || only.has(c.name));
  const real = argv.includes('--no-real') ? new Map<string, string>() : await realTimes(cases.filter((c) => c.kind !== 'hostile'));
  for (const c of cases) {
    const result = await runInChild(c.name, timeoutMs);
    const sim = typeof result === 'string' ? result : `${result.units} units, ${result.elapsedMs.toFixed(0)} ms, peak RSS ${result.maxRssMb.toFixed(0)} MB: ${result.reply}; after: ${result.pingAfter}`;
    console.log(`${c.kind.padEnd(8)} ${c.name}\n  lockstep: ${sim}${real.has(c.name) ? `\n  redis:    ${real.get(c.name)}` : ''}`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
