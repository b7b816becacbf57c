/**
 * Hoisted selectors: module-level functions keep their identity between renders, and components
 * that need several fields combine them with useShallow. Each returns data that keeps its identity
 * when unchanged (see derive.ts), so a step re-renders only what it changed.
 */
import { translator, type Lang } from '../../i18n';
import { eventDescriber } from '../../engine/describe';
import { lockState, type LockState } from '../../engine/lock-state';
import type { TraceEvent } from '../../engine/trace';
import type { SimState } from './store-types';
import { formatRunHashWith, lessonRunHash } from './run-link';
import { replayCommandText } from './replay-command';

export const selectLang = (s: SimState) => s.lang;
export const selectT = (s: SimState) => translator(s.lang);
export const selectScenarioId = (s: SimState) => s.scenarioId;
export const selectScenarios = (s: SimState) => s.scenarios;
export const selectRunLoading = (s: SimState) => s.runLoading;
export const selectRunInfo = (s: SimState) => s.runInfo;
export const selectClientIds = (s: SimState) => s.clientIds;
export const selectNotice = (s: SimState) => s.notice;
export const selectLinkError = (s: SimState) => s.linkError;
export const selectView = (s: SimState) => s.view;
export const selectShortcutsOpen = (s: SimState) => s.shortcutsOpen;
export const selectReplayOpen = (s: SimState) => s.replayOpen;
export const selectPresentation = (s: SimState) => s.presentation;

export const selectPlayback = (s: SimState) => ({ playing: s.playing, speedStepsPerS: s.speedStepsPerS });
export const selectAppearance = (s: SimState) => ({ lang: s.lang, theme: s.theme, presentation: s.presentation, embed: s.embed });
// The radio follows a press at once: the variant asked for, until the session's run under it is published.
export const selectOutcomes = (s: SimState) => ({ outcomes: s.outcomes, pending: s.outcomesPending, variantId: s.requestedVariantId ?? s.variantId, lang: s.lang, predict: s.predict });

/** The CLI command that replays the run shown on a real Redis (docs/REPLAY.md). */
export const selectReplayCommand = (s: SimState) => replayCommandText(s.scenarioId, s.variantId, s.seed, s.schedule, s.cursor, s.nodes.length > 0 ? 'nodes' : s.runInfo.redisCluster ? 'cluster' : 'one');
/** The run's link; a scenario only this page knows (edited, the user's) carries its definition once encoded. */
export const selectRunHash = (s: SimState) =>
  formatRunHashWith(s.scenarioId, s.variantId, s.seed, s.schedule, s.runLink, s.cursor, {
    challengeId: s.challengeId,
    predict: s.predict,
    definitionPayload: s.ioLink.scenarioId === s.scenarioId ? s.ioLink.payload : null,
  });

let lastLock: { view: SimState['lock']; state: LockState } | null = null;

/** Redis's truth about the lock: free, or held by a client (or by nobody known). Stable while the lock is. */
export const selectLockState = (s: SimState): LockState => {
  if (lastLock?.view !== s.lock) lastLock = { view: s.lock, state: lockState(s.lock) };
  return lastLock.state;
};

type Describe = (event: TraceEvent) => string;
let lastDescriber: { lang: Lang; tokens: SimState['tokens']; scripts: SimState['runInfo']['scriptNames']; describe: Describe } | null = null;

/**
 * One event in words in the store's language, tokens and scripts named: the same function while
 * language and run stay (so rows that call it keep their memo).
 */
export const selectDescribeEvent = (s: SimState): Describe => {
  const scripts = s.runInfo.scriptNames;
  if (lastDescriber && lastDescriber.lang === s.lang && lastDescriber.tokens === s.tokens && lastDescriber.scripts === scripts) return lastDescriber.describe;
  const describe = eventDescriber({ lang: s.lang, tokens: s.tokens, scripts });
  lastDescriber = { lang: s.lang, tokens: s.tokens, scripts, describe };
  return describe;
};

/** One event in words for a given run's tokens and scripts (the variant comparison describes other variants' events). */
export function describerFor(lang: Lang, tokens: SimState['tokens'], scripts: SimState['runInfo']['scriptNames']): Describe {
  return eventDescriber({ lang, tokens, scripts });
}

/** The scenario's scripted narration for the step just applied, while the run follows its story. */
export const selectScriptedNarration = (s: SimState) => (s.onDefaultPath && s.cursor > 0 ? (s.runInfo.story.get(s.cursor - 1) ?? null) : null);

/** A lesson's link to another run: a scenario's variant from its first step (the hash the page opens). */
export const runLinkOf = lessonRunHash;
