import type { Expr, Literal } from './ast';

/** Canonical text of an expression: fully parenthesized, so parsing it gives the same tree. */
export function printExpression(expr: Expr): string {
  switch (expr.type) {
    case 'literal':
      return printLiteral(expr.value);
    case 'path':
      return expr.steps.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
    case 'not':
      return `not ${printOperand(expr.operand)}`;
    case 'and':
    case 'or':
      return `${printOperand(expr.left)} ${expr.type} ${printOperand(expr.right)}`;
    case 'compare':
      return `${printOperand(expr.left)} ${expr.op} ${printOperand(expr.right)}`;
  }
}

function printOperand(expr: Expr): string {
  return expr.type === 'literal' || expr.type === 'path' ? printExpression(expr) : `(${printExpression(expr)})`;
}

function printLiteral(value: Literal): string {
  if (typeof value === 'string') return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return String(value);
}
