// @vitest-environment happy-dom
// Goal: the Properties tab as a learner uses it, rendered over a real store: the empty state's
// example fills the form, Add property applies it as an edit, Check properties shows each verdict
// row with its status, and a violated row's button loads its shortest schedule at step 0.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { PropertiesPanel } from '../../src/ui/components/workbench/PropertiesPanel';
import { SimStoreProvider } from '../../src/ui/store/context';
import { createSimStore } from '../../src/ui/store/create-sim-store';
import { createInlineDraftCheckService } from '../../src/ui/worker/draft-check';
import { createInlinePropertyCheckService } from '../../src/ui/worker/property-check-client';

afterEach(cleanup);

describe('the Properties tab', () => {
  it('adds the example, checks it, and loads the violating schedule', async () => {
    const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', cursor: null }, draftChecker: createInlineDraftCheckService(), propertyChecker: createInlinePropertyCheckService() });
    store.getState().openWorkbench('properties');
    render(
      <SimStoreProvider store={store}>
        <PropertiesPanel />
      </SimStoreProvider>,
    );
    expect(screen.getByTestId('properties.empty').textContent).toContain('not (clients.A.inside and clients.B.inside)');
    expect((screen.getByTestId('properties.check') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByTestId('properties.use-example'));
    expect((screen.getByTestId('properties.name') as HTMLInputElement).value).toBe('one-inside');
    expect(screen.getByTestId('properties.expression-problem').getAttribute('data-ok')).toBe('true');
    await act(async () => {
      fireEvent.click(screen.getByTestId('properties.submit'));
    });
    await waitFor(() => expect(screen.getByTestId('properties.row.one-inside').textContent).toContain('always'));
    // Applied: the form is empty again.
    expect((screen.getByTestId('properties.name') as HTMLInputElement).value).toBe('');

    fireEvent.click(screen.getByTestId('properties.check'));
    const verdict = await waitFor(() => screen.getByTestId('properties.verdict.one-inside'), { timeout: 20_000 });
    // A 7 s stall outlives the 5 s lease while A works: B gets in beside it.
    expect(verdict.getAttribute('data-status')).toBe('violated');
    expect(screen.getByTestId('properties.status.one-inside').textContent).toBe('violated');
    const schedule = store.getState().propertyCheck.verdicts[0].found?.schedule;
    expect(verdict.textContent).toContain(`: ${schedule}`);
    expect(schedule).toMatch(/~7000/);
    fireEvent.click(screen.getByTestId('properties.load.one-inside'));
    expect(store.getState().schedule).toBe(schedule);
    expect(store.getState().cursor).toBe(0);
  });
});
