/**
 * The code behind a finished async run (async/run.ts RunRecording), kept beside the result
 * simulate returned, so `runFileOf(result)` can turn the run into a scenario file without every
 * result carrying its clients' logs. Held weakly: it goes when the result does.
 */
import type { RunRecording } from './async/run';
import type { SimulateResult } from './simulate';

const recordings = new WeakMap<SimulateResult, RunRecording>();

export function rememberRecording(result: SimulateResult, recording: RunRecording): void {
  recordings.set(result, recording);
}

/** The recording of a result `simulate` returned for async clients, or undefined (a program-only run, a copy). */
export function recordingOf(result: SimulateResult): RunRecording | undefined {
  return recordings.get(result);
}
