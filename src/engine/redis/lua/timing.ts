/**
 * The measure a script's virtual duration is made of (ScriptRunReport.instructionCount, turned
 * into milliseconds by busy.ts): VM instructions, counted by the hook in steps of 1000, plus 10
 * per table write, 1 per 4 bytes of each string of 4 bytes or more that is made, the subject's
 * bytes for string.find/match/gmatch (4 per byte for gsub), and cmsgpack's bytes packed and
 * unpacked. These are the weights the engine used before it had a work budget; virtual time
 * belongs to the simulation's time model, so the work budget's own prices (budget.ts) do not
 * change how long a script takes on the virtual clock.
 */
export class VirtualTimeMeter {
  units = 0;
}

export const timeWeights = {
  tableWrite: 10,
  stringBytesPerUnit: 4,
  gsubUnitsPerSubjectByte: 4,
} as const;

let active: VirtualTimeMeter | null = null;

export function setActiveTimeMeter(meter: VirtualTimeMeter | null): void {
  active = meter;
}

/** Adds `units` to the running script's virtual-time measure, if a script is running. */
export function countTime(units: number): void {
  if (active !== null) active.units += units;
}
