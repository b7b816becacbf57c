// @vitest-environment happy-dom
// Goal: a part whose code loads on demand (OnDemand.tsx) never takes the page down. A failed load
// shows a notice; "Try again" imports again (React.lazy alone keeps the failure for good) and shows
// the part; Close calls the caller's dismiss. An error in the part's own render is not this
// boundary's: it goes on up, so a bug is not dressed as an offline notice.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onDemand, ShowOnDemand } from '../../src/ui/components/OnDemand';
import { SimStoreProvider } from '../../src/ui/store/context';
import { createSimStore } from '../../src/ui/store/create-sim-store';

afterEach(cleanup);

const store = createSimStore({ run: { scenarioId: 'get-then-del', variantId: 'get-then-del', cursor: null } });

function Greeting({ name }: { name: string }) {
  return <p data-testid="greeting">Hello {name}</p>;
}

class Catch extends Component<{ children: ReactNode }, { caught: string | null }> {
  override state = { caught: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { caught: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    return this.state.caught === null ? this.props.children : <p data-testid="caught">{this.state.caught}</p>;
  }
}

describe('a part loaded on demand', () => {
  it('says so when its code cannot load, tries again on request, and then shows the part', async () => {
    let online = false;
    const load = vi.fn(() => (online ? Promise.resolve(Greeting) : Promise.reject(new TypeError('Failed to fetch dynamically imported module'))));
    const part = onDemand(load);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <SimStoreProvider store={store}>
        <ShowOnDemand part={part} props={{ name: 'A' }} />
      </SimStoreProvider>,
    );
    const notice = await screen.findByTestId('part-unavailable');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(notice.textContent).toContain('This part could not be loaded');
    // No caller's dismiss: no Close button.
    expect(screen.queryByTestId('part-unavailable.dismiss')).toBeNull();

    online = true;
    await act(async () => {
      fireEvent.click(screen.getByTestId('part-unavailable.retry'));
    });
    await waitFor(() => expect(screen.getByTestId('greeting').textContent).toBe('Hello A'));
    expect(screen.queryByTestId('part-unavailable')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('closes through the caller', async () => {
    const part = onDemand(() => Promise.reject(new Error('offline')));
    const onDismiss = vi.fn();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <SimStoreProvider store={store}>
        <ShowOnDemand part={part} props={{}} onDismiss={onDismiss} />
      </SimStoreProvider>,
    );
    fireEvent.click(await screen.findByTestId('part-unavailable.dismiss'));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });

  it('leaves an error in the part itself to the boundaries above it', async () => {
    const Broken = () => {
      throw new Error('a bug in the part');
    };
    const part = onDemand(() => Promise.resolve(Broken));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <SimStoreProvider store={store}>
        <Catch>
          <ShowOnDemand part={part} props={{}} />
        </Catch>
      </SimStoreProvider>,
    );
    expect((await screen.findByTestId('caught')).textContent).toBe('a bug in the part');
    expect(screen.queryByTestId('part-unavailable')).toBeNull();
  });
});
