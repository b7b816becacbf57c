import { advanceMsMax } from '../schedule';
import type { ExploreSpec, FaultBudget, Scenario } from '../scenario';

/**
 * What an exploration may search (docs/EXPLORER.md, "Bounds"). Every bound is counted in choices
 * or states, never in wall time, so the same bounds give the same answer on any machine.
 */
export interface ExploreBounds {
  readonly faults: FaultBudget;
  /** Longest schedule searched, in choices. */
  readonly depthMax: number;
  /** Distinct states the search may visit: its budget of work. */
  readonly stateCountMax: number;
  /** Latest virtual time a searched schedule may reach (ms), or null for none. */
  readonly horizonMs: number | null;
}

export const noFaults: FaultBudget = { stallCountMax: 0, stallLengthsMs: [], crashCountMax: 0 };
export const defaultDepthMax = 24;
export const defaultStateCountMax = 200_000;
/** Largest bounds accepted (a page, a worker and CI must be able to hold what they ask for). */
export const depthMaxLimit = 200;
export const stateCountMaxLimit = 5_000_000;
export const faultCountMaxLimit = 8;
export const stallLengthCountMaxLimit = 8;

export class BoundsError extends Error {
  override name = 'BoundsError';
}

/** Overrides of a scenario's declared bounds (CLI flags, the page's form, the Node API). */
export interface BoundsOverrides {
  readonly faults?: FaultBudget;
  readonly depthMax?: number;
  readonly stateCountMax?: number;
  readonly horizonMs?: number | null;
}

/** The bounds to search: overrides, else the scenario's `explore` spec, else the defaults. Validated. */
export function resolveBounds(scenario: Pick<Scenario, 'explore'>, overrides: BoundsOverrides = {}): ExploreBounds {
  const spec: ExploreSpec = scenario.explore ?? {};
  return validateBounds({
    faults: overrides.faults ?? spec.faults ?? noFaults,
    depthMax: overrides.depthMax ?? spec.depthMax ?? defaultDepthMax,
    stateCountMax: overrides.stateCountMax ?? spec.stateCountMax ?? defaultStateCountMax,
    horizonMs: overrides.horizonMs !== undefined ? overrides.horizonMs : (spec.horizonMs ?? null),
  });
}

function checkInteger(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new BoundsError(`${name} must be an integer from ${min} to ${max}, got ${value}`);
}

export function validateBounds(bounds: ExploreBounds, clientIds?: readonly string[]): ExploreBounds {
  checkInteger('depthMax', bounds.depthMax, 1, depthMaxLimit);
  checkInteger('stateCountMax', bounds.stateCountMax, 1, stateCountMaxLimit);
  if (bounds.horizonMs !== null) checkInteger('horizonMs', bounds.horizonMs, 1, Number.MAX_SAFE_INTEGER);
  const f = bounds.faults;
  checkInteger('stallCountMax', f.stallCountMax, 0, faultCountMaxLimit);
  checkInteger('crashCountMax', f.crashCountMax, 0, faultCountMaxLimit);
  if (f.stallLengthsMs.length > stallLengthCountMaxLimit) throw new BoundsError(`at most ${stallLengthCountMaxLimit} stall lengths`);
  for (const ms of f.stallLengthsMs) checkInteger('a stall length (ms)', ms, 1, advanceMsMax);
  if (f.stallCountMax > 0 && f.stallLengthsMs.length === 0) throw new BoundsError('stalls need at least one length');
  if (clientIds && f.clients) {
    for (const id of f.clients) if (!clientIds.includes(id)) throw new BoundsError(`unknown client "${id}" in the fault budget (clients: ${clientIds.join(', ')})`);
  }
  // Sorted, without repeats: the same budget always searches (and reads) the same way.
  const lengths = [...new Set(f.stallLengthsMs)].sort((a, b) => a - b);
  return { ...bounds, faults: { ...f, stallLengthsMs: lengths } };
}

const DURATION = /^([0-9]+)(ms|s)?$/;

function parseDuration(text: string): number {
  const m = DURATION.exec(text);
  if (!m) throw new BoundsError(`bad duration "${text}" (want e.g. 5000, 5000ms or 5s)`);
  const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  checkInteger('a stall length (ms)', ms, 1, advanceMsMax);
  return ms;
}

function parseCount(name: string, text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new BoundsError(`${name} wants a whole number, got "${text}"`);
  const n = Number(text);
  checkInteger(name, n, 0, faultCountMaxLimit);
  return n;
}

/**
 * Parses a fault budget written as `none` or `stalls=1,lengths=2500+5000,crashes=1[,clients=A+B]`
 * (the CLI's `--faults`). Lengths are durations as in schedules (`5000`, `5000ms`, `5s`).
 */
export function parseFaultBudget(text: string): FaultBudget {
  const trimmed = text.trim();
  if (trimmed === 'none' || trimmed === '') return noFaults;
  let stallCountMax = 0;
  let crashCountMax = 0;
  let stallLengthsMs: number[] = [];
  let clients: string[] | undefined;
  for (const part of trimmed.split(',')) {
    const [name, value, extra] = part.trim().split('=');
    if (value === undefined || extra !== undefined) throw new BoundsError(`bad fault item "${part}" (want name=value)`);
    switch (name) {
      case 'stalls':
        stallCountMax = parseCount('stalls', value);
        break;
      case 'lengths':
        stallLengthsMs = value.split('+').map(parseDuration);
        break;
      case 'crashes':
        crashCountMax = parseCount('crashes', value);
        break;
      case 'clients':
        clients = value.split('+');
        if (clients.some((id) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(id))) throw new BoundsError(`bad client list "${value}"`);
        break;
      default:
        throw new BoundsError(`unknown fault item "${name}" (stalls, lengths, crashes, clients)`);
    }
  }
  if (stallCountMax > 0 && stallLengthsMs.length === 0) throw new BoundsError('stalls need lengths, e.g. stalls=1,lengths=5000');
  const budget: FaultBudget = { stallCountMax, stallLengthsMs, crashCountMax, ...(clients ? { clients } : {}) };
  return validateBounds({ faults: budget, depthMax: 1, stateCountMax: 1, horizonMs: null }).faults;
}

/** The canonical text of a fault budget (what parseFaultBudget reads back). */
export function formatFaultBudget(f: FaultBudget): string {
  if (f.stallCountMax === 0 && f.crashCountMax === 0) return 'none';
  const parts: string[] = [];
  if (f.stallCountMax > 0) parts.push(`stalls=${f.stallCountMax}`, `lengths=${f.stallLengthsMs.join('+')}`);
  if (f.crashCountMax > 0) parts.push(`crashes=${f.crashCountMax}`);
  if (f.clients) parts.push(`clients=${f.clients.join('+')}`);
  return parts.join(',');
}
