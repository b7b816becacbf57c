import { postJob, startEngineWorker } from './engine-worker';
import { HistoryReading } from './history-check';
import type { HistoryCheckReply, HistoryCheckService } from './history-check-protocol';

/** One engine worker instance per check: a history is checked once, and a new import ends an old check. */
export function createWorkerHistoryCheckService(): HistoryCheckService {
  let current: Worker | null = null;
  return {
    check(request) {
      current?.terminate();
      const worker = startEngineWorker('history');
      current = worker;
      return new Promise((resolve, reject) => {
        worker.onmessage = (message: MessageEvent<HistoryCheckReply>) => {
          worker.terminate();
          if (current === worker) current = null;
          if (message.data.kind === 'report') resolve(message.data.report);
          else reject(new Error(message.data.message));
        };
        worker.onerror = (event) => {
          worker.terminate();
          reject(new Error(event.message || 'the history worker failed'));
        };
        postJob(worker, { job: 'history', body: request });
      });
    },
  };
}

/** The same check on the calling thread (tests, a page without workers). */
export function createInlineHistoryCheckService(): HistoryCheckService {
  return {
    async check({ file, fileName, format }) {
      const reading = new HistoryReading(fileName, format);
      reading.push(await file.text());
      return reading.finish();
    },
  };
}
