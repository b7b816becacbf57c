import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reply, type Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { scriptDurationMs } from '../../src/engine/redis/lua/busy';
import { formatArgumentNumber, formatFixed, formatG, formatLuaNumber } from '../../src/engine/redis/lua/numbers';
import { sha1Hex } from '../../src/engine/redis/lua/sha1';
import { DEFAULT_UNIX_EPOCH_MS } from '../../src/engine/redis/time';
import { runs } from '../support/size';

// Goal: the parts of scripting that depend on the server's history and on time: the random
// generator, slow scripts on the virtual clock (BUSY, SCRIPT KILL, UNKILLABLE), snapshots,
// frozen time, and isolation between scripts. Runaway and hostile scripts: lua-budget.test.ts.

function evalAt(server: SimRedisServer, nowMs: number, script: string, ...keysThenArgs: string[]): Reply {
  return server.execute(['EVAL', script, '0', ...keysThenArgs], nowMs);
}


describe('math.random', () => {
  it('follows redis-server 7.0.15 from a fresh start (values recorded from one)', () => {
    const server = new SimRedisServer();
    expect(evalAt(server, 0, 'return {math.random(100), math.random(100), tostring(math.random()), math.random(5, 10)}')).toEqual(
      reply.array([reply.integer(40), reply.integer(85), reply.bulk('0.35333609737146'), reply.integer(7)]),
    );
    expect(evalAt(server, 0, 'math.randomseed(7) return {math.random(1000), math.random(1000)}')).toEqual(
      reply.array([reply.integer(267), reply.integer(683)]),
    );
    // Not reset between scripts, nor by SCRIPT FLUSH.
    server.execute(['SCRIPT', 'FLUSH'], 0);
    expect(evalAt(server, 0, 'return math.random(1000)')).toEqual(reply.integer(266));
  });

  it('replays the same numbers after restoring a snapshot', () => {
    const server = new SimRedisServer();
    evalAt(server, 0, 'return math.random(10)');
    const snapshot = server.snapshot();
    const first = evalAt(server, 0, 'return {math.random(1000), math.random(1000)}');
    server.restore(snapshot);
    expect(evalAt(server, 0, 'return {math.random(1000), math.random(1000)}')).toEqual(first);
  });
});

describe('slow scripts on the virtual clock', () => {
  // 1 µs per instruction and a 100 ms threshold: a loop of ~300k instructions lasts ~300 ms.
  const timing = { nsPerInstruction: 1_000, busyReplyThresholdMs: 100 };
  const SLOW = 'local x = 0 for i = 1, 100000 do x = x + i end return x';
  const SLOW_WRITE = "redis.call('set', 'w', '1') local x = 0 for i = 1, 100000 do x = x + i end return x";
  const BUSY = reply.error('BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.');

  it('answers others normally before the threshold, BUSY after it, normally once it ends', () => {
    const server = new SimRedisServer({ scriptTiming: timing });
    server.execute(['SET', 'k', 'v'], 0);
    expect(evalAt(server, 1_000, SLOW)).toEqual(reply.integer(5000050000));
    const running = server.scriptBusy.running(1_000);
    expect(running).not.toBeNull();
    const endMs = running?.endMs ?? 0;
    expect(endMs).toBeGreaterThan(1_000 + timing.busyReplyThresholdMs);
    expect(server.execute(['GET', 'k'], 1_050)).toEqual(reply.bulk('v'));
    expect(server.execute(['GET', 'k'], 1_150)).toEqual(BUSY);
    expect(server.execute(['GET', 'k'], endMs)).toEqual(reply.bulk('v'));
  });

  it('SCRIPT KILL stops a script that did not write; its caller gets the kill error', () => {
    const server = new SimRedisServer({ scriptTiming: timing });
    evalAt(server, 0, SLOW);
    expect(server.execute(['SCRIPT', 'KILL'], 150)).toEqual(reply.ok());
    const last = server.scriptBusy.last();
    expect(last?.killedAtMs).toBe(150);
    expect(last?.reply).toEqual(reply.error(`ERR Script killed by user with SCRIPT KILL... script: ${sha1Hex(SLOW)}, on @user_script:1.`));
    expect(server.execute(['PING'], 150)).toEqual(reply.status('PONG'));
    expect(server.execute(['SCRIPT', 'KILL'], 151)).toEqual(reply.error('NOTBUSY No scripts in execution right now.'));
  });

  it('SCRIPT KILL is refused once the script wrote', () => {
    const server = new SimRedisServer({ scriptTiming: timing });
    evalAt(server, 0, SLOW_WRITE);
    expect(server.execute(['SCRIPT', 'KILL'], 150)).toEqual(
      reply.error(
        'UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.',
      ),
    );
    expect(server.execute(['GET', 'w'], 150)).toEqual(BUSY);
  });

  it('keeps lock scripts instantaneous at the default rate', () => {
    const server = new SimRedisServer();
    server.execute(['SET', 'lock', 'tok'], 0);
    evalAt(server, 0, "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end");
    expect(server.scriptBusy.running(0)).toBeNull();
  });

  it('maps instructions to whole milliseconds at the configured rate', () => {
    expect(scriptDurationMs(0, timing)).toBe(0);
    expect(scriptDurationMs(999, timing)).toBe(0);
    expect(scriptDurationMs(1_000, timing)).toBe(1);
    expect(scriptDurationMs(2_999, timing)).toBe(2);
  });

  it('carries a running script through a snapshot', () => {
    const server = new SimRedisServer({ scriptTiming: timing });
    evalAt(server, 0, SLOW);
    const snapshot = server.snapshot();
    const copy = new SimRedisServer({ scriptTiming: timing });
    copy.restore(snapshot);
    expect(copy.execute(['PING'], 150)).toEqual(BUSY);
  });
});

describe('isolation and time', () => {
  it('freezes time for the whole script', () => {
    const server = new SimRedisServer();
    const result = evalAt(server, 1_234_567, "local a = redis.call('time') local b = redis.call('time') return {a[1], a[2], b[1] == a[1] and b[2] == a[2]}");
    // TIME is the server's Unix clock: its epoch plus the virtual time.
    expect(result).toEqual(reply.array([reply.bulk(String((DEFAULT_UNIX_EPOCH_MS + 1_234_000) / 1000)), reply.bulk('567000'), reply.integer(1)]));
  });

  it('lets no script leave state for the next one', () => {
    const server = new SimRedisServer();
    const attempts = [
      'x = 1',
      'rawset(_G, "x", 1)',
      'string.x = 1',
      "getmetatable('').x = 1",
      'setmetatable(_G, nil)',
      'table.insert(redis, 1)',
      'cjson.x = 1',
    ];
    for (const script of attempts) expect(evalAt(server, 0, script).type).toBe('error');
    expect(evalAt(server, 0, "return {rawget(_G, 'x'), string.x, getmetatable('').x, cjson.x, #redis}")).toEqual(reply.array([]));
    expect(evalAt(server, 0, 'return type(getmetatable(_G).__index)')).toEqual(reply.bulk('function'));
  });

  it('gives each EVAL fresh KEYS and ARGV', () => {
    const server = new SimRedisServer();
    server.execute(['EVAL', 'KEYS[2] = "extra" return #KEYS', '1', 'a'], 0);
    expect(server.execute(['EVAL', 'return {#KEYS, #ARGV}', '1', 'b', 'c', 'd'], 0)).toEqual(reply.array([reply.integer(1), reply.integer(2)]));
  });
});

describe('number formatting (C printf, glibc rounding)', () => {
  it('matches glibc on ties and exponents (values checked with printf(1))', () => {
    expect(formatG(123456789012345, 14)).toBe('1.2345678901234e+14');
    expect(formatG(0.1, 17)).toBe('0.10000000000000001');
    expect(formatG(2 ** 55, 17)).toBe('36028797018963968');
    expect(formatG(5e-324, 17)).toBe('4.9406564584124654e-324');
    expect(formatFixed(2.5, 0)).toBe('2');
    expect(formatFixed(1.25, 1)).toBe('1.2');
    expect(formatFixed(9.999, 2)).toBe('10.00');
    expect(formatLuaNumber(4 / 2)).toBe('2');
    expect(formatLuaNumber(-0)).toBe('-0');
    expect(formatLuaNumber(1 / 0)).toBe('inf');
  });

  it('%.17g round-trips every finite double (seed pinned)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(Number(formatArgumentNumber(n))).toBe(n);
      }),
      { seed: 1701, numRuns: runs(2_000) },
    );
  });

  it('%.14g agrees with toPrecision(14) away from ties (seed pinned)', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }), (n) => {
        // Skip exact ties at the 14th digit, where JS rounds away from zero and C to even.
        const digits = Math.abs(n).toExponential(60).replace('.', '').split('e')[0];
        fc.pre(!(digits[14] === '5' && /^0*$/.test(digits.slice(15))));
        expect(Number(formatG(n, 14)) === Number(n.toPrecision(14))).toBe(true);
      }),
      { seed: 1702, numRuns: runs(2_000) },
    );
  });
});
