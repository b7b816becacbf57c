/**
 * The explorer's verdicts in words (docs/EXPLORER.md, "Verdicts"). The rule: never more than
 * was checked. A violation is named with its schedule; an absence is claimed only for the kinds
 * searched to the end, with the bounds, the counts, and whether the search was exhaustive, and if
 * not, what cut it. The CLI prints these lines in English; the page in the reader's language.
 *
 * The shapes here are the engine's explore results (src/engine/explore/result.ts), restated so
 * the catalog imports nothing.
 */
import { formatAlternatives, formatDuration, formatList, formatNumber, translator, type Lang } from './translate';
import { violationKindLabel } from './violations';

interface FaultsInput {
  readonly stallCountMax: number;
  readonly stallLengthsMs: readonly number[];
  readonly crashCountMax: number;
  readonly clients?: readonly string[];
  readonly nodeCrashCountMax?: number;
  readonly promoteCountMax?: number;
  readonly clockJumpCountMax?: number;
  readonly clockJumpsMs?: readonly number[];
  readonly partitionCountMax?: number;
  readonly lossCountMax?: number;
  readonly clientClockJumpCountMax?: number;
  readonly clientClockJumpsMs?: readonly number[];
  readonly replicationDelayCountMax?: number;
  readonly replicationDelaysMs?: readonly number[];
  readonly nodes?: readonly string[];
}

/** Signed durations (`+11 s`, `-2 s`) in words, as alternatives. */
function signedLengths(list: readonly number[], lang: Lang): string {
  return formatAlternatives(
    list.map((ms) => (ms < 0 ? `-${formatDuration(-ms, lang)}` : `+${formatDuration(ms, lang)}`)),
    lang,
  );
}

export interface BoundsInput {
  readonly faults: FaultsInput;
  readonly depthMax: number;
  readonly stateCountMax: number;
  readonly horizonMs: number | null;
}

export interface VerdictInput {
  readonly mode: 'bfs' | 'random' | 'pct' | 'swarm';
  readonly bounds: BoundsInput;
  readonly invariants: readonly string[];
  readonly statesExplored: number;
  readonly transitionsExplored: number;
  readonly exhaustive: boolean;
  readonly cut: {
    readonly depthCutStates: number;
    readonly horizonCutMoves: number;
    readonly stateBudget: boolean;
    readonly stoppedAtViolation: boolean;
    readonly cancelled: boolean;
  };
  readonly violations: readonly { readonly kind: string; readonly steps: number; readonly schedule: string }[];
  readonly coverage: { readonly walks: number; readonly goodTuring: number } | null;
  readonly pct?: {
    readonly bugDepth: number;
    readonly entities: number;
    readonly stepCountMax: number;
    readonly faultMoves: number;
    readonly perWalkProbability: number;
    readonly walks: number;
    readonly foundProbability: number;
  } | null;
  /** The scenario's own properties (engine/explore/properties.ts). */
  readonly properties?: readonly {
    readonly name: string;
    readonly status: 'violated' | 'held' | 'reached' | 'not-reached';
    readonly found: { readonly steps: number; readonly schedule: string } | null;
    readonly exhaustive: boolean;
    readonly statesExplored: number;
  }[];
}

/** A probability for a verdict: a percentage to 3 significant digits, or scientific when tiny. */
export function probabilityText(p: number, lang: Lang): string {
  if (p >= 0.001) return `${formatNumber(Number((p * 100).toPrecision(3)), lang)}%`;
  return p.toExponential(2);
}

/** PCT's guarantee in words (pct.ts, pctGuarantee). */
function pctLine(pct: NonNullable<VerdictInput['pct']>, lang: Lang): string {
  return translator(lang)('explorePctBound', {
    d: pct.bugDepth,
    p: probabilityText(pct.perWalkProbability, lang),
    n: pct.entities,
    k: pct.stepCountMax,
    walks: pct.walks,
    total: probabilityText(pct.foundProbability, lang),
    f: pct.faultMoves,
  });
}

/** "at most 1 stall of 5 s or 7 s and at most 1 crash" / "no faults". */
export function faultsText(faults: FaultsInput, lang: Lang): string {
  const t = translator(lang);
  const parts: string[] = [];
  if (faults.stallCountMax > 0) {
    const lengths = formatAlternatives(
      faults.stallLengthsMs.map((ms) => formatDuration(ms, lang)),
      lang,
    );
    parts.push(t('exploreStalls', { n: faults.stallCountMax, lengths }));
  }
  if (faults.crashCountMax > 0) parts.push(t('exploreCrashes', { n: faults.crashCountMax }));
  const nodeParts: string[] = [];
  if ((faults.nodeCrashCountMax ?? 0) > 0) nodeParts.push(t('exploreNodeCrashes', { n: faults.nodeCrashCountMax ?? 0 }));
  if ((faults.promoteCountMax ?? 0) > 0) nodeParts.push(t('explorePromotions', { n: faults.promoteCountMax ?? 0 }));
  if ((faults.clockJumpCountMax ?? 0) > 0) {
    nodeParts.push(t('exploreClockJumps', { n: faults.clockJumpCountMax ?? 0, lengths: signedLengths(faults.clockJumpsMs ?? [], lang) }));
  }
  if ((faults.partitionCountMax ?? 0) > 0) nodeParts.push(t('explorePartitions', { n: faults.partitionCountMax ?? 0 }));
  if ((faults.lossCountMax ?? 0) > 0) nodeParts.push(t('exploreLosses', { n: faults.lossCountMax ?? 0 }));
  if ((faults.clientClockJumpCountMax ?? 0) > 0) {
    nodeParts.push(t('exploreClientClockJumps', { n: faults.clientClockJumpCountMax ?? 0, lengths: signedLengths(faults.clientClockJumpsMs ?? [], lang) }));
  }
  if ((faults.replicationDelayCountMax ?? 0) > 0) {
    const delays = formatAlternatives(
      (faults.replicationDelaysMs ?? []).map((ms) => formatDuration(ms, lang)),
      lang,
    );
    nodeParts.push(t('exploreReplicationDelays', { n: faults.replicationDelayCountMax ?? 0, delays }));
  }
  if (parts.length === 0 && nodeParts.length === 0) return t('exploreFaultsNone');
  let text = formatList([...parts, ...nodeParts], lang);
  if (faults.clients) text = t('exploreFaultClients', { faults: text, clients: formatList(faults.clients, lang) });
  return faults.nodes && nodeParts.length > 0 ? t('exploreFaultNodes', { faults: text, nodes: formatList(faults.nodes, lang) }) : text;
}

/** The scope a search covered, in words. */
export function boundsText(bounds: BoundsInput, lang: Lang): string {
  const t = translator(lang);
  const faults = faultsText(bounds.faults, lang);
  return bounds.horizonMs === null
    ? t('exploreBounds', { depth: bounds.depthMax, faults })
    : t('exploreBoundsHorizon', { depth: bounds.depthMax, horizonMs: bounds.horizonMs, faults });
}

/** What stopped a search short of every state, in words (empty when nothing did). */
export function cutsText(result: VerdictInput, lang: Lang): string {
  return searchCutText(result.cut, result.bounds.stateCountMax, lang);
}

/** A search's cut (engine/explore/result.ts, SearchCut) in words; `stateCountMax` is its state budget. */
export function searchCutText(cut: VerdictInput['cut'], stateCountMax: number, lang: Lang): string {
  const t = translator(lang);
  const cuts: string[] = [];
  if (cut.cancelled) cuts.push(t('exploreCutCancelled'));
  if (cut.stateBudget) cuts.push(t('exploreCutStates', { n: stateCountMax }));
  if (cut.depthCutStates > 0) cuts.push(t('exploreCutDepth', { n: cut.depthCutStates }));
  if (cut.horizonCutMoves > 0) cuts.push(t('exploreCutHorizon', { n: cut.horizonCutMoves }));
  return formatList(cuts, lang);
}

/**
 * The verdict, one line per finding: each violation found with its schedule, then what was not
 * found, claimed only as far as it was searched.
 */
export function exploreVerdictLines(result: VerdictInput, lang: Lang): string[] {
  const t = translator(lang);
  const lines = result.violations.map((v) => t('exploreFound', { kind: violationKindLabel(v.kind, lang), n: v.steps, schedule: v.schedule }));
  const foundKinds = new Set(result.violations.map((v) => v.kind));
  const rest = result.invariants.filter((kind) => !foundKinds.has(kind));
  lines.push(...propertyLines(result, lang));
  if (rest.length === 0) return result.pct ? [...lines, pctLine(result.pct, lang)] : lines;
  const invariants = formatList(
    rest.map((kind) => violationKindLabel(kind, lang)),
    lang,
  );
  const counts = { invariants, states: result.statesExplored, transitions: result.transitionsExplored };
  const bounds = boundsText(result.bounds, lang);
  if (result.cut.stoppedAtViolation) lines.push(t('exploreStoppedEarly', counts));
  else if (result.mode !== 'bfs' && result.coverage) {
    const coverage = `${formatNumber(Math.round(result.coverage.goodTuring * 1000) / 10, lang)}%`;
    const sampled = { ...counts, bounds, walks: result.coverage.walks, coverage };
    if (result.mode === 'pct') lines.push(t('exploreNonePct', { ...sampled, d: result.pct?.bugDepth ?? 0 }));
    else if (result.mode === 'swarm') lines.push(t('exploreNoneSwarm', sampled));
    else lines.push(t('exploreNoneSampled', sampled));
  } else if (result.exhaustive) lines.push(t('exploreNone', { ...counts, bounds }));
  else lines.push(t('exploreNoneCut', { ...counts, bounds, cuts: cutsText(result, lang) }));
  if (result.pct) lines.push(pctLine(result.pct, lang));
  return lines;
}

/** One line per property of the scenario: violated or reached with its shortest schedule, or held / not reached, exhaustively or not. */
function propertyLines(result: VerdictInput, lang: Lang): string[] {
  const t = translator(lang);
  return (result.properties ?? []).map((p) => {
    const params = { name: p.name, states: p.statesExplored };
    if (p.found !== null) return t(p.status === 'violated' ? 'explorePropertyViolated' : 'explorePropertyReached', { ...params, n: p.found.steps, schedule: p.found.schedule });
    if (p.status === 'held') return t(p.exhaustive ? 'explorePropertyHeld' : 'explorePropertyHeldCut', params);
    return t(p.exhaustive ? 'explorePropertyNotReached' : 'explorePropertyNotReachedCut', params);
  });
}
