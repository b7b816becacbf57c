import { reply } from '../reply';
import { command, errors, type CommandSpec } from './shared';

/** Server and connection commands a learner types: PING, ECHO, TIME, DBSIZE, FLUSHALL, FLUSHDB. */

const ping = command(-1, false, (_ctx, args) => {
  if (args.length > 2) return errors.arity('ping');
  return args.length === 2 ? reply.bulk(args[1]) : reply.status('PONG');
});

const echo = command(2, false, (_ctx, [, message]) => reply.bulk(message));

/** TIME from the virtual clock: [unix seconds, microseconds]. */
const time = command(1, false, (ctx) => {
  const seconds = Math.floor(ctx.nowMs / 1000);
  const micros = (ctx.nowMs - seconds * 1000) * 1000;
  return reply.array([reply.bulk(String(seconds)), reply.bulk(String(micros))]);
});

const dbsize = command(1, false, (ctx) => reply.integer(ctx.keyspace.size()));

/** FLUSHALL/FLUSHDB [ASYNC|SYNC]: one database, so both empty the whole keyspace. */
const flush = command(-1, true, (ctx, args) => {
  if (args.length > 2 || (args.length === 2 && !['SYNC', 'ASYNC'].includes(args[1].toUpperCase()))) return errors.syntax();
  ctx.keyspace.clear();
  return reply.ok();
});

export const CONNECTION_COMMANDS: Record<string, CommandSpec> = {
  ping,
  echo,
  time,
  dbsize,
  flushall: flush,
  flushdb: flush,
};
