/** A script's first line: Redis 7's `#!lua flags=...` shebang (function_lua.c / eval.c). */

const SHEBANG_FLAGS = new Set(['no-writes', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys']);

/**
 * evalExtractShebangFlags: a script may start with `#!lua [flags=f1,f2]`. Returns the flags and
 * the shebang's length (the line is not compiled; its newline stays, so line numbers hold), or
 * Redis's error text.
 */
export function parseShebang(source: string): { flags: ReadonlySet<string> | null; length: number } | string {
  if (!source.startsWith('#!')) return { flags: null, length: 0 };
  const end = source.indexOf('\n');
  if (end < 0) return 'ERR Invalid script shebang';
  const parts = source.slice(0, end).split(/[ \t\r]+/).filter((part) => part.length > 0);
  if (parts.length === 0) return 'ERR Invalid engine in script shebang';
  if (parts[0] !== '#!lua') return `ERR Unexpected engine in script shebang: ${parts[0]}`;
  const flags = new Set<string>();
  for (const part of parts.slice(1)) {
    if (!part.startsWith('flags=')) return `ERR Unknown lua shebang option: ${part}`;
    const list = part.slice('flags='.length);
    // sdssplitlen: an empty list has no flags; an empty item between commas is an unknown flag.
    for (const flag of list.length === 0 ? [] : list.split(',')) {
      if (!SHEBANG_FLAGS.has(flag)) return `ERR Unexpected flag in script shebang: ${flag}`;
      flags.add(flag);
    }
  }
  return { flags, length: end };
}
