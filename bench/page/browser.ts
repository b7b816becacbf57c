import { existsSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from '@playwright/test';

/**
 * Chromium for the page bench: the system Chromium with the flags of ../shared/TOOLCHAIN.md,
 * plus two that let a frame start as soon as there is something to draw instead of waiting for
 * the next 60 Hz tick, so a step's latency is its work and its frame, not the phase of a vsync
 * clock (`--disable-frame-rate-limit --disable-gpu-vsync`), and precise `performance.memory`.
 */

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
export const VIEWPORT = { width: 1280, height: 720 } as const;
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-frame-rate-limit',
  '--disable-gpu-vsync',
  '--enable-precise-memory-info',
];

const INSTRUMENT = readFileSync(new URL('./instrument.browser.js', import.meta.url), 'utf8');

export function chromiumPath(): string {
  const fromEnv = process.env.LOCKSTEP_CHROMIUM;
  const found = fromEnv && existsSync(fromEnv) ? fromEnv : CHROMIUM_PATHS.find((candidate) => existsSync(candidate));
  if (found === undefined) throw new Error(`no Chromium found (tried ${CHROMIUM_PATHS.join(', ')}); set LOCKSTEP_CHROMIUM`);
  return found;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ARGS });
}

/** A fresh context (empty cache and storage) whose pages carry the bench's instrument. */
export async function newInstrumentedPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORT, locale: 'en-US' });
  await context.addInitScript({ content: INSTRUMENT });
  const page = await context.newPage();
  return { context, page };
}

/** What the instrument (instrument.browser.js) keeps on `window.__lockstepBench`. */
export interface InstrumentState {
  readonly readyAtMs: number | null;
  readonly stepUsableAtMs: number | null;
  readonly firstUsableAtMs: number | null;
  readonly commits: number;
  readonly components: number;
}

/** The figures of one armed step (instrument.browser.js `finish`). */
export interface StepSample {
  /** The input event's time on the page's clock (performance.now()). */
  readonly inputAtMs: number;
  /**
   * The figure: input to the step on screen, the later of `nextFrameMs` and `nextPaintMs`.
   * Set by PageDriver.attachNextPaints (until then, `nextFrameMs`).
   */
  latencyMs: number;
  /** Input to the start of the frame after the one that draws the new position (its rAF). */
  readonly nextFrameMs: number;
  /** Input to the end of the main thread's work (rAF, style, layout, paint) for the frame that draws the new position. */
  readonly frameMs: number;
  /** Input to the position showing the new cursor. */
  readonly domMs: number;
  /**
   * Chromium's Event Timing duration for the input: to the presentation of the next paint after
   * the event was handled (rounded to 8 ms), or null when under 16 ms (not reported).
   */
  nextPaintMs: number | null;
  readonly commitsToFrame: number;
  readonly componentsToFrame: number;
  /** Until React is quiet (no commit for the quiet period). */
  readonly commitsToQuiet: number;
  readonly componentsToQuiet: number;
  readonly settled: boolean;
  /** The control pressed (set by the series, e.g. `Step W`, `Advance`). */
  control?: string;
}

export function instrumentState(page: Page): Promise<InstrumentState> {
  return page.evaluate(() => {
    const bench = (window as unknown as { __lockstepBench: InstrumentState }).__lockstepBench;
    return { readyAtMs: bench.readyAtMs, stepUsableAtMs: bench.stepUsableAtMs, firstUsableAtMs: bench.firstUsableAtMs, commits: bench.commits, components: bench.components };
  });
}

/** Heap figures of the page and of each of its workers, after a forced garbage collection. */
export interface HeapUsage {
  readonly pageUsedBytes: number;
  readonly workerUsedBytes: number;
  readonly workerCount: number;
}

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
}

/**
 * Runs `HeapProfiler.collectGarbage` then `Runtime.getHeapUsage` in the page (a page CDP
 * session) and in every dedicated worker whose script came from `origin` (a browser session
 * attached to the worker target, messages relayed through `Target.sendMessageToTarget`).
 */
export async function measureHeap(browser: Browser, page: Page, origin: string): Promise<HeapUsage> {
  const pageSession = await page.context().newCDPSession(page);
  await pageSession.send('HeapProfiler.collectGarbage');
  await pageSession.send('HeapProfiler.collectGarbage');
  const pageHeap = await pageSession.send('Runtime.getHeapUsage');
  await pageSession.detach();

  const browserSession = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await browserSession.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    const workers = targetInfos.filter((target) => target.type === 'worker' && target.url.startsWith(origin));
    let workerUsedBytes = 0;
    for (const worker of workers) {
      const send = await attachRelay(browserSession, worker.targetId);
      await send('HeapProfiler.collectGarbage');
      await send('HeapProfiler.collectGarbage');
      const usage = (await send('Runtime.getHeapUsage')) as { usedSize: number };
      workerUsedBytes += usage.usedSize;
    }
    return { pageUsedBytes: pageHeap.usedSize, workerUsedBytes, workerCount: workers.length };
  } finally {
    await browserSession.detach();
  }
}

async function attachRelay(session: CDPSession, targetId: string): Promise<(method: string, params?: object) => Promise<unknown>> {
  const { sessionId } = (await session.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    if (event.sessionId !== sessionId) return;
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (waiter === undefined || message.id === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  let nextId = 0;
  return (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
}
