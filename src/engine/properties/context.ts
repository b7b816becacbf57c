import type { Reply } from '../redis/reply';
import type { TraceEvent } from '../trace';
import type { WorldState } from '../world';

/**
 * What a property sees: one trace event, as plain values. One event at a time keeps the
 * explorer's merging of equal states sound (a property that remembered the past would make two
 * equal states differ); the clients' state after the event is part of the explored state. Absent fields read as null.
 *
 *   event.kind     the event's kind ("command", "enter", "leave", "write", "violation", ...)
 *   event.client   the client it belongs to, or null
 *   event.atMs     its virtual time (ms)
 *   event.command  a command's name, upper-case (argv[0]); null for other events
 *   event.args     a command's arguments after its name (args[0] is usually the key)
 *   event.reply    a command's reply: a string (status, bulk, integer as text, error), null (nil or later)
 *   event.violation  a violation event's kind
 *   lock.before    the lock's value before the event (null: absent)
 *   lock.after     the lock's value after the event
 *   lock.holder    who wrote the value the event found (lock.before), or null
 *   lock.holderAfter  who wrote the value after the event, or null
 *   lock.pttlMs    the lock's PTTL after the event (-2 absent, -1 no expiry)
 *   clients.<id>.inside  whether client <id> is in its critical section after the event (it believes it holds the lock)
 *   clients.<id>.status  its state after the event ("ready", "blocked", "done", "crashed", ...)
 */
export interface PropertyContext {
  readonly event: Readonly<Record<string, unknown>>;
  readonly lock: Readonly<Record<string, unknown>>;
  readonly clients: Readonly<Record<string, unknown>>;
}

/** `world`: the state after the event (clients.*); without it, `clients` is empty. */
export function propertyContext(event: TraceEvent, world?: WorldState): PropertyContext {
  const clients: Record<string, unknown> = {};
  for (const c of world?.clients ?? []) clients[c.id] = { inside: c.inCriticalSection, status: c.status };
  const command = event.kind === 'command';
  return {
    event: {
      kind: event.kind,
      client: event.clientId,
      atMs: event.atMs,
      command: command ? (event.argv[0] ?? '').toUpperCase() : null,
      args: command ? event.argv.slice(1) : [],
      reply: event.kind === 'command' || event.kind === 'reply' ? replyValue(event.reply) : null,
      violation: event.kind === 'violation' ? event.violation : null,
    },
    lock: {
      before: event.lockBefore.value,
      after: event.lockAfter.value,
      holder: event.lockBefore.holder,
      holderAfter: event.lockAfter.holder,
      pttlMs: event.lockAfter.pttlMs,
    },
    clients,
  };
}

function replyValue(reply: Reply | null): string | null {
  if (reply === null || reply.type === 'nil' || reply.type === 'array') return null;
  return reply.value;
}
