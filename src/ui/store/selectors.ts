/**
 * Hoisted selectors: module-level functions keep their identity between renders, and components
 * that need several fields combine them with useShallow. Each returns data that keeps its identity
 * when unchanged (see derive.ts), so a step re-renders only what it changed.
 */
import { translator } from '../i18n';
import type { SimState } from './createSimStore';

export const selectLang = (s: SimState) => s.lang;
export const selectT = (s: SimState) => translator(s.lang);
export const selectClientIds = (s: SimState) => s.clientIds;
export const selectClients = (s: SimState) => s.clients;
export const selectKeys = (s: SimState) => s.keys;
export const selectLock = (s: SimState) => s.lock;
export const selectViolations = (s: SimState) => s.violations;
export const selectNowMs = (s: SimState) => s.nowMs;
export const selectCursor = (s: SimState) => s.cursor;
export const selectEvents = (s: SimState) => s.events;
export const selectTokens = (s: SimState) => s.tokens;
export const selectTokenOwners = (s: SimState) => s.tokenOwners;
export const selectNotice = (s: SimState) => s.notice;
export const selectLinkError = (s: SimState) => s.linkError;
export const selectView = (s: SimState) => s.view;
export const selectShortcutsOpen = (s: SimState) => s.shortcutsOpen;
export const selectPlaying = (s: SimState) => s.playing;
export const selectEmbed = (s: SimState) => s.embed;

export const selectRunIdentity = (s: SimState) => ({ scenarioId: s.scenarioId, variantId: s.variantId, seed: s.seed });
export const selectPosition = (s: SimState) => ({ cursor: s.cursor, length: s.length, nowMs: s.nowMs, finished: s.finished });
export const selectPlayback = (s: SimState) => ({ playing: s.playing, speedStepsPerS: s.speedStepsPerS });
export const selectAppearance = (s: SimState) => ({ lang: s.lang, theme: s.theme, presentation: s.presentation, embed: s.embed });
export const selectNarrationInput = (s: SimState) => ({
  scenarioId: s.scenarioId,
  variantId: s.variantId,
  cursor: s.cursor,
  onDefaultPath: s.onDefaultPath,
  lastStepEvents: s.lastStepEvents,
  tokens: s.tokens,
  lang: s.lang,
});
export const selectOutcomes = (s: SimState) => ({ outcomes: s.outcomes, pending: s.outcomesPending, variantId: s.variantId, lang: s.lang });

/** One client's view by id (a stable object while that client does not change). */
export const selectClient = (id: string) => (s: SimState) => s.clients.find((c) => c.id === id);
