import { CONNECTION_COMMANDS } from './connection';
import { HASH_COMMANDS } from './hashes';
import { KEY_COMMANDS } from './keys';
import { LIST_COMMANDS } from './lists';
import { SET_COMMANDS } from './sets';
import type { CommandSpec } from './shared';
import { STRING_COMMANDS } from './strings';

/**
 * Every command Lockstep offers, by lower-case name. Scripting commands (EVAL, EVALSHA, SCRIPT)
 * are dispatched by the server to its script engine; anything else is an unknown command.
 */
export const COMMANDS: Record<string, CommandSpec> = {
  ...STRING_COMMANDS,
  ...KEY_COMMANDS,
  ...HASH_COMMANDS,
  ...LIST_COMMANDS,
  ...SET_COMMANDS,
  ...CONNECTION_COMMANDS,
};
