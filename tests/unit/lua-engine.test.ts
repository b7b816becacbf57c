import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reply, type Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';
import { sha1Hex } from '../../src/engine/redis/lua/sha1';
import { runs } from '../support/size';

// Goal: the scripting layer answers like Redis 7.0 for what a lock lesson shows: EVAL of the
// compare-and-delete unlock, caching by SHA1, and the value conversions both ways.

const UNLOCK = "if redis.call('get',KEYS[1]) == ARGV[1] then return redis.call('del',KEYS[1]) else return 0 end";
const NOW_MS = 1_000;

function server(): SimRedisServer {
  return new SimRedisServer();
}

function run(s: SimRedisServer, ...argv: string[]): Reply {
  return s.execute(argv, NOW_MS);
}

function evalScript(s: SimRedisServer, script: string, keys: string[] = [], args: string[] = []): Reply {
  return run(s, 'EVAL', script, String(keys.length), ...keys, ...args);
}

describe('sha1Hex', () => {
  it('matches known vectors', () => {
    expect(sha1Hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1Hex('abc')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    // The id a real Redis 7.0 gave `return 1` (SCRIPT LOAD).
    expect(sha1Hex('return 1')).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
  });

  it('agrees with node:crypto on any text (seed pinned)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(sha1Hex(text)).toBe(createHash('sha1').update(text, 'utf8').digest('hex'));
      }),
      { seed: 20240601, numRuns: runs(300) },
    );
  });
});

describe('EVAL unlock script', () => {
  it('deletes the lock only for the owner token', () => {
    const s = server();
    run(s, 'SET', 'lock', 'tok');
    expect(evalScript(s, UNLOCK, ['lock'], ['other'])).toEqual(reply.integer(0));
    expect(run(s, 'GET', 'lock')).toEqual(reply.bulk('tok'));
    expect(evalScript(s, UNLOCK, ['lock'], ['tok'])).toEqual(reply.integer(1));
    expect(run(s, 'EXISTS', 'lock')).toEqual(reply.integer(0));
    expect(evalScript(s, UNLOCK, ['lock'], ['tok'])).toEqual(reply.integer(0));
  });

  it('caches by SHA1: EVALSHA works after EVAL and SCRIPT LOAD, NOSCRIPT before', () => {
    const s = server();
    const sha = sha1Hex(UNLOCK);
    expect(run(s, 'EVALSHA', sha, '1', 'lock', 'tok')).toEqual(reply.error('NOSCRIPT No matching script. Please use EVAL.'));
    expect(run(s, 'SCRIPT', 'EXISTS', sha, 'ffff')).toEqual(reply.array([reply.integer(0), reply.integer(0)]));
    expect(run(s, 'SCRIPT', 'LOAD', UNLOCK)).toEqual(reply.bulk(sha));
    run(s, 'SET', 'lock', 'tok');
    expect(run(s, 'EVALSHA', sha.toUpperCase(), '1', 'lock', 'tok')).toEqual(reply.integer(1));
    expect(run(s, 'SCRIPT', 'FLUSH')).toEqual(reply.ok());
    expect(run(s, 'SCRIPT', 'EXISTS', sha)).toEqual(reply.array([reply.integer(0)]));
  });

  it('round-trips the cache through a server snapshot', () => {
    const s = server();
    run(s, 'SCRIPT', 'LOAD', UNLOCK);
    const snapshot = s.snapshot();
    expect(Object.values(snapshot.scripts)).toEqual([UNLOCK]);
    run(s, 'SCRIPT', 'FLUSH');
    s.restore(snapshot);
    expect(run(s, 'EVALSHA', sha1Hex(UNLOCK), '1', 'lock', 'tok')).toEqual(reply.integer(0));
  });
});

describe('Lua -> Redis conversion', () => {
  const cases: [string, Reply][] = [
    ['return 2.7', reply.integer(2)],
    ['return -2.7', reply.integer(-2)],
    ['return true', reply.integer(1)],
    ['return false', reply.nil()],
    ['return nil', reply.nil()],
    ['local x = 1', reply.nil()],
    ["return 'hi'", reply.bulk('hi')],
    ['return {1, 2, nil, 3}', reply.array([reply.integer(1), reply.integer(2)])],
    ["local t = {} table.insert(t, 'a') t[#t + 1] = 'b' return t", reply.array([reply.bulk('a'), reply.bulk('b')])],
    ["return {ok = 'fine'}", reply.status('fine')],
    ["return {err = 'foo bar'}", reply.error('foo bar')],
    ["return {err = '-X y'}", reply.error('-X y')],
    ["return redis.error_reply('My Error')", reply.error('My Error')],
    ["return redis.error_reply('oops')", reply.error('ERR oops')],
    ["return redis.status_reply('FINE')", reply.status('FINE')],
    ['return redis.status_reply()', reply.error('ERR wrong number or type of arguments')],
    ['return 1e20', reply.integer('-9223372036854775808')],
    ['return 2^53 + 1', reply.integer('9007199254740992')],
    ["return {1, {2, 'x'}, {ok = 'OK'}}", reply.array([reply.integer(1), reply.array([reply.integer(2), reply.bulk('x')]), reply.status('OK')])],
  ];
  for (const [script, expected] of cases) {
    it(`${script} -> ${JSON.stringify(expected)}`, () => {
      expect(evalScript(server(), script)).toEqual(expected);
    });
  }
});

describe('Redis -> Lua conversion', () => {
  it('maps integer, bulk, nil, status, error and array replies', () => {
    const s = server();
    run(s, 'SET', 'k', 'v');
    run(s, 'HSET', 'h', 'f', 'x');
    const script = `
      local out = {}
      out[1] = type(redis.call('exists', 'k'))
      out[2] = redis.call('get', 'k')
      out[3] = tostring(redis.call('get', 'missing'))
      out[4] = redis.call('set', 'k2', 'v').ok
      out[5] = redis.pcall('hget', 'k', 'f').err
      out[6] = #redis.call('hgetall', 'h')
      return out`;
    expect(evalScript(s, script)).toEqual(
      reply.array([
        reply.bulk('number'),
        reply.bulk('v'),
        reply.bulk('false'),
        reply.bulk('OK'),
        reply.bulk('WRONGTYPE Operation against a key holding the wrong kind of value'),
        reply.integer(2),
      ]),
    );
  });

  it('KEYS and ARGV hold the arguments, split by numkeys', () => {
    expect(evalScript(server(), 'return {KEYS[1], KEYS[2], ARGV[1], #ARGV}', ['a', 'b'], ['c'])).toEqual(
      reply.array([reply.bulk('a'), reply.bulk('b'), reply.bulk('c'), reply.integer(1)]),
    );
  });
});

describe('EVAL argument and script errors', () => {
  it('checks numkeys like Redis', () => {
    const s = server();
    expect(run(s, 'EVAL', 'return 1', '2', 'a')).toEqual(reply.error("ERR Number of keys can't be greater than number of args"));
    expect(run(s, 'EVAL', 'return 1', '-1', 'a')).toEqual(reply.error("ERR Number of keys can't be negative"));
    expect(run(s, 'EVAL', 'return 1', 'abc')).toEqual(reply.error('ERR value is not an integer or out of range'));
    expect(run(s, 'EVAL', 'return 1')).toEqual(reply.error("ERR wrong number of arguments for 'eval' command"));
  });

  it('stops at a failing redis.call and reports where', () => {
    const s = server();
    const script = "redis.call('set', 'a', '1') redis.call('nosuch') redis.call('set', 'b', '1')";
    expect(evalScript(s, script)).toEqual(
      reply.error(`ERR Unknown Redis command called from script script: ${sha1Hex(script)}, on @user_script:1.`),
    );
    expect(run(s, 'EXISTS', 'a', 'b')).toEqual(reply.integer(1));
  });

  it('refuses scripting commands inside a script', () => {
    const script = "return redis.call('eval', 'return 1', 0)";
    expect(evalScript(server(), script)).toEqual(
      reply.error(`ERR This Redis command is not allowed from script script: ${sha1Hex(script)}, on @user_script:1.`),
    );
  });

  it('reports compile errors without caching the script', () => {
    const s = server();
    expect(evalScript(s, 'return (')).toEqual(reply.error("ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"));
    expect(run(s, 'SCRIPT', 'EXISTS', sha1Hex('return ('))).toEqual(reply.array([reply.integer(0)]));
  });
});
