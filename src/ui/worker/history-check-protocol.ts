/** The history worker's messages, and what the page needs before loading the checker: the format's sniff and the size bound. */
import type { HistoryReport } from './history-check';

export type { HistoryLaneEvent, HistoryReport } from './history-check';

/** The largest history the page reads (bytes); the CLI reads any size. */
export const HISTORY_FILE_BYTES_MAX = 50 * 1024 * 1024;
/** Lines of the head that decide the format. */
const SNIFF_LINES_MAX = 5;

export type HistoryFormat = 'jsonl' | 'monitor';

const MONITOR_HEAD = /^\d+\.\d{1,6} \[\d+ [^\]]+\] "/;

/** The format of a history from the file's first characters, or null: not a history (a scenario file). */
export function sniffHistoryFormat(head: string): HistoryFormat | null {
  const lines = head.split('\n', SNIFF_LINES_MAX + 1).map((l) => l.trim()).filter((l) => l !== '' && l !== 'OK');
  const first = lines[0];
  if (first === undefined) return null;
  if (MONITOR_HEAD.test(first)) return 'monitor';
  if (!first.startsWith('{')) return null;
  try {
    const data: unknown = JSON.parse(first);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    return 'history' in data || 'argv' in data || 'mark' in data ? 'jsonl' : null;
  } catch {
    return null;
  }
}

export interface HistoryCheckRequest {
  readonly file: Blob;
  readonly fileName: string;
  readonly format: HistoryFormat;
}

export type HistoryCheckReply = { readonly kind: 'report'; readonly report: HistoryReport } | { readonly kind: 'error'; readonly message: string };

/** Checks one history file off the page's thread (or on it, in tests). */
export interface HistoryCheckService {
  check(request: HistoryCheckRequest): Promise<HistoryReport>;
}
