import { formatReplyShort } from './redis/reply';
import type { TraceEvent } from './trace';

/** Replaces each client's token with `<A's token>`-style text so timelines read like a lesson. */
export function tokenNamer(tokens: Readonly<Record<string, string>>): (text: string) => string {
  const entries = Object.entries(tokens).filter(([, token]) => token.length > 0);
  return (text) => {
    let out = text;
    for (const [clientId, token] of entries) out = out.split(token).join(`<${clientId}'s token>`);
    return out;
  };
}

/** One event in plain English, as the CLI timeline and the UI's event log show it. */
export function describeEvent(event: TraceEvent, name: (text: string) => string = (t) => t): string {
  switch (event.kind) {
    case 'command':
      return event.reply === null
        ? `${name(commandText(event.argv))} -> (reply at t=${event.replyAtMs})`
        : `${name(commandText(event.argv))} -> ${name(formatReplyShort(event.reply))}`;
    case 'reply':
      return `receives the reply: ${name(formatReplyShort(event.reply))}`;
    case 'clock':
      return event.reason === 'advance'
        ? `clock advances ${event.toMs - event.fromMs} ms to t=${event.toMs}`
        : `clock moves to t=${event.toMs} (wake-up)`;
    case 'start':
      return event.by === null ? 'starts' : `is started by ${event.by}`;
    case 'enter':
      return 'enters the critical section';
    case 'leave':
      return 'leaves the critical section';
    case 'end':
      return 'finishes';
    case 'branch':
      return event.taken ? `condition true: goto ${event.goto}` : 'condition false: continue';
    case 'set':
      return `${event.var} = ${name(event.value)}`;
    case 'block': {
      const what = {
        work: 'works',
        sleep: 'sleeps',
        retry: 'waits to retry',
        hang: 'waits for a reply that never comes',
        reply: 'waits for the script\'s reply',
        busy: 'waits: Redis is running a script',
      }[event.reason];
      return event.untilMs === null ? what : `${what} for ${event.durationMs} ms (until t=${event.untilMs})`;
    }
    case 'wake': {
      const what = { work: 'work done', sleep: 'wakes up', retry: 'retries', hang: 'wakes up', reply: 'reply arrives', busy: 'Redis takes its command', stall: 'resumes' }[event.reason];
      return event.lateMs > 0 ? `${what}, ${event.lateMs} ms late: its process was stalled` : what;
    }
    case 'stall':
      return `process ${event.process} is stalled for ${event.durationMs} ms (until t=${event.untilMs})${event.clients.length > 1 ? `: ${event.clients.join(', ')} freeze` : ''}`;
    case 'expire':
      return `key ${name(event.key)} expires`;
    case 'give-up':
      return event.reason === 'deadline' ? `gives up: the next retry would pass its deadline (${event.attempts} retries)` : `gives up after ${event.attempts} retries`;
    case 'crash':
      return 'crashes';
    case 'write':
      return `writes ${name(event.value)} to ${event.resource}${event.fencingToken ? ` (fencing token ${event.fencingToken})` : ''}: ${
        event.accepted ? 'accepted' : 'REJECTED (stale fencing token)'
      }`;
    case 'mark':
      return `counts one more on ${event.counter} (${event.count} so far)`;
    case 'violation':
      return `VIOLATION ${event.violation}: ${event.message}`;
  }
}

/** A command line as redis-cli would echo it, with a long script body shortened to its first line. */
export function commandText(argv: readonly string[]): string {
  const isScript = /^eval(_ro)?$/i.test(argv[0] ?? '');
  return argv
    .map((arg, i) => {
      let text = arg;
      if (isScript && i === 1 && (text.includes('\n') || text.length > 48)) text = `${text.split('\n')[0].slice(0, 48)}…`;
      return /\s/.test(text) || text === '' ? JSON.stringify(text) : text;
    })
    .join(' ');
}
