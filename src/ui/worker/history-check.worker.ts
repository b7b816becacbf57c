/// <reference lib="webworker" />
/**
 * The history checker in a Web Worker: the file is streamed through src/history chunk by chunk, so
 * a file of tens of MB neither freezes the page nor sits in memory as one string. MONITOR import
 * runs scripts on the simulated Redis: the Lua engine is installed here as in the outcome worker.
 */
import '../../engine/redis/lua/install';
import { HistoryReading } from './history-check';
import type { HistoryCheckReply, HistoryCheckRequest } from './history-check-protocol';

declare const self: DedicatedWorkerGlobalScope;

/** Chunks read from the file before the reader is bounded: a stream ends; this is a guard. */
const CHUNK_COUNT_MAX = 1_000_000;

self.onmessage = async (message: MessageEvent<HistoryCheckRequest>) => {
  const { file, fileName, format } = message.data;
  try {
    const reading = new HistoryReading(fileName, format);
    const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
    for (let i = 0; i < CHUNK_COUNT_MAX; i++) {
      const { done, value } = await reader.read();
      if (done) break;
      reading.push(value);
    }
    self.postMessage({ kind: 'report', report: reading.finish() } satisfies HistoryCheckReply);
  } catch (error) {
    self.postMessage({ kind: 'error', message: error instanceof Error ? error.message : String(error) } satisfies HistoryCheckReply);
  }
};
