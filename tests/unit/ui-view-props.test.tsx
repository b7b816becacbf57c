// @vitest-environment happy-dom
// Goal: the run views get the store's log as it is, never a copy: the same events array while the
// log grows (its count and the feed's generation say what changed), a new generation after a fork,
// and only the past in predict mode.
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { findScenario } from '../../src/scenarios';
import { useViewProps } from '../../src/ui/components/ViewPanels';
import { SimStoreProvider } from '../../src/ui/store/context';
import { createSimStore } from '../../src/ui/store/create-sim-store';

afterEach(cleanup);

const scenario = findScenario('get-then-del');

describe('the run views’ props', () => {
  it('hand the log without a copy, extended within a generation and renewed by a fork', () => {
    const store = createSimStore({ run: { scenarioId: scenario.id, variantId: 'get-then-del', schedule: 'A A', cursor: null } });
    const seen: ReturnType<typeof useViewProps>[] = [];
    function Probe() {
      seen.push(useViewProps());
      return null;
    }
    render(
      <SimStoreProvider store={store}>
        <Probe />
      </SimStoreProvider>,
    );
    const first = seen[seen.length - 1];
    expect(first.events).toBe(store.getState().runLog.events);
    expect(first.eventCount).toBe(store.getState().runLog.eventCount);

    act(() => store.getState().advanceClock(100));
    const grown = seen[seen.length - 1];
    expect(grown.events).toBe(first.events);
    expect(grown.generation).toBe(first.generation);
    expect(grown.eventCount).toBeGreaterThan(first.eventCount);

    act(() => store.getState().seek(1));
    act(() => store.getState().stepClient('B'));
    const forked = seen[seen.length - 1];
    expect(forked.generation).not.toBe(first.generation);
    expect(forked.events).toBe(store.getState().runLog.events);

    act(() => store.getState().togglePredict());
    expect(store.getState().predict).toBe(true);
    act(() => store.getState().seek(1));
    const past = seen[seen.length - 1];
    expect(past.events).toBe(store.getState().runLog.events);
    expect(past.eventCount).toBe(store.getState().eventCountToCursor);
    expect(past.eventCount).toBeLessThan(store.getState().runLog.eventCount);
  });
});
