import { encodeString } from './bytes';
import { xxh3 } from './xxh3';

/**
 * Redis 8.4's value digest (DIGEST, and the IFDEQ/IFDNE conditions of SET and DELEX): XXH3-64 of
 * the value's bytes as 16 lower-case hex characters. Checked against redis.io/commands/digest:
 * `SET key1 "Hello world"` then `DIGEST key1` answers "b6acb9d84a38ff74".
 */
export function digestOf(value: string): string {
  return xxh3(encodeString(value)).toString(16).padStart(16, '0');
}

/**
 * A digest argument in canonical form (lower case), or null when it is not exactly 16 hex
 * characters, which Redis refuses (PR #14502, in 8.4.0); the comparison is case-insensitive.
 */
export function parseDigest(text: string): string | null {
  return /^[0-9a-fA-F]{16}$/.test(text) ? text.toLowerCase() : null;
}
