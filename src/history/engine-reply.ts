import type { Reply } from '../engine/redis/reply';
import type { HistoryReply } from './format';

/** An engine reply as the history writes it (errors go in the line's `error`, not here). */
export function historyReply(reply: Reply): HistoryReply {
  switch (reply.type) {
    case 'nil':
    case 'error':
      return null;
    case 'integer':
      return Number(reply.value);
    case 'array':
      return reply.value.map(historyReply);
    default:
      return reply.value;
  }
}
