import type { Browser } from '@playwright/test';
import { instrumentState, newInstrumentedPage } from './browser';
import type { StaticServer } from './static-server';

/**
 * One cold load of the page (fresh context: empty cache and storage): which JavaScript arrived
 * before the first usable "Step A" button (the first screen: what a person waits for) and before
 * `window.lockstep.isReady` turned true (scripts: the page loads the rest of its scenarios and
 * the Lua engine after its first paint, then becomes ready), in gzip bytes as the static server
 * sent them, and the times from navigation start to first contentful paint, to the first enabled
 * "Step A" button, and to ready.
 */

/** After ready, the load is over once no request has arrived for this long. */
const NETWORK_QUIET_MS = 1_000;
const NETWORK_WAIT_MS_MAX = 10_000;
const READY_WAIT_MS_MAX = 60_000;

export interface ScriptFetch {
  readonly path: string;
  readonly gzipBytes: number;
  readonly rawBytes: number;
  /** Requested before the page was ready (`lockstep.isReady`). */
  readonly beforeReady: boolean;
  /** Requested before the first usable "Step A" button: part of the first screen. */
  readonly firstScreen: boolean;
  /** Requested by a `fetch()` (the service worker's precache, or the page handing what it loaded early to it) rather than by the page or its workers as code. */
  readonly precache: boolean;
}

export interface FirstScreenSample {
  readonly scripts: readonly ScriptFetch[];
  /** Gzip bytes of JavaScript requested before the first usable "Step A" (the first screen). */
  readonly jsGzipBytesFirstScreen: number;
  /** Gzip bytes of JavaScript requested before ready. */
  readonly jsGzipBytesBeforeReady: number;
  readonly jsRawBytesBeforeReady: number;
  /** Gzip bytes of all JavaScript requested by the time the network was quiet after ready. */
  readonly jsGzipBytesAll: number;
  /** The same, each file counted once: this server sends `no-store`, so each worker fetches its files again; a host with cached hashed assets sends them once. */
  readonly jsGzipBytesAllOnce: number;
  /** The same without the service worker's precache (`fetch()`es): what the page and its workers loaded to run, each file once. */
  readonly jsGzipBytesPageOnce: number;
  readonly fcpMs: number | null;
  readonly readyMs: number;
  /** A "Step A" button enabled: the first screen is usable. */
  readonly firstUsableStepMs: number;
}

/** Gzip bytes with each path counted once. */
function onceEach(scripts: readonly ScriptFetch[]): number {
  const bytes = new Map(scripts.map((script) => [script.path, script.gzipBytes]));
  return [...bytes.values()].reduce((sum, size) => sum + size, 0);
}

function isScript(path: string): boolean {
  return /\.m?js$/.test(path);
}

export async function loadFirstScreen(browser: Browser, server: StaticServer): Promise<FirstScreenSample> {
  const { context, page } = await newInstrumentedPage(browser);
  try {
    const servedBefore = server.served.length;
    await page.goto(server.url);
    await page.waitForFunction(() => (window as unknown as { __lockstepBench: { firstUsableAtMs: number | null } }).__lockstepBench.firstUsableAtMs !== null, null, {
      timeout: READY_WAIT_MS_MAX,
      polling: 50,
    });
    const state = await instrumentState(page);
    // The first-screen check in the page confirmed by Playwright's own role engine.
    if (!(await page.getByRole('button', { name: 'Step A', exact: true }).first().isEnabled())) {
      throw new Error('first screen: the instrument saw an enabled "Step A" button that Playwright does not find');
    }
    if (state.readyAtMs === null || state.stepUsableAtMs === null) throw new Error('first screen: never ready');

    // Let anything started after ready (lazy chunks, workers) arrive too.
    const waitStart = Date.now();
    let lastCount = server.served.length;
    let lastChange = Date.now();
    while (Date.now() - lastChange < NETWORK_QUIET_MS && Date.now() - waitStart < NETWORK_WAIT_MS_MAX) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (server.served.length !== lastCount) {
        lastCount = server.served.length;
        lastChange = Date.now();
      }
    }

    // Read after the wait: on a busy machine the first paint can come after ready.
    const { timeOrigin, fcpMs } = await page.evaluate(() => ({
      timeOrigin: performance.timeOrigin,
      fcpMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    }));
    const readyEpochMs = timeOrigin + state.readyAtMs;
    const stepEpochMs = timeOrigin + state.stepUsableAtMs;
    const scripts = server.served
      .slice(servedBefore)
      .filter((response) => isScript(response.path))
      .map((response) => {
        if (!response.gzip) throw new Error(`${response.path} was sent without gzip`);
        return {
          path: response.path,
          gzipBytes: response.sentBytes,
          rawBytes: response.rawBytes,
          beforeReady: response.atEpochMs <= readyEpochMs,
          firstScreen: response.atEpochMs <= stepEpochMs,
          precache: response.fetchDest === 'empty',
        };
      });
    const before = scripts.filter((script) => script.beforeReady);
    return {
      scripts,
      jsGzipBytesFirstScreen: scripts.filter((script) => script.firstScreen).reduce((sum, script) => sum + script.gzipBytes, 0),
      jsGzipBytesBeforeReady: before.reduce((sum, script) => sum + script.gzipBytes, 0),
      jsRawBytesBeforeReady: before.reduce((sum, script) => sum + script.rawBytes, 0),
      jsGzipBytesAll: scripts.reduce((sum, script) => sum + script.gzipBytes, 0),
      jsGzipBytesAllOnce: onceEach(scripts),
      jsGzipBytesPageOnce: onceEach(scripts.filter((script) => !script.precache)),
      fcpMs,
      readyMs: state.readyAtMs,
      firstUsableStepMs: state.stepUsableAtMs,
    };
  } finally {
    await context.close();
  }
}
