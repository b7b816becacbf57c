import { subscriptionCount, type ClientState } from './clients';
import { encodeString } from './commands/bytes';
import { stringMatch } from './commands/keys';
import { reply, type Reply } from './reply';

/**
 * Pub/Sub as Redis 7.0 does it with RESP2 (pubsub.c): who listens to which channel and pattern,
 * and what each subscriber receives. Replies are arrays of bulk strings and an integer, exactly as
 * a RESP2 client reads them: `["subscribe", channel, count]`, `["message", channel, payload]`,
 * `["pmessage", pattern, channel, payload]`.
 *
 * Order: a message goes first to the channel's subscribers in the order they subscribed, then to
 * each matching pattern's subscribers. Redis walks its patterns in hash-table order, which is
 * arbitrary; Lockstep walks them in the order they were first subscribed (deterministic, and one
 * of the orders Redis may give). Sharded Pub/Sub (SSUBSCRIBE, SPUBLISH) is not offered.
 */
export interface PubSubData {
  /** Channel -> subscriber connection ids, in subscription order. */
  readonly channels: readonly (readonly [string, readonly string[]])[];
  readonly patterns: readonly (readonly [string, readonly string[]])[];
}

/** SUBSCRIBE and UNSUBSCRIBE name channels; PSUBSCRIBE and PUNSUBSCRIBE, patterns. */
export type SubscriptionKind = 'channel' | 'pattern';

/** Where a published message is written: the server routes it to the connection's output. */
export type Deliver = (clientId: string, value: Reply) => void;

export class PubSub {
  private channels = new Map<string, string[]>();
  private patterns = new Map<string, string[]>();

  /** pubsubSubscribeChannel / pubsubSubscribePattern: subscribes if not already, and answers the confirmation. */
  subscribe(client: ClientState, kind: SubscriptionKind, name: string): Reply {
    const mine = kind === 'channel' ? client.channels : client.patterns;
    if (!mine.has(name)) {
      mine.add(name);
      addTo(this.index(kind), name, client.id);
    }
    return confirmation(kind === 'channel' ? 'subscribe' : 'psubscribe', name, client);
  }

  /** pubsubUnsubscribeChannel / pubsubUnsubscribePattern (with notify): the confirmation, subscribed or not. */
  unsubscribe(client: ClientState, kind: SubscriptionKind, name: string): Reply {
    const mine = kind === 'channel' ? client.channels : client.patterns;
    if (mine.delete(name)) removeFrom(this.index(kind), name, client.id);
    return confirmation(kind === 'channel' ? 'unsubscribe' : 'punsubscribe', name, client);
  }

  /** UNSUBSCRIBE / PUNSUBSCRIBE with no argument: one confirmation per subscription, or one with a nil name. */
  unsubscribeAll(client: ClientState, kind: SubscriptionKind): Reply[] {
    const names = [...(kind === 'channel' ? client.channels : client.patterns)];
    if (names.length === 0) return [confirmation(kind === 'channel' ? 'unsubscribe' : 'punsubscribe', null, client)];
    return names.map((name) => this.unsubscribe(client, kind, name));
  }

  private index(kind: SubscriptionKind): Map<string, string[]> {
    return kind === 'channel' ? this.channels : this.patterns;
  }

  /** Drops every subscription without a word (RESET, QUIT). */
  forget(client: ClientState): void {
    for (const channel of client.channels) removeFrom(this.channels, channel, client.id);
    for (const pattern of client.patterns) removeFrom(this.patterns, pattern, client.id);
    client.channels.clear();
    client.patterns.clear();
  }

  /** PUBLISH: delivers to every subscriber and answers how many received it (pattern matches included). */
  publish(channel: string, message: string, deliver: Deliver): number {
    let receivers = 0;
    for (const id of this.channels.get(channel) ?? []) {
      deliver(id, reply.array([reply.bulk('message'), reply.bulk(channel), reply.bulk(message)]));
      receivers += 1;
    }
    if (this.patterns.size > 0) {
      const channelBytes = encodeString(channel);
      for (const [pattern, ids] of this.patterns) {
        if (!stringMatch(encodeString(pattern), channelBytes)) continue;
        for (const id of ids) {
          deliver(id, reply.array([reply.bulk('pmessage'), reply.bulk(pattern), reply.bulk(channel), reply.bulk(message)]));
          receivers += 1;
        }
      }
    }
    return receivers;
  }

  isEmpty(): boolean {
    return this.channels.size === 0 && this.patterns.size === 0;
  }

  snapshot(): PubSubData {
    return { channels: copyEntries(this.channels), patterns: copyEntries(this.patterns) };
  }

  restore(data: PubSubData | undefined): void {
    this.channels = new Map((data?.channels ?? []).map(([name, ids]) => [name, ids.slice()]));
    this.patterns = new Map((data?.patterns ?? []).map(([name, ids]) => [name, ids.slice()]));
  }
}

function confirmation(kind: string, name: string | null, client: ClientState): Reply {
  return reply.array([reply.bulk(kind), name === null ? reply.nil() : reply.bulk(name), reply.integer(subscriptionCount(client))]);
}

function addTo(index: Map<string, string[]>, name: string, id: string): void {
  const ids = index.get(name);
  if (ids === undefined) index.set(name, [id]);
  else ids.push(id);
}

function removeFrom(index: Map<string, string[]>, name: string, id: string): void {
  const ids = index.get(name);
  if (ids === undefined) return;
  const at = ids.indexOf(id);
  if (at >= 0) ids.splice(at, 1);
  if (ids.length === 0) index.delete(name);
}

function copyEntries(index: Map<string, string[]>): [string, string[]][] {
  return [...index].map(([name, ids]) => [name, ids.slice()]);
}
