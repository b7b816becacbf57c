import type { Arg } from './commands';

/**
 * The `redis.call(...)` and `redis.pcall(...)` calls written in a Lua script's source, each as its
 * argument list: quoted strings as literals, anything else as expressions. A replay uses this to
 * check that a script reaches keys only through KEYS (so the key prefix covers them) and passes
 * durations only through ARGV positions its ScriptSpec marks (so the time scale covers them).
 *
 * It reads the source, it does not run it: a call it cannot read (redis.call kept in a variable, a
 * long string, an unbalanced parenthesis) is reported, and the replay refuses the script.
 */
export type LuaCalls = { readonly calls: readonly (readonly Arg[])[] } | { readonly refusal: string };

export function luaRedisCalls(source: string): LuaCalls {
  const calls: Arg[][] = [];
  let i = 0;
  while (i < source.length) {
    const skipped = skipCommentOrString(source, i);
    if (skipped === null) return { refusal: 'it uses a Lua long string or comment the replay does not read' };
    if (skipped > i) {
      i = skipped;
      continue;
    }
    const match = /^redis\s*\.\s*(p?call)\b/.exec(source.slice(i, i + 40));
    if (match && (i === 0 || !/[A-Za-z0-9_.]/.test(source[i - 1]))) {
      let j = i + match[0].length;
      while (/\s/.test(source[j] ?? '')) j++;
      if (source[j] !== '(') return { refusal: `it uses redis.${match[1]} other than as a direct call` };
      const parsed = callArgs(source, j + 1);
      if (parsed === null) return { refusal: `a redis.${match[1]} call whose arguments the replay cannot read` };
      calls.push(parsed.args);
      // Nested calls (redis.call inside an argument) are read from inside the argument list too.
      i = j + 1;
      continue;
    }
    i++;
  }
  return { calls };
}

/** Position after a comment or quoted string starting at `i`, `i` when none starts there, null for long brackets. */
function skipCommentOrString(source: string, i: number): number | null {
  const c = source[i];
  if (c === '-' && source[i + 1] === '-') {
    if (source[i + 2] === '[' && /^\[=*\[/.test(source.slice(i + 2, i + 40))) return null;
    const end = source.indexOf('\n', i);
    return end < 0 ? source.length : end + 1;
  }
  if (c === '[' && /^\[=*\[/.test(source.slice(i, i + 40))) return null;
  if (c === '"' || c === "'") {
    const end = stringEnd(source, i);
    return end ?? source.length;
  }
  return i;
}

/** Index just past the quoted string starting at `i`, or null if it does not end. */
function stringEnd(source: string, i: number): number | null {
  const quote = source[i];
  for (let j = i + 1; j < source.length; j++) {
    if (source[j] === '\\') j++;
    else if (source[j] === quote) return j + 1;
    else if (source[j] === '\n') return null;
  }
  return null;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', "'": "'" };

function unquote(text: string): string | null {
  let out = '';
  for (let j = 1; j < text.length - 1; j++) {
    if (text[j] !== '\\') {
      out += text[j];
      continue;
    }
    const escaped = ESCAPES[text[j + 1]];
    if (escaped === undefined) return null;
    out += escaped;
    j++;
  }
  return out;
}

/** The arguments of a call whose `(` is just before `start`, split at top-level commas. */
function callArgs(source: string, start: number): { args: Arg[] } | null {
  const args: Arg[] = [];
  let depth = 0;
  let argStart = start;
  const push = (end: number) => {
    const text = source.slice(argStart, end).trim();
    if (text === '') return;
    const quoted = /^(["'])/.test(text) && stringEnd(text, 0) === text.length;
    const literal = quoted ? unquote(text) : null;
    args.push(literal !== null ? { literal } : { expr: text.replace(/\s+/g, '') });
  };
  for (let i = start; i < source.length; i++) {
    const skipped = skipCommentOrString(source, i);
    if (skipped === null) return null;
    if (skipped > i) {
      i = skipped - 1;
      continue;
    }
    const c = source[i];
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) {
        if (c !== ')') return null;
        push(i);
        return { args };
      }
      depth--;
    } else if (c === ',' && depth === 0) {
      push(i);
      argStart = i + 1;
    }
  }
  return null;
}
