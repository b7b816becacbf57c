// Injected by the page bench before any of the page's own scripts (Playwright addInitScript).
// Plain browser JavaScript on purpose: Playwright sends this file's text as is, so no compiler
// helper can sneak in. It changes nothing the page does; it only watches:
// - when `window.lockstep.isReady` turns true and when a "Step A" button is first enabled;
// - React commits, through the same global hook React DevTools uses (production React reports
//   every commit to it), and which components rendered in each commit;
// - one armed step at a time: the input event's time, the moment the position readout shows the
//   expected cursor, the end of the frame that draws it, and the start of the frame after;
//   and Chromium's Event Timing entries (input to next paint presented).
(() => {
  const bench = {
    readyAtMs: null,
    stepUsableAtMs: null,
    firstUsableAtMs: null,
    commits: 0,
    components: 0,
    lastCommitAtMs: 0,
    armed: null,
  };
  Object.defineProperty(window, '__lockstepBench', { value: bench });

  // --- React commits (the DevTools global hook) ------------------------------------------------
  // Fiber tags of components (React 19): function, class, forwardRef, memo, simple memo.
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  // React's PerformedWork flag: set on a fiber whose component ran in this render.
  const PERFORMED_WORK = 1;

  // Counts the components that rendered in the commit whose new tree is `fiber`. A subtree whose
  // child list is the very same object as before was not visited by React at all: skip it.
  function countRendered(root) {
    let count = 0;
    const stack = [root];
    while (stack.length > 0) {
      const fiber = stack.pop();
      const previous = fiber.alternate;
      if (COMPONENT_TAGS.has(fiber.tag) && (previous === null || (fiber.flags & PERFORMED_WORK) !== 0)) count += 1;
      if (fiber.child !== null && (previous === null || fiber.child !== previous.child)) {
        for (let child = fiber.child; child !== null; child = child.sibling) stack.push(child);
      }
    }
    return count;
  }

  if (window.__REACT_DEVTOOLS_GLOBAL_HOOK__ === undefined) {
    const renderers = new Map();
    window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      isDisabled: false,
      renderers,
      inject(internals) {
        const id = renderers.size + 1;
        renderers.set(id, internals);
        return id;
      },
      checkDCE() {},
      onCommitFiberRoot(_id, root) {
        bench.commits += 1;
        bench.lastCommitAtMs = performance.now();
        bench.components += countRendered(root.current);
        checkArmed();
      },
      onCommitFiberUnmount() {},
      onPostCommitFiberRoot() {},
      setStrictMode() {},
    };
  }

  // --- Accessible names (enough for buttons: aria-label, else visible text) --------------------
  function textOf(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    if (node.nodeType !== Node.ELEMENT_NODE || node.getAttribute('aria-hidden') === 'true') return '';
    let text = '';
    for (const child of node.childNodes) text += textOf(child);
    return text;
  }
  function accessibleName(element) {
    const label = element.getAttribute('aria-label');
    return (label ?? textOf(element)).replace(/\s+/g, ' ').trim();
  }

  // --- First screen: ready, and a usable Step A -------------------------------------------------
  function checkFirstScreen() {
    if (bench.firstUsableAtMs !== null) return;
    const now = performance.now();
    if (bench.readyAtMs === null && window.lockstep !== undefined && window.lockstep.isReady === true) bench.readyAtMs = now;
    if (bench.stepUsableAtMs === null) {
      for (const button of document.querySelectorAll('button')) {
        if (!button.disabled && button.getAttribute('aria-disabled') !== 'true' && accessibleName(button) === 'Step A') {
          bench.stepUsableAtMs = now;
          break;
        }
      }
    }
    if (bench.readyAtMs !== null && bench.stepUsableAtMs !== null) bench.firstUsableAtMs = now;
  }
  function pollFirstScreen() {
    checkFirstScreen();
    if (bench.firstUsableAtMs === null) requestAnimationFrame(pollFirstScreen);
  }
  requestAnimationFrame(pollFirstScreen);

  // --- One armed step ----------------------------------------------------------------------------
  // The cursor the `position` readout shows ("Step 5 / 5"; digits may carry group separators).
  function shownCursor() {
    const element = document.querySelector('[data-testid="position"]');
    if (element === null) return null;
    const match = /(\d+)\/(\d+)/.exec(element.textContent.replace(/[\s,.\u00a0\u202f']/g, ''));
    return match === null ? null : { cursor: Number(match[1]), length: Number(match[2]) };
  }
  bench.shownCursor = shownCursor;

  // Event Timing: for each input event Chromium reports the time from the event to the next
  // paint actually presented (rounded to 8 ms; only events of 16 ms or more are reported).
  // They arrive after the paint, so they are collected and matched to steps later (takeNextPaints).
  let nextPaints = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'click' || entry.name === 'keydown') nextPaints.push({ inputAtMs: entry.startTime, durationMs: entry.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16 });
  // A step's press is over once its next paint was reported, or three frames passed without
  // one (an input under 16 ms is never reported): the next press then starts on a quiet page.
  async function waitForNextPaint(inputAtMs) {
    for (let frame = 0; frame < 3; frame++) {
      if (nextPaints.some((paint) => Math.abs(paint.inputAtMs - inputAtMs) < 1)) return;
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  bench.takeNextPaints = () => {
    const taken = nextPaints;
    nextPaints = [];
    return taken;
  };

  function onInput(event) {
    const armed = bench.armed;
    if (armed !== null && armed.inputAtMs === null && event.isTrusted) armed.inputAtMs = event.timeStamp;
  }
  window.addEventListener('click', onInput, true);
  window.addEventListener('keydown', onInput, true);

  // Once the position shows the expected cursor: the frame that draws it runs its rAF callbacks,
  // then style, layout and paint on the main thread; a task queued from that rAF runs right
  // after (frameAtMs). The following frame's rAF (nextFrameAtMs) usually waits until the step's
  // frame has been rasterized, but not always: Event Timing's presentation time (matched in
  // Node, PageDriver.attachNextPaints) covers the rest.
  function checkArmed() {
    const armed = bench.armed;
    if (armed === null || armed.inputAtMs === null || armed.domAtMs !== null) return;
    const shown = shownCursor();
    if (shown === null || shown.cursor !== armed.expectCursor) return;
    armed.domAtMs = performance.now();
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        armed.frameAtMs = performance.now();
        requestAnimationFrame(() => {
          armed.nextFrameAtMs = performance.now();
          armed.commitsAtFrame = bench.commits;
          armed.componentsAtFrame = bench.components;
          armed.resolveFrame();
        });
      };
      channel.port2.postMessage(null);
    });
  }

  // The whole document is watched only until the first screen is usable; later, a step watches
  // just the position readout (and React's commits), so a large DOM change costs nothing extra.
  const firstScreenObserver = new MutationObserver(() => {
    checkFirstScreen();
    if (bench.firstUsableAtMs !== null) firstScreenObserver.disconnect();
  });
  firstScreenObserver.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const positionObserver = new MutationObserver(() => checkArmed());

  /** Arms one step: the next trusted click or key press is its input; `finish` waits for `expectCursor` on screen. */
  bench.arm = (expectCursor) => {
    positionObserver.disconnect();
    const position = document.querySelector('[data-testid="position"]');
    if (position !== null) positionObserver.observe(position, { subtree: true, childList: true, characterData: true });
    let resolveFrame;
    const frame = new Promise((resolve) => (resolveFrame = resolve));
    bench.armed = {
      expectCursor,
      inputAtMs: null,
      domAtMs: null,
      frameAtMs: null,
      nextFrameAtMs: null,
      commitsAtArm: bench.commits,
      componentsAtArm: bench.components,
      commitsAtFrame: 0,
      componentsAtFrame: 0,
      resolveFrame,
      frame,
    };
  };

  /** Resolves true once React has not committed for `quietMs`, or false after `waitMsMax`. */
  bench.waitQuiet = async (quietMs, waitMsMax) => {
    const startMs = performance.now();
    while (performance.now() - startMs < waitMsMax) {
      await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
      if (performance.now() - bench.lastCommitAtMs >= quietMs) return true;
    }
    return false;
  };

  /**
   * Waits for the armed step's frame (at most `frameWaitMsMax`), then until React is quiet (no
   * commit for `quietMs`, at most `settleMsMax`), and reports the step's figures.
   */
  bench.finish = async (quietMs, settleMsMax, frameWaitMsMax) => {
    const armed = bench.armed;
    if (armed === null) throw new Error('bench.finish: nothing armed');
    const armedAtMs = performance.now();
    let timedOut = false;
    const poll = () => {
      if (armed.nextFrameAtMs !== null) return;
      if (performance.now() - armedAtMs > frameWaitMsMax) {
        timedOut = true;
        armed.resolveFrame();
        return;
      }
      if (armed.inputAtMs !== null && armed.domAtMs === null) checkArmed();
      setTimeout(poll, 4);
    };
    poll();
    await armed.frame;
    if (timedOut) {
      bench.armed = null;
      const shown = shownCursor();
      throw new Error(
        `step not shown within ${frameWaitMsMax} ms: input ${armed.inputAtMs === null ? 'never arrived' : 'arrived'}, ` +
          `expected cursor ${armed.expectCursor}, position shows ${shown === null ? 'nothing' : `${shown.cursor} / ${shown.length}`}`,
      );
    }
    const settled = await bench.waitQuiet(quietMs, settleMsMax);
    await waitForNextPaint(armed.inputAtMs);
    bench.armed = null;
    return {
      inputAtMs: armed.inputAtMs,
      latencyMs: armed.nextFrameAtMs - armed.inputAtMs,
      nextFrameMs: armed.nextFrameAtMs - armed.inputAtMs,
      frameMs: armed.frameAtMs - armed.inputAtMs,
      domMs: armed.domAtMs - armed.inputAtMs,
      nextPaintMs: null,
      commitsToFrame: armed.commitsAtFrame - armed.commitsAtArm,
      componentsToFrame: armed.componentsAtFrame - armed.componentsAtArm,
      commitsToQuiet: bench.commits - armed.commitsAtArm,
      componentsToQuiet: bench.components - armed.componentsAtArm,
      settled,
    };
  };
})();
