/// <reference lib="webworker" />
/** The draft check (draft-check.ts) on its own thread: an endless script keeps only this worker busy. */
// This realm evaluates scripts: it installs the Lua engine itself (the page's build and dev server
// leave it out of the page's own graph; vite.config.ts, pageLoadsLuaOnDemand).
import '../../engine/redis/lua/install';
import type { DraftCheckRequest } from './draft-check-protocol';
import { checkDraft } from './draft-check';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (message: MessageEvent<DraftCheckRequest>) => {
  const request = message.data;
  try {
    self.postMessage(checkDraft(request));
  } catch (error) {
    self.postMessage({ id: request.id, stops: [], failure: error instanceof Error ? error.message : String(error) });
  }
};
