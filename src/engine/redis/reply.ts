import { displayBytes, quoteForDisplay } from './commands/bytes';

/**
 * A Redis reply, typed like RESP2 so a learner can tell `+OK` (status) from `$2 OK` (bulk).
 * Integers are decimal strings: Redis integers are 64-bit and must stay exact in JSON traces.
 */
export type Reply =
  | { readonly type: 'status'; readonly value: string }
  | { readonly type: 'bulk'; readonly value: string }
  | { readonly type: 'integer'; readonly value: string }
  | { readonly type: 'nil' }
  | { readonly type: 'array'; readonly value: readonly Reply[] }
  | { readonly type: 'error'; readonly value: string };

export type ReplyType = Reply['type'];

export const reply = {
  status: (value: string): Reply => ({ type: 'status', value }),
  ok: (): Reply => ({ type: 'status', value: 'OK' }),
  bulk: (value: string): Reply => ({ type: 'bulk', value }),
  integer: (value: number | bigint | string): Reply => ({ type: 'integer', value: integerText(value) }),
  nil: (): Reply => NIL,
  array: (value: readonly Reply[]): Reply => ({ type: 'array', value }),
  error: (value: string): Reply => ({ type: 'error', value }),
};

const NIL: Reply = Object.freeze({ type: 'nil' });

function integerText(value: number | bigint | string): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return BigInt(value).toString();
  if (!Number.isSafeInteger(value)) throw new Error(`integer reply is not a safe integer: ${value}`);
  return String(value);
}

export function isNil(r: Reply): r is { type: 'nil' } {
  return r.type === 'nil';
}

export function isError(r: Reply): r is { type: 'error'; value: string } {
  return r.type === 'error';
}

/** The reply as the text a program compares against: bulk/status/integer value, '' for nil. */
export function replyText(r: Reply): string | null {
  switch (r.type) {
    case 'status':
    case 'bulk':
    case 'integer':
    case 'error':
      return r.value;
    case 'nil':
      return null;
    case 'array':
      return null;
  }
}

/**
 * One-line compact rendering for timelines: `OK`, `"tok"`, `1`, `nil`, `[1, "a"]`, `ERR ...`.
 * Bytes that are not valid UTF-8 show as `\xHH` (commands/bytes.ts displayBytes).
 */
export function formatReplyShort(r: Reply): string {
  switch (r.type) {
    case 'status':
      return displayBytes(r.value);
    case 'bulk':
      return quoteForDisplay(r.value);
    case 'integer':
      return r.value;
    case 'nil':
      return 'nil';
    case 'error':
      return displayBytes(r.value);
    case 'array':
      return `[${r.value.map(formatReplyShort).join(', ')}]`;
  }
}
