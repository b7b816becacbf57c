/**
 * A store over every built-in scenario (or `options.scenarios`), all loaded: what Node and the
 * tests use. The page builds its store with `createStoreWith(pageLibrary(), ...)` (create-store.ts)
 * instead, so the scenario registry stays out of its first screen.
 */
import { SCENARIOS } from '../../scenarios';
import { createStoreWith } from './create-store';
import { staticLibrary } from './library';
import type { SimStore, SimStoreInit } from './store-types';

export function createSimStore(options: SimStoreInit = {}): SimStore {
  return createStoreWith(options.library ?? staticLibrary(options.scenarios ?? SCENARIOS), options);
}
