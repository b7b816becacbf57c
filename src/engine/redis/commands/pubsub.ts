import type { SubscriptionKind } from '../pubsub';
import { reply } from '../reply';
import { command, type CommandSpec } from './shared';

/**
 * pubsub.c, Redis 7.0 with RESP2: SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBLISH. The
 * subscribe family answers one confirmation per channel or pattern, written in order on the
 * connection (the first is `execute`'s reply, the others are pushes to the same connection).
 * While a connection has subscriptions it may only run these, PING, QUIT and RESET (server.ts).
 */

/** SUBSCRIBE channel... / PSUBSCRIBE pattern...: one confirmation each, in order. */
function subscribeCommand(kind: SubscriptionKind): CommandSpec {
  return command(-2, false, (ctx, args) => {
    const { client, pubsub } = ctx.session;
    for (const name of args.slice(1)) ctx.session.send(client.id, pubsub.subscribe(client, kind, name));
    return null;
  });
}

/** UNSUBSCRIBE [channel...] / PUNSUBSCRIBE [pattern...]: with no argument, every subscription of the kind. */
function unsubscribeCommand(kind: SubscriptionKind): CommandSpec {
  return command(-1, false, (ctx, args) => {
    const { client, pubsub } = ctx.session;
    const answers = args.length === 1 ? pubsub.unsubscribeAll(client, kind) : args.slice(1).map((name) => pubsub.unsubscribe(client, kind, name));
    for (const answer of answers) ctx.session.send(client.id, answer);
    return null;
  });
}

/** PUBLISH channel message: the number of subscriptions that received it (from scripts too). */
const publish = command(3, false, (ctx, [, channel, message]) =>
  reply.integer(ctx.session.pubsub.publish(channel, message, (id, value) => ctx.session.send(id, value))),
);

export const PUBSUB_COMMANDS: Record<string, CommandSpec> = {
  subscribe: subscribeCommand('channel'),
  unsubscribe: unsubscribeCommand('channel'),
  psubscribe: subscribeCommand('pattern'),
  punsubscribe: unsubscribeCommand('pattern'),
  publish,
};

/** What a RESP2 connection with subscriptions may still run (server.c processCommand). */
export const ALLOWED_WHILE_SUBSCRIBED: ReadonlySet<string> = new Set(['ping', 'subscribe', 'ssubscribe', 'unsubscribe', 'sunsubscribe', 'psubscribe', 'punsubscribe', 'quit', 'reset']);
