import { formatReplyShort, type Reply } from '../store/published';

/**
 * Text with its tokens and scripts marked, so a view can write `<A's token>` in A's colour and a
 * Lua source as a short placeholder. Plain strings are literal text.
 */
export type TextPart = string | { readonly owner: string } | { readonly script: string };

/** Splits strings around known tokens. Built once per run: one regex over every token. */
export interface TokenSplitter {
  split(text: string): TextPart[];
  ownerOf(value: string): string | null;
}

const NO_TOKENS: TokenSplitter = { split: (text) => (text === '' ? [] : [text]), ownerOf: () => null };

export function tokenSplitter(tokenOwners: Readonly<Record<string, string>>): TokenSplitter {
  const tokens = Object.keys(tokenOwners)
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length);
  if (tokens.length === 0) return NO_TOKENS;
  const pattern = new RegExp(`(${tokens.map(escapeRegExp).join('|')})`);
  // A run repeats the same few strings (keys, tokens, replies) thousands of times: split each once.
  const cache = new Map<string, TextPart[]>();
  const cacheSizeMax = 4096;
  return {
    split(text) {
      const cached = cache.get(text);
      if (cached) return cached;
      const out: TextPart[] = [];
      // split with one capture group alternates literal text and tokens.
      const pieces = text.split(pattern);
      for (let i = 0; i < pieces.length; i++) {
        const piece = pieces[i];
        if (i % 2 === 1) out.push({ owner: tokenOwners[piece] });
        else if (piece !== '') out.push(piece);
      }
      if (cache.size < cacheSizeMax) cache.set(text, out);
      return out;
    },
    ownerOf: (value) => tokenOwners[value] ?? null,
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function quoteArg(arg: string): string {
  return /\s/.test(arg) || arg === '' ? JSON.stringify(arg) : arg;
}

/** A command as a learner reads it: tokens named, a Lua source replaced by a script placeholder. */
export function commandParts(argv: readonly string[], splitter: TokenSplitter): TextPart[] {
  const out: TextPart[] = [];
  const verb = (argv[0] ?? '').toUpperCase();
  argv.forEach((arg, i) => {
    if (i > 0) out.push(' ');
    if (i === 1 && verb === 'EVAL') out.push({ script: arg });
    else if (i === 1 && verb === 'EVALSHA') out.push(arg.length > 12 ? `${arg.slice(0, 8)}…` : arg);
    else out.push(...splitter.split(quoteArg(arg)));
  });
  return mergeStrings(out);
}

/** A reply in short form; a bulk reply that is exactly a token reads as the token's name. */
export function replyParts(reply: Reply, splitter: TokenSplitter): TextPart[] {
  if (reply.type === 'bulk') {
    const owner = splitter.ownerOf(reply.value);
    if (owner !== null) return [{ owner }];
  }
  return splitter.split(formatReplyShort(reply));
}

function mergeStrings(parts: TextPart[]): TextPart[] {
  const out: TextPart[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (typeof part === 'string' && typeof last === 'string') out[out.length - 1] = last + part;
    else out.push(part);
  }
  return out;
}

/** Plain text of parts, with the caller's words for a token and a script. */
export function partsText(
  parts: readonly TextPart[],
  tokenName: (owner: string) => string,
  scriptName: (source: string) => string,
): string {
  let out = '';
  for (const part of parts) {
    if (typeof part === 'string') out += part;
    else if ('owner' in part) out += tokenName(part.owner);
    else out += scriptName(part.script);
  }
  return out;
}
