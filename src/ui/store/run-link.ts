/**
 * Share links: a whole run as a URL hash, versioned and validated.
 *
 *   #/v1/<scenario>/<variant>?seed=<uint32>&s=<schedule>&at=<cursor>[&ch=<challenge>][&predict=1]
 *
 * `s` is the schedule's tokens (docs/SCHEDULES.md), each percent-encoded, joined by `.`:
 * `A A +4000 B A` is `s=A.A.%2B4000.B.A`. `at` is the step shown (0..schedule length; default the
 * end). `ch` names the lesson's active challenge and `predict=1` turns predict-then-reveal on: both
 * were added to v1 compatibly (a reader that does not know them ignores them). Grammar and limits
 * are documented in docs/AUTOMATION.md.
 *
 * Parsing never trusts the text: length caps first, then a strict shape, known scenario and
 * variant, an integer seed, and the schedule through `parseSchedule`. Whether the schedule fits
 * (replays without a ChoiceError) is checked by the store when it loads the link.
 */
import { formatChoice, formatSchedule, parseSchedule, ScheduleSyntaxError, type Choice } from '../../engine/schedule';
import { nodeIdsOf, type Scenario } from '../../engine/scenario';
import { challengesOf } from '../../scenarios/learning';
import { defaultSeed } from '../../engine/simulation';
import { definitionLinkCharsMax } from '../../definition/bounds';
import type { LinkError, LinkErrorReason } from './types';

const LINK_VERSION = 'v1';
/** Longest hash accepted: 10,000 schedule tokens of up to 11 characters, plus the rest. */
export const linkLengthMax = 130_000;
const idLengthMax = 64;
const seedMax = 0xffff_ffff;

/** A run as a link carries it: also a RunSpec the store loads as it is. */
export interface RunLink {
  readonly scenarioId: string;
  readonly variantId: string;
  readonly seed: number;
  readonly schedule: readonly Choice[];
  /** Step shown; null means the end of the schedule. */
  readonly cursor: number | null;
  /** The active challenge (`ch`), or null. */
  readonly challengeId?: string | null;
  /** Predict-then-reveal is on (`predict=1`). */
  readonly predict?: boolean;
}

export type LinkParse =
  | { readonly kind: 'none' }
  | { readonly kind: 'ok'; readonly link: RunLink }
  | { readonly kind: 'error'; readonly error: LinkError }
  /** The link carries its scenario (`def=`): decode it with definition-link.ts `parseDefinitionLink`. */
  | { readonly kind: 'custom'; readonly hash: string };

/** The query parameter that carries a whole definition. */
export const DEFINITION_PARAM = 'def';
const DEFINITION_PARAM_AT = /[?&]def=/;

/** Cuts untrusted text for display. */
export function clip(text: string, lengthMax = 80): string {
  return text.length > lengthMax ? `${text.slice(0, lengthMax)}…` : text;
}

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

const ID = /^[a-z0-9][a-z0-9-]*$/;

/**
 * The built-in scenario a link names (its path's second segment), without checking anything else;
 * undefined when the hash is not shaped like a v1 link. The page loads that scenario before it
 * parses the rest (the schedule's client ids are the scenario's).
 */
export function linkScenarioId(hash: string): string | undefined {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text.length > linkLengthMax) return undefined;
  const queryAt = text.indexOf('?');
  const segments = (queryAt === -1 ? text : text.slice(0, queryAt)).split('/');
  if (segments.length !== 4 || segments[0] !== '' || segments[1] !== LINK_VERSION) return undefined;
  const id = decode(segments[2]);
  return id !== null && id.length <= idLengthMax && ID.test(id) ? id : undefined;
}

/** A link's query as name -> value; a name given twice is returned alone (the link is refused). */
function queryParams(query: string): Map<string, string> | string {
  const params = new Map<string, string>();
  if (query === '') return params;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    if (params.has(name)) return name;
    params.set(name, eq === -1 ? '' : pair.slice(eq + 1));
  }
  return params;
}

/** The choices of a link's `s=` (dot-separated tokens), the scenario's default schedule when absent, or why they do not parse. */
function linkChoices(rawSchedule: string | undefined, scenario: Scenario, variant: Scenario['variants'][number]): Choice[] | { readonly problem: string } {
  const clientIds = variant.clients.map((c) => c.id);
  if (rawSchedule === undefined) return parseSchedule(scenario.defaultSchedule, clientIds, nodeIdsOf(scenario, variant));
  const tokens = rawSchedule === '' ? [] : rawSchedule.split('.');
  const decoded: string[] = [];
  for (const token of tokens) {
    const plain = decode(token);
    if (plain === null || plain === '' || /[\s,]/.test(plain)) return { problem: plain ?? token };
    decoded.push(plain);
  }
  try {
    return parseSchedule(decoded.join(' '), clientIds, nodeIdsOf(scenario, variant));
  } catch (error) {
    if (error instanceof ScheduleSyntaxError) return { problem: error.message };
    throw error;
  }
}

/**
 * Parses a location hash (with or without the leading `#`). An empty hash is `none`. `scenarios`
 * finds a built-in scenario by id (a list, or a lookup such as a library's `ready`).
 */
export function parseRunLink(hash: string, scenarios: readonly Scenario[] | ((id: string) => Scenario | undefined)): LinkParse {
  const find = typeof scenarios === 'function' ? scenarios : (id: string) => scenarios.find((s) => s.id === id);
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '' || text === '/') return { kind: 'none' };
  const fail = (reason: LinkErrorReason, detail: string): LinkParse => ({ kind: 'error', error: { reason, detail: clip(detail) } });
  if (DEFINITION_PARAM_AT.test(text)) {
    return text.length > linkLengthMax + definitionLinkCharsMax ? fail('too-long', String(text.length)) : { kind: 'custom', hash: text };
  }
  if (text.length > linkLengthMax) return fail('too-long', String(text.length));

  const queryAt = text.indexOf('?');
  const path = queryAt === -1 ? text : text.slice(0, queryAt);
  const query = queryAt === -1 ? '' : text.slice(queryAt + 1);
  const segments = path.split('/');
  if (segments.length !== 4 || segments[0] !== '') return fail('bad-format', path);
  const [, version, rawScenario, rawVariant] = segments;
  if (version !== LINK_VERSION) return fail('bad-version', version);
  const scenarioId = decode(rawScenario);
  if (scenarioId === null || scenarioId.length > idLengthMax || !ID.test(scenarioId)) return fail('unknown-scenario', scenarioId ?? rawScenario);
  const scenario = find(scenarioId);
  if (!scenario) return fail('unknown-scenario', scenarioId);
  const variantId = decode(rawVariant);
  if (variantId === null || variantId.length > idLengthMax || !ID.test(variantId)) return fail('unknown-variant', variantId ?? rawVariant);
  const variant = scenario.variants.find((v) => v.id === variantId);
  if (!variant) return fail('unknown-variant', variantId);

  const params = queryParams(query);
  if (typeof params === 'string') return fail('bad-format', `${params} twice`);

  const rawSeed = params.get('seed') ?? String(defaultSeed);
  if (!/^[0-9]{1,10}$/.test(rawSeed) || Number(rawSeed) > seedMax) return fail('bad-seed', rawSeed);
  const seed = Number(rawSeed);

  const choices = linkChoices(params.get('s'), scenario, variant);
  if (!Array.isArray(choices)) return fail('bad-schedule', choices.problem);

  const rawCursor = params.get('at');
  let cursor: number | null = null;
  if (rawCursor !== undefined) {
    if (!/^[0-9]{1,6}$/.test(rawCursor) || Number(rawCursor) > choices.length) return fail('bad-cursor', rawCursor);
    cursor = Number(rawCursor);
  }
  const rawChallenge = params.get('ch');
  let challengeId: string | null = null;
  if (rawChallenge !== undefined) {
    const id = decode(rawChallenge);
    if (id === null || !ID.test(id) || !challengesOf(scenario).some((c) => c.id === id)) return fail('unknown-challenge', id ?? rawChallenge);
    challengeId = id;
  }
  const rawPredict = params.get('predict');
  if (rawPredict !== undefined && rawPredict !== '0' && rawPredict !== '1') return fail('bad-format', `predict=${rawPredict}`);
  return { kind: 'ok', link: { scenarioId, variantId, seed, schedule: choices, cursor, challengeId, predict: rawPredict === '1' } };
}

/** The hash for a run, `#/v1/...`. `at` is left out when the cursor is at the end. */
export function formatRunLink(link: RunLink): string {
  return formatRunHash(link.scenarioId, link.variantId, link.seed, formatSchedule(link.schedule), link.cursor, link);
}

/** A link to a scenario's variant at its first step under its own schedule (a lesson's "show me"). */
export function lessonRunHash(scenarioId: string, variantId: string): string {
  return `#/${LINK_VERSION}/${encodeURIComponent(scenarioId)}/${encodeURIComponent(variantId)}?seed=${defaultSeed}&at=0`;
}

/** What a link carries besides the run. */
export interface LinkExtras {
  readonly challengeId?: string | null;
  readonly predict?: boolean;
  /** The scenario's definition as a link payload (`def=`), for a scenario only this page knows. */
  readonly definitionPayload?: string | null;
}

/** A schedule as a link writes it: each token escaped, '.' between them (a token's own dots, as in a console word 1.5, escaped). */
interface EncodedTokens {
  readonly schedule: string;
  readonly tokenCount: number;
}

function encodeTokens(text: string): EncodedTokens {
  const tokens = text === '' ? [] : text.split(' ');
  return { schedule: tokens.map((token) => encodeURIComponent(token).replace(/\./g, '%2E')).join('.'), tokenCount: tokens.length };
}

/**
 * A run's schedule as its link writes it, kept on the store beside the run's log (`SimState.runLink`)
 * and extended per choice like the log: the address bar and the selectors ask for the link after
 * every step, and a 10,000-step schedule is tens of kB. `text` is the schedule text it encodes.
 */
export interface RunLinkSchedule extends EncodedTokens {
  readonly text: string;
  /** The log generation and choice count it was made from (-1: none, encoded from text alone). */
  readonly generation: number;
  readonly stepCount: number;
}

export const NO_RUN_LINK_SCHEDULE: RunLinkSchedule = { text: '', schedule: '', tokenCount: 0, generation: -1, stepCount: 0 };

/** What runLinkScheduleOf reads of the run's log (the store's RunProjectionView). */
export interface RunLinkLog {
  readonly generation: number;
  readonly stepCount: number;
  readonly choices: readonly Choice[];
  readonly schedule: string;
}

/**
 * The link schedule of `log`: `previous` extended by the choices appended since it was made (the
 * log only grows within a generation, so nothing before them is compared or encoded again), or
 * encoded whole for another generation or a log that is not the one it followed.
 */
export function runLinkScheduleOf(log: RunLinkLog, previous: RunLinkSchedule): RunLinkSchedule {
  const stepCount = log.stepCount;
  if (previous.generation === log.generation && previous.stepCount === stepCount && previous.text === log.schedule) return previous;
  if (previous.generation !== log.generation || previous.generation < 0 || previous.stepCount > stepCount) {
    return { ...encodeTokens(log.schedule), text: log.schedule, generation: log.generation, stepCount };
  }
  let schedule = previous.schedule;
  let tokenCount = previous.tokenCount;
  for (let step = previous.stepCount; step < stepCount; step++) {
    const tail = encodeTokens(formatChoice(log.choices[step]));
    if (tail.tokenCount === 0) continue;
    schedule = tokenCount === 0 ? tail.schedule : `${schedule}.${tail.schedule}`;
    tokenCount += tail.tokenCount;
  }
  return { text: log.schedule, schedule, tokenCount, generation: log.generation, stepCount };
}

/** The same from canonical schedule text (tokens separated by single spaces): the whole schedule encoded. */
export function formatRunHash(scenarioId: string, variantId: string, seed: number, scheduleText: string, cursor: number | null, extras: LinkExtras = {}): string {
  return formatEncodedRunHash(scenarioId, variantId, seed, encodeTokens(scheduleText), cursor, extras);
}

/**
 * The hash of the run whose schedule text is `scheduleText`, from its link schedule when that is
 * the one encoded for this very text (the store's `runLink`: only the new choices were encoded),
 * else from the text.
 */
export function formatRunHashWith(
  scenarioId: string,
  variantId: string,
  seed: number,
  scheduleText: string,
  link: RunLinkSchedule,
  cursor: number | null,
  extras: LinkExtras = {},
): string {
  const encoded = link.text === scheduleText ? link : encodeTokens(scheduleText);
  return formatEncodedRunHash(scenarioId, variantId, seed, encoded, cursor, extras);
}

function formatEncodedRunHash(scenarioId: string, variantId: string, seed: number, encoded: EncodedTokens, cursor: number | null, extras: LinkExtras): string {
  const { schedule, tokenCount } = encoded;
  const at = cursor === null || cursor === tokenCount ? '' : `&at=${cursor}`;
  const ch = extras.challengeId ? `&ch=${encodeURIComponent(extras.challengeId)}` : '';
  const predict = extras.predict ? '&predict=1' : '';
  const def = extras.definitionPayload ? `&${DEFINITION_PARAM}=${extras.definitionPayload}` : '';
  return `#/${LINK_VERSION}/${encodeURIComponent(scenarioId)}/${encodeURIComponent(variantId)}?seed=${seed}&s=${schedule}${at}${ch}${predict}${def}`;
}

/** Embed mode shows the variant toggle unless `variants=0` is in the query string (or the hash's query). */
export function embedShowsVariants(search: string, hash: string): boolean {
  return new URLSearchParams(search).get('variants') !== '0' && !/[?&]variants=0(&|$)/.test(hash);
}

/** Embed mode: `?embed=1` in the query string (or `embed=1` in the hash's query). */
export function isEmbed(search: string, hash: string): boolean {
  const fromSearch = new URLSearchParams(search).get('embed');
  if (fromSearch === '1' || fromSearch === 'true') return true;
  return /[?&]embed=1(&|$)/.test(hash);
}
