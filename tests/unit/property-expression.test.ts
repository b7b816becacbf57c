// Goal: the property language parses what its grammar says, reports errors by column, evaluates
// against a trace event's context, never throws anything but its own error, and prints text that
// parses back to the same tree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExpressionError, evaluateExpression, holds, parseExpression, printExpression, type Expr } from '../../src/engine/properties';
import { runs } from '../support/size';
import { EXPRESSION_DEPTH_MAX, EXPRESSION_LENGTH_MAX_CHARS } from '../../src/engine/properties/limits';

const ctx = {
  event: { kind: 'command', client: 'A', command: 'DEL', args: ['lock', 'x'], reply: '1', atMs: 10 },
  lock: { before: 'tok-b', after: null, holder: 'B' },
};

function errorOf(text: string): ExpressionError {
  try {
    parseExpression(text);
  } catch (e) {
    if (e instanceof ExpressionError) return e;
    throw e;
  }
  throw new Error(`parsed: ${text}`);
}

describe('property expressions', () => {
  it('evaluates paths, comparisons and logic', () => {
    expect(holds(parseExpression('event.command == "DEL" and event.client != lock.holder'), ctx)).toBe(true);
    expect(holds(parseExpression('not (event.kind == "command") or lock.after == null'), ctx)).toBe(true);
    expect(evaluateExpression(parseExpression('event.args[0]'), ctx)).toBe('lock');
    expect(evaluateExpression(parseExpression('event.args[7]'), ctx)).toBe(null);
    expect(holds(parseExpression('event.reply == 1 and event.atMs >= 10 and event.atMs < 11'), ctx)).toBe(true);
    expect(holds(parseExpression('event.nothing.deeper'), ctx)).toBe(false);
    expect(evaluateExpression(parseExpression('event.constructor'), ctx)).toBe(null);
  });

  it('gives errors with their column', () => {
    expect(errorOf('event.kind == "x")').message).toBe('unexpected ")" at column 18');
    expect(errorOf('event.kind ==').message).toBe('unexpected end at column 14');
    expect(errorOf('"abc').message).toBe('unterminated string at column 1');
    expect(errorOf('a $ b').column).toBe(3);
    expect(errorOf('x'.repeat(EXPRESSION_LENGTH_MAX_CHARS + 1)).reason).toMatch(/longer than/);
    expect(errorOf('('.repeat(EXPRESSION_DEPTH_MAX + 1) + 'a' + ')'.repeat(EXPRESSION_DEPTH_MAX + 1)).reason).toMatch(/nested deeper/);
  });

  it('fuzz: arbitrary text parses or throws ExpressionError, nothing else', () => {
    const pieces = fc.constantFrom('event', '.', 'kind', '[', ']', '(', ')', '==', '!=', '<', 'and', 'or', 'not', '"s"', "'", '1', '-', ' ', 'null', 'true', '\\');
    const text = fc.oneof(fc.string({ maxLength: 80 }), fc.array(pieces, { maxLength: 40 }).map((a) => a.join('')));
    fc.assert(
      fc.property(text, (t) => {
        try {
          const expr = parseExpression(t);
          evaluateExpression(expr, ctx);
        } catch (e) {
          if (!(e instanceof ExpressionError)) throw e;
        }
      }),
      { seed: 25, numRuns: runs(2000) },
    );
  });

  it('round-trips: print then parse gives the same tree', () => {
    const name = fc.constantFrom('event', 'lock', 'kind', 'args', 'holder', 'x_1');
    const leaf: fc.Arbitrary<Expr> = fc.oneof(
      fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.string({ maxLength: 6 }), fc.boolean(), fc.constant(null)).map((value) => ({ type: 'literal' as const, value })),
      fc.tuple(name, fc.array(fc.oneof(name, fc.nat({ max: 9 })), { maxLength: 3 })).map(([first, rest]) => ({ type: 'path' as const, steps: [first, ...rest] })),
    );
    const expr = fc.letrec<{ e: Expr }>((tie) => ({
      e: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        tie('e').map((operand) => ({ type: 'not' as const, operand })),
        fc.tuple(fc.constantFrom('and' as const, 'or' as const), tie('e'), tie('e')).map(([type, left, right]) => ({ type, left, right })),
        fc.tuple(fc.constantFrom('==' as const, '!=' as const, '<' as const, '<=' as const, '>' as const, '>=' as const), leaf, leaf).map(([op, left, right]) => ({ type: 'compare' as const, op, left, right })),
      ),
    })).e;
    fc.assert(
      fc.property(expr, (e) => {
        const text = printExpression(e);
        fc.pre(text.length <= EXPRESSION_LENGTH_MAX_CHARS);
        let parsed: Expr;
        try {
          parsed = parseExpression(text);
        } catch (err) {
          // Only the bounds may refuse a printed tree.
          fc.pre(!(err instanceof ExpressionError && /deeper|tokens/.test(err.reason)));
          throw err;
        }
        expect(parsed).toEqual(e);
      }),
      { seed: 25, numRuns: runs(500) },
    );
  });
});
