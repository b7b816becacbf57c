import { reply } from '../reply';
import { subscriptionCount } from '../clients';
import { command, errors, unixNowMs, type CommandSpec } from './shared';

/** Server and connection commands: PING, ECHO, TIME, DBSIZE, FLUSHALL, FLUSHDB, QUIT, RESET. */

/** PING [message]; a RESP2 connection with subscriptions gets `["pong", message or ""]`. */
const ping = command(-1, false, (ctx, args) => {
  if (args.length > 2) return errors.arity('ping');
  if (!ctx.inScript && subscriptionCount(ctx.session.client) > 0) return reply.array([reply.bulk('pong'), reply.bulk(args[1] ?? '')]);
  return args.length === 2 ? reply.bulk(args[1]) : reply.status('PONG');
});

const echo = command(2, false, (_ctx, [, message]) => reply.bulk(message));

/** TIME: [unix seconds, microseconds] of the server's clock, the epoch plus the virtual time. */
const time = command(1, false, (ctx) => {
  const unixMs = unixNowMs(ctx);
  const seconds = unixMs / 1000n;
  const micros = (unixMs - seconds * 1000n) * 1000n;
  return reply.array([reply.bulk(String(seconds)), reply.bulk(String(micros))]);
});

const dbsize = command(1, false, (ctx) => reply.integer(ctx.keyspace.size()));

/** FLUSHALL/FLUSHDB [ASYNC|SYNC]: every database, or the selected one. */
function flushCommand(all: boolean): CommandSpec {
  return command(-1, true, (ctx, args) => {
    if (args.length > 2 || (args.length === 2 && !['SYNC', 'ASYNC'].includes(args[1].toUpperCase()))) return errors.syntax();
    if (all) ctx.session.flushAll();
    else ctx.keyspace.clear();
    return reply.ok();
  });
}

/** QUIT: answers OK; the connection then closes, dropping its transaction, watches and subscriptions. */
const quit = command(-1, false, (ctx) => {
  ctx.session.close();
  return reply.ok();
});

/**
 * RESET (clearClientConnectionState): out of MULTI, nothing watched, no subscriptions, no
 * confirmations, database 0, no name.
 */
const reset = command(1, false, (ctx) => {
  const { client, clients, pubsub } = ctx.session;
  clients.discardTransaction(client);
  pubsub.forget(client);
  client.db = 0;
  client.name = null;
  return reply.status('RESET');
});

export const CONNECTION_COMMANDS: Record<string, CommandSpec> = {
  quit,
  reset,
  ping,
  echo,
  time,
  dbsize,
  flushall: flushCommand(true),
  flushdb: flushCommand(false),
};
