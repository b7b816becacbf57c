/**
 * The command layer, split by area in ./commands/. This module is its public face (the server and
 * the script engine import from here).
 */
export { COMMANDS } from './commands/index';
export {
  errors,
  parseInteger,
  inInt64Range,
  INT64_MIN,
  INT64_MAX,
  type CommandContext,
  type CommandSpec,
} from './commands/shared';
