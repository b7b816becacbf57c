import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { SimState, SimStore } from './store-types';
import { selectT } from './selectors';

const SimStoreContext = createContext<SimStore | null>(null);

/** Provides one simulator instance's store to a subtree (several simulators can share a page). */
export function SimStoreProvider({ store, children }: { store: SimStore; children: ReactNode }) {
  return <SimStoreContext.Provider value={store}>{children}</SimStoreContext.Provider>;
}

export function useSimStoreApi(): SimStore {
  const store = useContext(SimStoreContext);
  if (!store) throw new Error('useSimStore: no <SimStoreProvider> above this component');
  return store;
}

/** Subscribes to a slice of the store. Pass a hoisted selector (or wrap with useShallow). */
export function useSimStore<T>(selector: (state: SimState) => T): T {
  return useStore(useSimStoreApi(), selector);
}

/** The translate function for the store's language. */
export function useT() {
  return useSimStore(selectT);
}
