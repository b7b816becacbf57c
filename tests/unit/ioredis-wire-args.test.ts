/**
 * Goal: the client turns a call's arguments into the wire's strings exactly as ioredis 5.11.1's
 * own Command class does (flattening one level, the mset/msetnx/hset/hmset object and Map forms by
 * exact name, null and undefined as '', numbers and booleans with String()). Each case runs
 * through ioredis's Command and through Lockstep's wireArgs; a mismatch names the case.
 */
import Command from 'ioredis/built/Command';
import { describe, expect, it } from 'vitest';
import { wireArgs } from '../../src/api/async/ioredis-wire';

const CASES: [string, unknown[]][] = [
  ['set', ['k', 'v', 'PX', 5000, 'NX']],
  ['set', ['k', 1.5]],
  ['set', ['k', 1e21]],
  ['set', ['k', -0]],
  ['set', ['k', null]],
  ['set', ['k', undefined]],
  ['set', ['k', true]],
  ['del', [['a', 'b'], 'c']],
  ['del', [['a', ['b', 'c']]]],
  ['mset', [{ a: 1, b: 'two' }]],
  ['mset', [new Map<unknown, unknown>([['a', 1], [2, 'b']])]],
  ['msetnx', [{ a: null }]],
  ['mset', ['a', { b: 1 }]],
  ['MSET', [{ a: 1 }]],
  ['hset', ['h', { f: 1, g: 'x' }]],
  ['hset', ['h', new Map([['f', 1]])]],
  ['hmset', ['h', { f: 1 }]],
  ['hset', ['h', 'f', { nested: 1 }]],
  ['evalsha', ['sha', 1, 'k', 'token', 5000]],
  ['rpush', ['l', ['a', 'b'], 'c', 7]],
];

describe('arguments on the wire, against ioredis 5.11.1\'s Command', () => {
  for (const [name, args] of CASES) {
    it(`${name}(${JSON.stringify(args, (_k, v: unknown) => (v instanceof Map ? [...v] : v === undefined ? '<undefined>' : v))})`, () => {
      const ioredis = new Command(name, args.map((a) => (a instanceof Map ? new Map(a) : a)) as never);
      expect(wireArgs(name, args)).toEqual(ioredis.args);
    });
  }
});
