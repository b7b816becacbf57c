/**
 * The history-check job of the engine worker: the file is streamed through src/history chunk by
 * chunk, so a file of tens of MB neither freezes the page nor sits in memory as one string.
 */
import { HistoryReading } from './history-check';
import type { HistoryCheckReply, HistoryCheckRequest } from './history-check-protocol';

/** Chunks read from the file before the reader is bounded: a stream ends; this is a guard. */
const CHUNK_COUNT_MAX = 1_000_000;

export async function onHistoryCheck({ file, fileName, format }: HistoryCheckRequest, post: (reply: HistoryCheckReply) => void): Promise<void> {
  try {
    const reading = new HistoryReading(fileName, format);
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    for (let i = 0; i < CHUNK_COUNT_MAX; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      reading.push(value);
    }
    post({ kind: 'report', report: reading.finish() });
  } catch (error) {
    post({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
}
