import { BLOCKING_COMMANDS } from './blocking';
import { CLIENT_COMMANDS } from './client';
import { CONNECTION_COMMANDS } from './connection';
import { delex, digest } from './delex';
import { HASH_COMMANDS } from './hashes';
import { KEY_COMMANDS } from './keys';
import { LIST_EDIT_COMMANDS } from './list-edits';
import { LIST_COMMANDS } from './lists';
import { PUBSUB_COMMANDS } from './pubsub';
import { SCAN_COMMANDS } from './scan';
import { SET_COMMANDS } from './sets';
import type { CommandSpec } from './shared';
import { STRING_COMMANDS } from './strings';
import { TRANSACTION_COMMANDS } from './transactions';
import { ZSET_COMMANDS } from './zsets';

/**
 * Every command Lockstep offers, by lower-case name. Scripting commands (EVAL, EVALSHA, SCRIPT)
 * are dispatched by the server to its script engine; anything else is an unknown command.
 */
export const COMMANDS: Record<string, CommandSpec> = {
  ...STRING_COMMANDS,
  ...KEY_COMMANDS,
  ...HASH_COMMANDS,
  ...LIST_COMMANDS,
  ...LIST_EDIT_COMMANDS,
  ...BLOCKING_COMMANDS,
  ...SET_COMMANDS,
  ...ZSET_COMMANDS,
  ...CONNECTION_COMMANDS,
  ...CLIENT_COMMANDS,
  ...TRANSACTION_COMMANDS,
  ...PUBSUB_COMMANDS,
  ...SCAN_COMMANDS,
  // Redis 8.4's conditional delete and the digest its IFDEQ/IFDNE compare (scenario get-then-del, variant delex).
  delex,
  digest,
};

/**
 * Commands newer than the Redis 7.0 the simulated server otherwise follows: the differential suite
 * has no real counterpart to compare them with, so it leaves them out; they are tested against
 * their redis.io pages' examples instead (tests/unit/redis-8-4.test.ts). SET's IFEQ, IFNE, IFDEQ
 * and IFDNE options are 8.4 too, on a command 7.0 has.
 */
export const COMMANDS_NEWER_THAN_7_0: ReadonlySet<string> = new Set(['delex', 'digest', 'msetex']);
