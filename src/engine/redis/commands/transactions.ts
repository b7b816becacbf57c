import { watchName } from '../clients';
import { reply } from '../reply';
import { command, type CommandSpec } from './shared';

/**
 * multi.c, Redis 7.0: MULTI, EXEC, DISCARD, WATCH, UNWATCH, per connection.
 *
 * Queueing happens in the server (server.ts): while a connection is in MULTI, every command but
 * EXEC, DISCARD, MULTI, WATCH, QUIT and RESET is answered QUEUED. A command refused while
 * queueing (unknown, wrong arity) dooms the transaction: EXEC answers EXECABORT and runs nothing.
 * An error while a queued command runs (WRONGTYPE) is just that command's reply; the others run.
 * A WATCHed key changed by anyone (this connection included), deleted, expired or flushed since
 * WATCH makes EXEC answer nil.
 */

const multi = command(1, false, (ctx) => {
  const client = ctx.session.client;
  // Not a refusal: the transaction goes on (multiCommand answers without flagging it).
  if (client.multi !== null) return reply.error('ERR MULTI calls can not be nested');
  client.multi = [];
  return reply.ok();
});

const exec = command(1, false, (ctx) => {
  const { client, clients } = ctx.session;
  const queue = client.multi;
  if (queue === null) return reply.error('ERR EXEC without MULTI');
  if (client.execAborted || client.watchedChanged) {
    const answer = client.execAborted ? reply.error('EXECABORT Transaction discarded because of previous errors.') : reply.nil();
    clients.discardTransaction(client);
    return answer;
  }
  clients.unwatchAll(client);
  const written = ctx.session.runQueued(queue);
  clients.discardTransaction(client);
  // The array counts commands; a command that wrote more than one value (SUBSCRIBE a b) leaves
  // the rest on the stream after it, where a RESP2 client reads them, as from a real server.
  ctx.session.send(client.id, reply.array(written.slice(0, queue.length)));
  for (const value of written.slice(queue.length)) ctx.session.send(client.id, value);
  return null;
});

const discard = command(1, false, (ctx) => {
  const { client, clients } = ctx.session;
  if (client.multi === null) return reply.error('ERR DISCARD without MULTI');
  clients.discardTransaction(client);
  return reply.ok();
});

const watch = command(-2, false, (ctx, args) => {
  const { client, clients } = ctx.session;
  if (client.multi !== null) return reply.error('ERR WATCH inside MULTI is not allowed');
  // Already doomed: watching more changes nothing.
  if (!client.watchedChanged) for (const key of args.slice(1)) clients.watch(client, watchName(ctx.session.db, key));
  return reply.ok();
});

const unwatch = command(1, false, (ctx) => {
  const { client, clients } = ctx.session;
  clients.unwatchAll(client);
  client.watchedChanged = false;
  return reply.ok();
});

export const TRANSACTION_COMMANDS: Record<string, CommandSpec> = { multi, exec, discard, watch, unwatch };

/** Commands a connection in MULTI runs at once instead of queueing (processCommand). */
export const RUN_INSIDE_MULTI: ReadonlySet<string> = new Set(['exec', 'discard', 'multi', 'watch', 'quit', 'reset']);
