import { ExpressionError, type ComparisonOp, type Expr, type PathStep } from './ast';
import { EXPRESSION_DEPTH_MAX } from './limits';
import { tokenize, type Token } from './tokenize';

/**
 * Grammar (recursive descent, lowest precedence first):
 *   or      := and ("or" and)*
 *   and     := not ("and" not)*
 *   not     := "not" not | compare
 *   compare := primary (("==" | "!=" | "<" | "<=" | ">" | ">=") primary)?
 *   primary := number | string | "true" | "false" | "null" | path | "(" or ")"
 *   path    := name ("." name | "[" integer "]")*
 */
export function parseExpression(text: string): Expr {
  const parser = new Parser(tokenize(text));
  const expr = parser.or(0);
  parser.expectEnd();
  return expr;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'true', 'false', 'null']);

class Parser {
  private at = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  or(depth: number): Expr {
    let left = this.and(depth);
    while (this.isName('or')) {
      this.at++;
      left = { type: 'or', left, right: this.and(depth) };
    }
    return left;
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.kind !== 'end') throw unexpected(token);
  }

  private and(depth: number): Expr {
    let left = this.not(depth);
    while (this.isName('and')) {
      this.at++;
      left = { type: 'and', left, right: this.not(depth) };
    }
    return left;
  }

  private not(depth: number): Expr {
    if (this.isName('not')) {
      const token = this.next();
      if (depth + 1 > EXPRESSION_DEPTH_MAX) throw new ExpressionError(`nested deeper than ${EXPRESSION_DEPTH_MAX}`, token.column);
      return { type: 'not', operand: this.not(depth + 1) };
    }
    return this.compare(depth);
  }

  private compare(depth: number): Expr {
    const left = this.primary(depth);
    const token = this.peek();
    if (token.kind !== 'op') return left;
    this.at++;
    const right = this.primary(depth);
    return { type: 'compare', op: token.text as ComparisonOp, left, right };
  }

  private primary(depth: number): Expr {
    const token = this.next();
    if (token.kind === 'number' || token.kind === 'string') return { type: 'literal', value: token.value as string | number };
    if (token.kind === '(') {
      if (depth + 1 > EXPRESSION_DEPTH_MAX) throw new ExpressionError(`nested deeper than ${EXPRESSION_DEPTH_MAX}`, token.column);
      const inner = this.or(depth + 1);
      const close = this.next();
      if (close.kind !== ')') throw unexpected(close, 'expected ")"');
      return inner;
    }
    if (token.kind === 'name') {
      if (token.text === 'true' || token.text === 'false') return { type: 'literal', value: token.text === 'true' };
      if (token.text === 'null') return { type: 'literal', value: null };
      if (KEYWORDS.has(token.text)) throw unexpected(token);
      return this.path(token.text);
    }
    throw unexpected(token);
  }

  private path(first: string): Expr {
    const steps: PathStep[] = [first];
    // Each pass consumes tokens, and there are at most EXPRESSION_TOKEN_COUNT_MAX of them.
    for (;;) {
      const token = this.peek();
      if (token.kind === '.') {
        this.at++;
        const name = this.next();
        if (name.kind !== 'name' || KEYWORDS.has(name.text)) throw unexpected(name, 'expected a field name');
        steps.push(name.text);
      } else if (token.kind === '[') {
        this.at++;
        const index = this.next();
        if (index.kind !== 'number' || !Number.isInteger(index.value) || (index.value as number) < 0) throw unexpected(index, 'expected an index');
        const close = this.next();
        if (close.kind !== ']') throw unexpected(close, 'expected "]"');
        steps.push(index.value as number);
      } else {
        return { type: 'path', steps };
      }
    }
  }

  private peek(): Token {
    return this.tokens[this.at];
  }

  private next(): Token {
    const token = this.tokens[this.at];
    if (token.kind !== 'end') this.at++;
    return token;
  }

  private isName(text: string): boolean {
    const token = this.peek();
    return token.kind === 'name' && token.text === text;
  }
}

function unexpected(token: Token, expected?: string): ExpressionError {
  const what = token.kind === 'end' ? 'unexpected end' : `unexpected ${JSON.stringify(token.text)}`;
  return new ExpressionError(expected === undefined ? what : `${what} (${expected})`, token.column);
}
