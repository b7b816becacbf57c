import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHistoryLine } from '../../src/history/format';

/**
 * The history format's line reader: the hand-written fast path for command lines accepts exactly
 * what the valibot schema accepts, with the same output; problems name their line.
 */
// Mostly valid values, so that accepted lines are common and the edges still come up.
const name = fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 8 }) }, fc.constant(''), fc.constant(5), fc.string({ minLength: 199, maxLength: 202 }));
const time = fc.oneof({ weight: 12, arbitrary: fc.integer({ min: 0, max: 3 }) }, fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e13 }), fc.constant('1'), fc.constant(null));
const reply = fc.letrec((tie) => ({ r: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.array(tie('r'), { maxLength: 3 })) })).r;
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const commandish = fc.record(
  {
    client: name,
    conn: maybe(name),
    argv: fc.oneof({ weight: 6, arbitrary: fc.array(fc.string(), { minLength: 1, maxLength: 4 }) }, fc.constant([]), fc.constant(['SET', 3])),
    reply: maybe(reply),
    error: maybe(fc.string()),
    startMs: time,
    endMs: time,
    startWallMs: time,
    endWallMs: time,
    clock: maybe(name),
    extra: maybe(fc.string()),
  },
  { requiredKeys: ['client', 'argv', 'startMs', 'endMs', 'startWallMs', 'endWallMs'] },
);

describe('history format', () => {
  it('the fast path and the schema agree on every command-like object', () => {
    let accepted = 0;
    fc.assert(
      fc.property(commandish, (data) => {
        const json = JSON.stringify(data);
        const fast = parseHistoryLine(json, 7);
        const schema = parseHistoryLine(json, 7, false);
        if (schema !== null && 'kind' in schema) {
          accepted++;
          expect(fast).toEqual(schema);
        } else expect(fast !== null && 'kind' in fast).toBe(false);
      }),
      { numRuns: 1000 },
    );
    // The property saw both sides.
    expect(accepted).toBeGreaterThan(20);
  });

  it('names the problem and its line', () => {
    expect(parseHistoryLine('{"client":"A","argv":["GET"', 3)).toMatchObject({ line: 3, message: expect.stringMatching(/not JSON/) });
    expect(parseHistoryLine('[1]', 4)).toMatchObject({ line: 4, message: 'not a JSON object' });
    expect(parseHistoryLine('{"client":"A","argv":["GET"],"startMs":2,"endMs":1,"startWallMs":0,"endWallMs":0}', 5)).toMatchObject({ message: expect.stringMatching(/before startMs/) });
    expect(parseHistoryLine('{"client":"A","mark":"write","atMs":1,"atWallMs":1}', 6)).toMatchObject({ message: expect.stringMatching(/resource and token/) });
    expect(parseHistoryLine('{"hello":1}', 7)).toMatchObject({ message: expect.stringMatching(/neither a command/) });
    expect(parseHistoryLine('   ', 8)).toBeNull();
  });
});
