import { ExpressionError, type Expr, type Literal } from './ast';
import { EVALUATION_STEP_COUNT_MAX } from './limits';

/**
 * Evaluates `expr` against `context` (plain objects and arrays). Paths that lead nowhere read as
 * null; `and`/`or`/`not` take truthiness (false, null, 0 and "" are false); `<`-style comparisons
 * compare two numbers or two strings and are false otherwise. Integers arrive as text from Redis,
 * so a number compared with a numeric string compares as numbers.
 */
export function evaluateExpression(expr: Expr, context: unknown): Literal {
  const budget = { stepsLeft: EVALUATION_STEP_COUNT_MAX };
  return evaluate(expr, context, budget);
}

/** Whether the expression holds (its value is truthy). */
export function holds(expr: Expr, context: unknown): boolean {
  return truthy(evaluateExpression(expr, context));
}

function evaluate(expr: Expr, context: unknown, budget: { stepsLeft: number }): Literal {
  if (--budget.stepsLeft < 0) throw new ExpressionError(`more than ${EVALUATION_STEP_COUNT_MAX} evaluation steps`, 1);
  switch (expr.type) {
    case 'literal':
      return expr.value;
    case 'path':
      return readPath(context, expr.steps);
    case 'not':
      return !truthy(evaluate(expr.operand, context, budget));
    case 'and':
      return truthy(evaluate(expr.left, context, budget)) && truthy(evaluate(expr.right, context, budget));
    case 'or':
      return truthy(evaluate(expr.left, context, budget)) || truthy(evaluate(expr.right, context, budget));
    case 'compare':
      return compare(expr.op, evaluate(expr.left, context, budget), evaluate(expr.right, context, budget));
  }
}

function readPath(context: unknown, steps: readonly (string | number)[]): Literal {
  let at: unknown = context;
  for (const step of steps) {
    if (at === null || typeof at !== 'object') return null;
    // Own fields only: a path never reaches a prototype (`constructor`, `__proto__`).
    if (!Object.hasOwn(at, step)) return null;
    at = (at as Record<string | number, unknown>)[step];
  }
  if (at === undefined || at === null || typeof at === 'object' || typeof at === 'function') return null;
  return at as Literal;
}

function truthy(value: Literal): boolean {
  return value !== false && value !== null && value !== 0 && value !== '';
}

function compare(op: string, left: Literal, right: Literal): boolean {
  const [a, b] = numericPair(left, right);
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
  }
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))) return false;
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

/** A number beside a numeric string: both as numbers (Redis integer replies are text). */
function numericPair(left: Literal, right: Literal): [Literal, Literal] {
  const numeric = (v: Literal) => typeof v === 'string' && /^-?[0-9]+(\.[0-9]+)?$/.test(v);
  if (typeof left === 'number' && numeric(right)) return [left, Number(right)];
  if (typeof right === 'number' && numeric(left)) return [Number(left), right];
  return [left, right];
}
