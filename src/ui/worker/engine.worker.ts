/// <reference lib="webworker" />
/**
 * Every job that runs the engine off the page's thread, in one worker script (engine-worker.ts):
 * the run session, the variants' outcomes, the explorer, the draft check, the history check and the
 * property check. Each instance serves one job, so a job's code loads with its first message: a
 * session worker never fetches the explorer or the history checker. The simulated Redis and its
 * Lua engine (fengari) load here once; nothing in them needs a browser global.
 */
// This realm evaluates scripts: it installs the Lua engine itself (the page's build and dev server
// leave it out of the page's own graph; vite.config.ts, pageLoadsLuaOnDemand).
import '../../engine/redis/lua/install';
import type { EngineJob, EngineJobName } from './engine-worker-protocol';
import { JobQueue } from './job-queue';

declare const self: DedicatedWorkerGlobalScope;

type JobBodies = { readonly [J in EngineJob as J['job']]: J['body'] };
type Handler<N extends EngineJobName> = (body: JobBodies[N], post: (message: unknown) => void) => unknown;

/** Each job's module, imported on the job's first message; a handler that takes another job's body fails typecheck. */
const loaders: { readonly [N in EngineJobName]: () => Promise<Handler<N>> } = {
  session: () => import('./session-job').then((m) => m.createSessionJob()),
  outcomes: () => import('./outcomes-job').then((m) => m.onOutcomeRequest),
  explore: () => import('./explore-job').then((m) => m.onExploreCommand),
  'draft-check': () => import('./draft-check-job').then((m) => m.onDraftCheck),
  history: () => import('./history-check-job').then((m) => m.onHistoryCheck),
  properties: () => import('./property-check-job').then((m) => m.onPropertyCheckCommand),
};

const post = (message: unknown) => self.postMessage(message);
// A job whose code cannot load fails the worker as a failed static import did: the page's
// `worker.onerror` hears of it (a rejected promise alone would not reach the page).
// The queue holds handlers of any job: `Handler<never>` is what they all are.
const queue = new JobQueue<EngineJobName, Handler<never>>(loaders, (error) => {
  setTimeout(() => {
    throw error;
  }, 0);
});

self.onmessage = (message: MessageEvent<EngineJob>) => {
  const { job, body } = message.data;
  // The queue hands back the handler loaded for this message's own job.
  queue.push(job, (handler) => void (handler as Handler<typeof job>)(body, post));
};
