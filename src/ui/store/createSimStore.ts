/**
 * Transitional: the old name of store-types.ts, kept only so files of another branch merged at
 * the same time still compile (slices/simulation.ts, components/ViewPanels.tsx). Import
 * store-types.ts (types) or create-sim-store.ts (the factory) instead; delete this file once
 * nothing imports it.
 */
export type * from './store-types';
