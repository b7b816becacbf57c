/// <reference lib="webworker" />
/**
 * The explorer in a Web Worker: searches a scenario variant's schedules (docs/EXPLORER.md) in
 * slices, posting progress, and stops on a cancel message between slices.
 */
// This realm evaluates scripts: it installs the Lua engine itself (the page's build and dev server
// leave it out of the page's own graph; vite.config.ts, pageLoadsLuaOnDemand).
import '../../engine/redis/lua/install';
import type { ExploreCommandMessage, ExploreWorkerMessage } from './explore-protocol';
import { runExploration, type RunningExploration } from './explore-run';

declare const self: DedicatedWorkerGlobalScope;

let running: RunningExploration | null = null;
const post = (message: ExploreWorkerMessage) => self.postMessage(message);

self.onmessage = (message: MessageEvent<ExploreCommandMessage>) => {
  const command = message.data;
  if (command.kind === 'cancel') {
    if (running?.id === command.id) running.cancel();
    return;
  }
  running?.cancel();
  const id = command.request.id;
  running = runExploration(
    command.request,
    {
      onProgress: (report) => post({ kind: 'progress', ...report }),
      onDone: (done) => {
        if (running?.id === id) running = null;
        post({ kind: 'done', ...done });
      },
      onError: (text) => {
        if (running?.id === id) running = null;
        post({ kind: 'error', id, message: text });
      },
    },
    (next) => setTimeout(next, 0),
  );
};
