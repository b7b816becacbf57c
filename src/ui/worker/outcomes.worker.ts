/// <reference lib="webworker" />
/**
 * The engine in a Web Worker: replays the current schedule under every variant so the variant
 * toggle can say what each would do, without blocking the page. The simulated Redis server and its
 * Lua engine (fengari) load here as on the page; nothing in them needs a browser global.
 */
// This realm evaluates scripts: it installs the Lua engine itself (the page's build and dev server
// leave it out of the page's own graph; vite.config.ts, pageLoadsLuaOnDemand).
import '../../engine/redis/lua/install';
import type { OutcomeRequest } from './protocol';
import { OutcomeRuns } from './outcomes';

declare const self: DedicatedWorkerGlobalScope;

/** Each variant's run, kept between requests: a step appended to the page's run costs one step here. */
const runs = new OutcomeRuns();

self.onmessage = (message: MessageEvent<OutcomeRequest>) => {
  const request = message.data;
  try {
    const inWorker = typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;
    self.postMessage({ kind: 'report', report: runs.report(request, inWorker ? 'worker' : 'page') });
  } catch (error) {
    self.postMessage({ kind: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) });
  }
};
