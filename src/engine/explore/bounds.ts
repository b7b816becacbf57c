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

/** Whether a budget allows any node fault (crash, promotion, clock jump, partition, lost message, client clock jump, replication delay). */
export function hasNodeFaults(f: FaultBudget): boolean {
  return (
    (f.nodeCrashCountMax ?? 0) > 0 ||
    (f.promoteCountMax ?? 0) > 0 ||
    (f.clockJumpCountMax ?? 0) > 0 ||
    (f.partitionCountMax ?? 0) > 0 ||
    (f.lossCountMax ?? 0) > 0 ||
    (f.clientClockJumpCountMax ?? 0) > 0 ||
    (f.replicationDelayCountMax ?? 0) > 0
  );
}

/** Checks a list of lengths (stall, jump, delay) and returns it sorted, without repeats. */
function checkLengths(what: string, list: readonly number[], min: number, allowZero: boolean): number[] {
  if (list.length > stallLengthCountMaxLimit) throw new BoundsError(`at most ${stallLengthCountMaxLimit} ${what} lengths`);
  for (const ms of list) {
    checkInteger(`a ${what} (ms)`, ms, min, advanceMsMax);
    if (ms === 0 && !allowZero) throw new BoundsError(`a ${what} of 0 ms changes nothing`);
  }
  return [...new Set(list)].sort((a, b) => a - b);
}

/**
 * Checks bounds and returns them in canonical form. With `clientIds` / `nodeIds` (a run's), the
 * budget's clients and nodes must exist, and node faults need a scenario with several nodes.
 */
export function validateBounds(bounds: ExploreBounds, clientIds?: readonly string[], nodeIds?: readonly string[]): ExploreBounds {
  checkInteger('depthMax', bounds.depthMax, 1, depthMaxLimit);
  checkInteger('stateCountMax', bounds.stateCountMax, 1, stateCountMaxLimit);
  if (bounds.horizonMs !== null) checkInteger('horizonMs', bounds.horizonMs, 1, Number.MAX_SAFE_INTEGER);
  const f = bounds.faults;
  checkInteger('stallCountMax', f.stallCountMax, 0, faultCountMaxLimit);
  checkInteger('crashCountMax', f.crashCountMax, 0, faultCountMaxLimit);
  if (f.stallLengthsMs.length > stallLengthCountMaxLimit) throw new BoundsError(`at most ${stallLengthCountMaxLimit} stall lengths`);
  for (const ms of f.stallLengthsMs) checkInteger('a stall length (ms)', ms, 1, advanceMsMax);
  if (f.stallCountMax > 0 && f.stallLengthsMs.length === 0) throw new BoundsError('stalls need at least one length');
  checkInteger('nodeCrashCountMax', f.nodeCrashCountMax ?? 0, 0, faultCountMaxLimit);
  checkInteger('promoteCountMax', f.promoteCountMax ?? 0, 0, faultCountMaxLimit);
  checkInteger('clockJumpCountMax', f.clockJumpCountMax ?? 0, 0, faultCountMaxLimit);
  checkInteger('partitionCountMax', f.partitionCountMax ?? 0, 0, faultCountMaxLimit);
  const jumps = f.clockJumpsMs ?? [];
  if (jumps.length > stallLengthCountMaxLimit) throw new BoundsError(`at most ${stallLengthCountMaxLimit} clock jump lengths`);
  for (const ms of jumps) {
    checkInteger('a clock jump (ms)', ms, -advanceMsMax, advanceMsMax);
    if (ms === 0) throw new BoundsError('a clock jump of 0 ms changes nothing');
  }
  if ((f.clockJumpCountMax ?? 0) > 0 && jumps.length === 0) throw new BoundsError('clock jumps need at least one length');
  checkInteger('lossCountMax', f.lossCountMax ?? 0, 0, faultCountMaxLimit);
  checkInteger('clientClockJumpCountMax', f.clientClockJumpCountMax ?? 0, 0, faultCountMaxLimit);
  checkInteger('replicationDelayCountMax', f.replicationDelayCountMax ?? 0, 0, faultCountMaxLimit);
  const clientJumps = checkLengths('client clock jump', f.clientClockJumpsMs ?? [], -advanceMsMax, false);
  const delays = checkLengths('replication delay', f.replicationDelaysMs ?? [], 0, true);
  if ((f.clientClockJumpCountMax ?? 0) > 0 && clientJumps.length === 0) throw new BoundsError('client clock jumps need at least one length');
  if ((f.replicationDelayCountMax ?? 0) > 0 && delays.length === 0) throw new BoundsError('replication delay changes need at least one delay');
  if (clientIds && f.clients) {
    for (const id of f.clients) if (!clientIds.includes(id)) throw new BoundsError(`unknown client "${id}" in the fault budget (clients: ${clientIds.join(', ')})`);
  }
  if (nodeIds) {
    if (nodeIds.length === 0 && hasNodeFaults(f)) throw new BoundsError('this scenario has one Redis node: its fault budget cannot hold node faults');
    for (const id of f.nodes ?? []) if (!nodeIds.includes(id)) throw new BoundsError(`unknown node "${id}" in the fault budget (nodes: ${nodeIds.join(', ')})`);
  }
  // Sorted, without repeats: the same budget always searches (and reads) the same way.
  const lengths = [...new Set(f.stallLengthsMs)].sort((a, b) => a - b);
  const faults: FaultBudget = { ...f, stallLengthsMs: lengths };
  if (f.clockJumpsMs !== undefined) (faults as { clockJumpsMs: readonly number[] }).clockJumpsMs = [...new Set(jumps)].sort((a, b) => a - b);
  if (f.clientClockJumpsMs !== undefined) (faults as { clientClockJumpsMs: readonly number[] }).clientClockJumpsMs = clientJumps;
  if (f.replicationDelaysMs !== undefined) (faults as { replicationDelaysMs: readonly number[] }).replicationDelaysMs = delays;
  return { ...bounds, faults };
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

const SIGNED_DURATION = /^(-?)([0-9]+)(ms|s)?$/;

function parseJump(text: string): number {
  const m = SIGNED_DURATION.exec(text);
  if (!m) throw new BoundsError(`bad clock jump "${text}" (want e.g. 11000, 11s or -2000)`);
  const ms = (m[1] === '-' ? -1 : 1) * Number(m[2]) * (m[3] === 's' ? 1000 : 1);
  checkInteger('a clock jump (ms)', ms, -advanceMsMax, advanceMsMax);
  return ms;
}

function parseDelay(text: string): number {
  const m = DURATION.exec(text);
  if (!m) throw new BoundsError(`bad replication delay "${text}" (want e.g. 3000, 3000ms or 3s)`);
  const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  checkInteger('a replication delay (ms)', ms, 0, advanceMsMax);
  return ms;
}

function parseNames(what: string, value: string): string[] {
  const names = value.split('+');
  if (names.some((id) => !/^[A-Za-z][A-Za-z0-9_]*$/.test(id))) throw new BoundsError(`bad ${what} list "${value}"`);
  return names;
}

/**
 * Parses a fault budget written as `none` or comma-separated items (the CLI's `--faults`):
 * `stalls=1,lengths=2500+5000,crashes=1,clients=A+B` for clients' processes, and for scenarios
 * with several nodes `node-crashes=1,promotions=1,jumps=1,jump-ms=11000+-2000,partitions=2,nodes=r3+r4`,
 * `losses=1` (lost requests and replies), `client-jumps=1,client-jump-ms=2000+-2000` (client clock
 * jumps) and `repl-delays=1,repl-delay-ms=0+3000` (a replica's replication delay set to one of these).
 * Lengths are durations as in schedules (`5000`, `5000ms`, `5s`); a clock jump may be negative.
 */
export function parseFaultBudget(text: string): FaultBudget {
  const trimmed = text.trim();
  if (trimmed === 'none' || trimmed === '') return noFaults;
  let stallCountMax = 0;
  let crashCountMax = 0;
  let stallLengthsMs: number[] = [];
  let clients: string[] | undefined;
  const node: { -readonly [K in 'nodeCrashCountMax' | 'promoteCountMax' | 'clockJumpCountMax' | 'partitionCountMax' | 'lossCountMax' | 'clientClockJumpCountMax' | 'replicationDelayCountMax']?: number } & {
    clockJumpsMs?: number[];
    clientClockJumpsMs?: number[];
    replicationDelaysMs?: number[];
    nodes?: string[];
  } = {};
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
        clients = parseNames('client', value);
        break;
      case 'node-crashes':
        node.nodeCrashCountMax = parseCount('node-crashes', value);
        break;
      case 'promotions':
        node.promoteCountMax = parseCount('promotions', value);
        break;
      case 'jumps':
        node.clockJumpCountMax = parseCount('jumps', value);
        break;
      case 'jump-ms':
        node.clockJumpsMs = value.split('+').map(parseJump);
        break;
      case 'partitions':
        node.partitionCountMax = parseCount('partitions', value);
        break;
      case 'nodes':
        node.nodes = parseNames('node', value);
        break;
      case 'losses':
        node.lossCountMax = parseCount('losses', value);
        break;
      case 'client-jumps':
        node.clientClockJumpCountMax = parseCount('client-jumps', value);
        break;
      case 'client-jump-ms':
        node.clientClockJumpsMs = value.split('+').map(parseJump);
        break;
      case 'repl-delays':
        node.replicationDelayCountMax = parseCount('repl-delays', value);
        break;
      case 'repl-delay-ms':
        node.replicationDelaysMs = value.split('+').map(parseDelay);
        break;
      default:
        throw new BoundsError(
          `unknown fault item "${name}" (stalls, lengths, crashes, clients, node-crashes, promotions, jumps, jump-ms, partitions, losses, client-jumps, client-jump-ms, repl-delays, repl-delay-ms, nodes)`,
        );
    }
  }
  if (stallCountMax > 0 && stallLengthsMs.length === 0) throw new BoundsError('stalls need lengths, e.g. stalls=1,lengths=5000');
  if ((node.clockJumpCountMax ?? 0) > 0 && (node.clockJumpsMs ?? []).length === 0) throw new BoundsError('clock jumps need lengths, e.g. jumps=1,jump-ms=11000');
  if ((node.clientClockJumpCountMax ?? 0) > 0 && (node.clientClockJumpsMs ?? []).length === 0) throw new BoundsError('client clock jumps need lengths, e.g. client-jumps=1,client-jump-ms=2000');
  if ((node.replicationDelayCountMax ?? 0) > 0 && (node.replicationDelaysMs ?? []).length === 0) throw new BoundsError('replication delay changes need delays, e.g. repl-delays=1,repl-delay-ms=3000');
  const budget: FaultBudget = { stallCountMax, stallLengthsMs, crashCountMax, ...(clients ? { clients } : {}), ...node };
  return validateBounds({ faults: budget, depthMax: 1, stateCountMax: 1, horizonMs: null }).faults;
}

/** The canonical text of a fault budget (what parseFaultBudget reads back). */
export function formatFaultBudget(f: FaultBudget): string {
  if (f.stallCountMax === 0 && f.crashCountMax === 0 && !hasNodeFaults(f)) return 'none';
  const parts: string[] = [];
  if (f.stallCountMax > 0) parts.push(`stalls=${f.stallCountMax}`, `lengths=${f.stallLengthsMs.join('+')}`);
  if (f.crashCountMax > 0) parts.push(`crashes=${f.crashCountMax}`);
  if (f.clients) parts.push(`clients=${f.clients.join('+')}`);
  if ((f.nodeCrashCountMax ?? 0) > 0) parts.push(`node-crashes=${f.nodeCrashCountMax}`);
  if ((f.promoteCountMax ?? 0) > 0) parts.push(`promotions=${f.promoteCountMax}`);
  if ((f.clockJumpCountMax ?? 0) > 0) parts.push(`jumps=${f.clockJumpCountMax}`, `jump-ms=${(f.clockJumpsMs ?? []).join('+')}`);
  if ((f.partitionCountMax ?? 0) > 0) parts.push(`partitions=${f.partitionCountMax}`);
  if ((f.lossCountMax ?? 0) > 0) parts.push(`losses=${f.lossCountMax}`);
  if ((f.clientClockJumpCountMax ?? 0) > 0) parts.push(`client-jumps=${f.clientClockJumpCountMax}`, `client-jump-ms=${(f.clientClockJumpsMs ?? []).join('+')}`);
  if ((f.replicationDelayCountMax ?? 0) > 0) parts.push(`repl-delays=${f.replicationDelayCountMax}`, `repl-delay-ms=${(f.replicationDelaysMs ?? []).join('+')}`);
  if (f.nodes && hasNodeFaults(f)) parts.push(`nodes=${f.nodes.join('+')}`);
  return parts.join(',');
}
