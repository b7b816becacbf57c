import type { Emitter } from './emit';
import type { Reply } from './redis/reply';
import type { SimRedisServer } from './redis/server';
import { inboxCountMax, type ClientState, type InboxMessage, type RunContext, type WorldState } from './world';

/**
 * Pub/Sub between simulated clients. Each client talks to Redis on its own connection, named by
 * its id, and on any further connection its program names (`A/pubsub`): a crash closes them all.
 * A message Redis writes to one of them lands in the client's inbox at the instant it is
 * published (a `message` event) and wakes the client if its `waitMessage` waits for it.
 */

/** The server connection a client's command goes out on. */
export function connectionId(clientId: string, name?: string): string {
  return name === undefined ? clientId : `${clientId}/${name}`;
}

/** Every connection a client's program can open: its own and each named one. */
export function connectionsOf(ctx: RunContext, clientId: string): string[] {
  const ids = [connectionId(clientId)];
  for (const step of ctx.programs[clientId] ?? []) {
    if (step.op !== 'command' || step.connection === undefined) continue;
    const id = connectionId(clientId, step.connection);
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** What a RESP2 message push carries, or null for any other push (a further SUBSCRIBE confirmation). */
function messageOf(push: Reply): Omit<InboxMessage, 'atMs'> | null {
  if (push.type !== 'array') return null;
  const parts = push.value.map((part) => (part.type === 'bulk' ? part.value : null));
  if (parts[0] === 'message' && parts.length === 3 && parts[1] !== null && parts[2] !== null) {
    return { channel: parts[1], pattern: null, payload: parts[2] };
  }
  if (parts[0] === 'pmessage' && parts.length === 4 && parts[1] !== null && parts[2] !== null && parts[3] !== null) {
    return { channel: parts[2], pattern: parts[1], payload: parts[3] };
  }
  return null;
}

/**
 * Takes what the last command wrote to other connections and hands each message to the client
 * owning the connection. Pushes to a connection no simulated client owns (a console's) are
 * outside the run and dropped here.
 */
export function deliverPushes(world: WorldState, server: SimRedisServer, ctx: RunContext, emit: Emitter): void {
  for (const push of server.takePushes()) {
    // A blocking pop served by this command: the reply its client has been waiting for.
    const popper = world.clients.find((c) => c.awaitingPop !== undefined && c.awaitingPop.reply === null && c.awaitingPop.connection === push.connectionId);
    if (popper !== undefined) {
      (popper.awaitingPop as { reply: Reply | null }).reply = push.reply;
      // The wait ends now; the wake-up runs in time order with the others (late if stalled).
      if (popper.status === 'blocked') popper.blockedUntilMs = world.nowMs;
      continue;
    }
    const message = messageOf(push.reply);
    if (message === null) continue;
    const owner = world.clients.find((c) => connectionsOf(ctx, c.id).includes(push.connectionId));
    if (owner === undefined) continue;
    owner.inbox.push({ ...message, atMs: world.nowMs });
    if (owner.inbox.length > inboxCountMax) owner.inbox.shift();
    emit.event(owner.id, { kind: 'message', connection: push.connectionId, ...message });
    const waiting = owner.awaitingMessage;
    const wanted = waiting !== null && (waiting.channel === null || waiting.channel === message.channel);
    if (owner.status === 'blocked' && owner.blockReason === 'message' && wanted && (owner.blockedUntilMs ?? 0) > world.nowMs) {
      // The wait ends now; the wake-up itself runs in time order with the others (late if stalled).
      owner.blockedUntilMs = world.nowMs;
    }
  }
}

/** Takes the oldest unread message the wait accepts (its channel, or any), or null. */
export function takeMessage(c: ClientState, channel: string | null): InboxMessage | null {
  const at = c.inbox.findIndex((m) => channel === null || m.channel === channel);
  if (at < 0) return null;
  const [message] = c.inbox.splice(at, 1);
  return message;
}
