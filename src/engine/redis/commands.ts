/**
 * The command layer: one adapter between Lockstep and ioredis-mock's keyspace, split by area in
 * ./commands/. This module is its public face (the server and the script engine import from here).
 */
export { COMMANDS } from './commands/index';
export {
  errors,
  parseInteger,
  inInt64Range,
  fromMock,
  delegated,
  INT64_MIN,
  INT64_MAX,
  type CommandContext,
  type CommandSpec,
} from './commands/shared';
