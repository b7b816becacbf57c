/// <reference lib="webworker" />
/**
 * Every job that runs the engine off the page's thread, in one worker script (engine-worker.ts):
 * the run session, the variants' outcomes, the explorer, the draft check, the history check and the
 * property check. The simulated Redis
 * and its Lua engine (fengari) load here once; nothing in them needs a browser global.
 */
// This realm evaluates scripts: it installs the Lua engine itself (the page's build and dev server
// leave it out of the page's own graph; vite.config.ts, pageLoadsLuaOnDemand).
import '../../engine/redis/lua/install';
import { onDraftCheck } from './draft-check-job';
import type { EngineJob } from './engine-worker-protocol';
import { onExploreCommand } from './explore-job';
import { onHistoryCheck } from './history-check-job';
import { onOutcomeRequest } from './outcomes-job';
import { createSessionJob } from './session-job';
import { onPropertyCheckCommand } from './property-check-job';

declare const self: DedicatedWorkerGlobalScope;

const post = (message: unknown) => self.postMessage(message);
const onSessionRequest = createSessionJob();

self.onmessage = (message: MessageEvent<EngineJob>) => {
  const data = message.data;
  switch (data.job) {
    case 'outcomes':
      return onOutcomeRequest(data.body, post);
    case 'explore':
      return onExploreCommand(data.body, post);
    case 'draft-check':
      return onDraftCheck(data.body, post);
    case 'history':
      return void onHistoryCheck(data.body, post);
    case 'session':
      return onSessionRequest(data.body, post);
    case 'properties':
      return onPropertyCheckCommand(data.body, post);
  }
};
