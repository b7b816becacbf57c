import type { TraceEvent } from '../src/engine/trace';

/** A run as the dev harness loads it (written by views-harness-data.ts). */
export interface HarnessRun {
  readonly name: string;
  readonly clientIds: readonly string[];
  readonly tokenOwners: Readonly<Record<string, string>>;
  readonly events: readonly TraceEvent[];
  /** Virtual time after each number of steps (index = cursor). */
  readonly nowMsByStep: readonly number[];
}
