// @vitest-environment happy-dom
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { Profiler, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import { App } from '../../src/ui/App';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import type { ViewTab } from '../../src/ui/store/store-types';
import { SimStoreProvider } from '../../src/ui/store/context';
import { ClockBar } from '../../src/ui/components/ClockBar';
import { Inspector } from '../../src/ui/components/Inspector';
import { Lanes } from '../../src/ui/components/Lanes';
import { Narration } from '../../src/ui/components/Narration';
import { RunViews } from '../../src/ui/components/RunViews';
import { ScenarioBar } from '../../src/ui/components/ScenarioBar';
import { ViolationBanner } from '../../src/ui/components/ViolationBanner';

// Goal: stepping costs the same in a 10,000-event run as in a 5-step one. We count React commits
// and which regions re-render per step (React's <Profiler>), in a short and a long run of the same
// story, and check that the event log keeps only the rows in view in the DOM. No timings: only
// counts, which do not depend on the machine.

afterEach(cleanup);

const scenario = findScenario('get-then-del');
/** The headline story followed by many 1 ms clock advances: a long run with the same beginning. */
const longTailChoiceCount = 9_990;
const longSchedule = `${scenario.defaultSchedule} ${Array.from({ length: longTailChoiceCount }, () => '+1').join(' ')}`;
const stepPairCount = 10;

interface Measure {
  commitsPerStep: number;
  regionRendersPerStep: Record<string, number>;
  eventCount: number;
  logRowsInDom: number;
}

async function measure(schedule: string, view: ViewTab): Promise<Measure> {
  const store = createSimStore({ run: { scenarioId: scenario.id, variantId: 'get-then-del', schedule, cursor: 3 } });
  store.getState().setView(view);
  const renders: Record<string, number> = {};
  let commits = 0;
  const region = (id: string, node: ReactNode) => (
    <Profiler id={id} onRender={() => (renders[id] = (renders[id] ?? 0) + 1)}>
      {node}
    </Profiler>
  );
  const { container } = render(
    <SimStoreProvider store={store}>
      <Profiler id="page" onRender={() => (commits += 1)}>
        {region('scenario', <ScenarioBar />)}
        {region('lanes', <Lanes />)}
        {region('narration', <Narration />)}
        {region('banner', <ViolationBanner />)}
        {region('inspector', <Inspector />)}
        {region('clock', <ClockBar />)}
        {region('views', <RunViews />)}
      </Profiler>
    </SimStoreProvider>,
  );
  // The sequence diagram and the event log load on first use: count once the tab's panel is in.
  // (Loading a module is not a budget: the wait is generous so a busy machine cannot break it.)
  const loaded = { timeout: 25_000 };
  await waitFor(() => expect(container.querySelector('.run-views__panel [aria-busy="true"]')).toBeNull(), loaded);
  await waitFor(() => expect(container.querySelector('.run-views__panel')?.childElementCount).toBeGreaterThan(0), loaded);
  commits = 0;
  for (const key of Object.keys(renders)) renders[key] = 0;
  // Step between the two points of the story where A is paused and B acquires.
  for (let i = 0; i < stepPairCount; i++) {
    act(() => store.getState().stepForward());
    act(() => store.getState().stepBack());
  }
  const stepCount = stepPairCount * 2;
  const regionRendersPerStep: Record<string, number> = {};
  for (const [key, count] of Object.entries(renders)) regionRendersPerStep[key] = count / stepCount;
  return {
    commitsPerStep: commits / stepCount,
    regionRendersPerStep,
    eventCount: store.getState().events.length,
    logRowsInDom: container.querySelectorAll('.event-row').length,
  };
}

describe('render cost per step', () => {
  it.each<ViewTab>(['events', 'timeline', 'sequence'])('does not grow with run length (%s view)', async (view) => {
    const short = await measure(scenario.defaultSchedule, view);
    const long = await measure(longSchedule, view);
    expect(long.eventCount).toBeGreaterThan(longTailChoiceCount);
    expect(long.eventCount).toBeGreaterThanOrEqual(10_000);
    expect(short.eventCount).toBeLessThan(50);
    // One store update per step: one commit (the event log), at most two where a view follows
    // the cursor by scrolling (timeline, sequence), whatever the length.
    if (view === 'events') expect(short.commitsPerStep).toBe(1);
    else expect(short.commitsPerStep).toBeLessThanOrEqual(2);
    expect(long.commitsPerStep).toBe(short.commitsPerStep);
    expect(long.regionRendersPerStep).toEqual(short.regionRendersPerStep);
    // Regions whose data did not change stay put: the scenario bar never re-renders on a step.
    expect(short.regionRendersPerStep.scenario).toBe(0);
    if (view === 'events') {
      // Virtualized: the DOM holds the rows in view, not the run.
      expect(long.logRowsInDom).toBeGreaterThan(0);
      expect(long.logRowsInDom).toBeLessThan(60);
    }
  });

  it('a step of one client leaves the other lane alone', () => {
    const store = createSimStore({ run: { scenarioId: scenario.id, schedule: '' } });
    render(
      <SimStoreProvider store={store}>
        <Lanes />
      </SimStoreProvider>,
    );
    // Lane B's markup is byte-identical after two steps of A.
    const laneB = document.querySelector('[data-testid="lane.B"]');
    const before = laneB?.innerHTML;
    const statusA = () => document.querySelector('[data-testid="lane.A.status"]')?.textContent;
    expect(statusA()).toBe('not started');
    act(() => store.getState().stepClient('A'));
    expect(statusA()).toBe('working until t=2000');
    act(() => store.getState().stepClient('A'));
    expect(document.querySelector('[data-testid="lane.B"]')?.innerHTML).toBe(before);
    expect(statusA()).toBe('ready');
  });

  it('the whole page renders without the worker (embed and full)', () => {
    for (const embed of [false, true]) {
      const store = createSimStore({ run: { scenarioId: scenario.id, schedule: scenario.defaultSchedule, cursor: null }, embed });
      const { getByTestId, unmount } = render(
        <SimStoreProvider store={store}>
          <App />
        </SimStoreProvider>,
      );
      expect(getByTestId('violation-banner').textContent).toContain("A deleted B's lock");
      unmount();
    }
  });
});
