import { ExpressionError } from './ast';
import { EXPRESSION_LENGTH_MAX_CHARS, EXPRESSION_TOKEN_COUNT_MAX } from './limits';

export type TokenKind = 'number' | 'string' | 'name' | 'op' | '(' | ')' | '[' | ']' | '.' | 'end';

export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  /** The decoded value of a string or number token. */
  readonly value?: string | number;
  /** 1-based column of its first character. */
  readonly column: number;
}

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>'] as const;
const PUNCTUATION = new Set(['(', ')', '[', ']', '.']);

/** Splits `text` into tokens, ending with an `end` token; throws ExpressionError with the column. */
export function tokenize(text: string): Token[] {
  if (text.length > EXPRESSION_LENGTH_MAX_CHARS) throw new ExpressionError(`expression longer than ${EXPRESSION_LENGTH_MAX_CHARS} characters`, EXPRESSION_LENGTH_MAX_CHARS + 1);
  const tokens: Token[] = [];
  let i = 0;
  // Each pass consumes at least one character, so the loop runs at most text.length times.
  while (i < text.length) {
    const ch = text[i];
    const column = i + 1;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if (tokens.length >= EXPRESSION_TOKEN_COUNT_MAX) throw new ExpressionError(`more than ${EXPRESSION_TOKEN_COUNT_MAX} tokens`, column);
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op !== undefined) {
      tokens.push({ kind: 'op', text: op, column });
      i += op.length;
    } else if (PUNCTUATION.has(ch)) {
      tokens.push({ kind: ch as TokenKind, text: ch, column });
      i++;
    } else if (ch === '"' || ch === "'") {
      const [value, end] = readString(text, i);
      tokens.push({ kind: 'string', text: text.slice(i, end), value, column });
      i = end;
    } else if (/[0-9-]/.test(ch)) {
      const match = /^-?[0-9]+(\.[0-9]+)?/.exec(text.slice(i));
      if (match === null) throw new ExpressionError(`unexpected "${ch}"`, column);
      tokens.push({ kind: 'number', text: match[0], value: Number(match[0]), column });
      i += match[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i)) as RegExpExecArray;
      tokens.push({ kind: 'name', text: match[0], column });
      i += match[0].length;
    } else {
      throw new ExpressionError(`unexpected ${JSON.stringify(ch)}`, column);
    }
  }
  tokens.push({ kind: 'end', text: '', column: text.length + 1 });
  return tokens;
}

/** A quoted string from `start` (its quote): backslash escapes the next character. Returns the value and the index after it. */
function readString(text: string, start: number): [string, number] {
  const quote = text[start];
  let value = '';
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === quote) return [value, i + 1];
    if (ch === '\\') {
      if (i + 1 >= text.length) break;
      value += text[i + 1];
      i++;
    } else {
      value += ch;
    }
  }
  throw new ExpressionError('unterminated string', start + 1);
}
