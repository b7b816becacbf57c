/**
 * The learn slice: the lesson path, the active challenge, predict-then-reveal and the progress this
 * browser remembers. It reads the run the simulation slice publishes and changes it only through
 * that slice's actions (loadRun, selectScenario), so the simulation slice knows nothing of it.
 */
import type { StateCreator, StoreApi } from 'zustand/vanilla';
import { challengeStatus } from '../../../engine/learn/challenge';
import { START_SCENARIO_ID } from '../../../scenarios/learning';
import type { SimState } from '../createSimStore';
import type { ChallengeSpec, ChallengeStatus } from '../types';

/** A lesson as the path lists it. */
export interface LessonSummary {
  readonly id: string;
  /** 1-based place in teaching order. */
  readonly number: number;
  /** The lesson a newcomer should start with. */
  readonly start: boolean;
}

export interface LessonProgress {
  readonly visited: boolean;
  /** Challenge id -> fewest choices it was met with. */
  readonly met: Readonly<Record<string, number>>;
}

/** What this browser remembers of the path (saved by share/persist.ts, validated when read). */
export interface Progress {
  readonly lessons: Readonly<Record<string, LessonProgress>>;
}

export const EMPTY_PROGRESS: Progress = { lessons: {} };

/** Finds a shortest schedule that meets a challenge (the explorer: store/shortest-way.ts). */
export interface ShortestWayService {
  /** `done` gets the schedule, or null when none was found within the bounds (or the search failed). */
  find(request: { scenarioId: string; variantId: string; seed: number; challenge: ChallengeSpec }, done: (schedule: string | null) => void): void;
  dispose?(): void;
}

/** Tries after which "show me the shortest way" is offered. */
export const triesBeforeShortestWay = 3;

export interface LearnSlice {
  readonly lessons: readonly LessonSummary[];
  /** First visit (no link, nothing saved): the page shows where to start. */
  readonly landing: boolean;
  readonly challengeId: string | null;
  /** How often the active challenge was started or restarted. */
  readonly challengeTries: number;
  /** The shortest way is being looked for. */
  readonly shortestWayPending: boolean;
  /** The last search for the active challenge found no way within its bounds. */
  readonly shortestWayMissed: boolean;
  readonly shortestWayAvailable: boolean;
  readonly predict: boolean;
  /** The challenge panel (over the inspector) is open; it opens with a challenge or predict mode. */
  readonly learnPanelOpen: boolean;
  /** The learner's answers by step of the scenario's own schedule (reset with the run's scenario or variant). */
  readonly predictions: Readonly<Record<number, string>>;
  readonly progress: Progress;

  startLesson(scenarioId: string): void;
  nextLesson(): void;
  dismissLanding(): void;
  startChallenge(challengeId: string): void;
  leaveChallenge(): void;
  showShortestWay(): void;
  togglePredict(): void;
  toggleLearnPanel(): void;
  answerQuestion(step: number, answer: string): void;
  /** Sets what a link carries besides the run (its challenge, predict mode). */
  applyLinkExtras(extras: { readonly challengeId?: string | null; readonly predict?: boolean }): void;
}

export interface LearnInit {
  readonly landing?: boolean;
  readonly progress?: Progress;
  readonly shortestWay?: ShortestWayService | null;
  /** Why the saved progress could not be read (it was kept aside): shown as a notice. */
  readonly progressError?: { readonly detail: string; readonly key: string } | null;
}

export function lessonSummaries(scenarios: readonly { readonly id: string }[]): readonly LessonSummary[] {
  return scenarios.map((s, i) => ({ id: s.id, number: i + 1, start: s.id === START_SCENARIO_ID }));
}

/** The active challenge's spec, if it belongs to the run's scenario. */
export const selectActiveChallenge = (s: SimState): ChallengeSpec | null =>
  s.challengeId === null ? null : (s.runInfo.challenges.find((c) => c.id === s.challengeId) ?? null);

let lastStatus: { spec: ChallengeSpec; variantId: string; cursor: number; violations: SimState['violations']; finished: boolean; status: ChallengeStatus } | null = null;

/** The active challenge's status at the cursor (the same object while its inputs stay). */
export const selectChallengeStatus = (s: SimState): ChallengeStatus | null => {
  const spec = selectActiveChallenge(s);
  if (!spec) return null;
  const l = lastStatus;
  if (l && l.spec === spec && l.variantId === s.variantId && l.cursor === s.cursor && l.violations === s.violations && l.finished === s.finished) return l.status;
  const status = challengeStatus(spec, { variantId: s.variantId, cursor: s.cursor, violations: s.violations, finished: s.finished });
  lastStatus = { spec, variantId: s.variantId, cursor: s.cursor, violations: s.violations, finished: s.finished, status };
  return status;
};

function withLesson(progress: Progress, scenarioId: string, change: (lesson: LessonProgress) => LessonProgress): Progress {
  const before = progress.lessons[scenarioId] ?? { visited: false, met: {} };
  const after = change(before);
  return after === before ? progress : { lessons: { ...progress.lessons, [scenarioId]: after } };
}

type Patch = { -readonly [K in keyof SimState]?: SimState[K] };

export function createLearnSlice(scenarios: readonly { readonly id: string }[], init: LearnInit): StateCreator<SimState, [], [], LearnSlice> {
  const shortestWay = init.shortestWay ?? null;
  return (set, get, api: StoreApi<SimState>) => {
    // Follow the run: a new scenario ends a challenge of the old one and clears predictions; a met
    // challenge and a visited lesson go into the progress.
    api.subscribe((s, prev) => {
      const patch: Patch = {};
      if (s.scenarioId !== prev.scenarioId || s.variantId !== prev.variantId) patch.predictions = {};
      if (s.scenarioId !== prev.scenarioId && s.challengeId !== null && !s.runInfo.challenges.some((c) => c.id === s.challengeId)) {
        patch.challengeId = null;
        patch.challengeTries = 0;
      }
      let progress = s.progress;
      if (s.scenarioId !== prev.scenarioId || prev.progress.lessons[s.scenarioId] === undefined) {
        progress = withLesson(progress, s.scenarioId, (l) => (l.visited ? l : { ...l, visited: true }));
      }
      const status = selectChallengeStatus(s);
      if (status?.state === 'met' && s.challengeId !== null) {
        const id = s.challengeId;
        progress = withLesson(progress, s.scenarioId, (l) => (l.met[id] !== undefined && l.met[id] <= status.choices ? l : { ...l, met: { ...l.met, [id]: status.choices } }));
      }
      if (progress !== s.progress) patch.progress = progress;
      if (Object.keys(patch).length > 0) set(patch);
    });

    const lessons = lessonSummaries(scenarios);
    return {
      lessons,
      landing: init.landing ?? false,
      challengeId: null,
      challengeTries: 0,
      shortestWayPending: false,
      shortestWayMissed: false,
      shortestWayAvailable: shortestWay !== null,
      predict: false,
      learnPanelOpen: false,
      predictions: {},
      progress: init.progress ?? { lessons: {} },

      startLesson(scenarioId) {
        set({ landing: false });
        if (scenarioId !== get().scenarioId) get().selectScenario(scenarioId);
      },
      nextLesson() {
        const at = lessons.findIndex((l) => l.id === get().scenarioId);
        const next = lessons[at + 1];
        if (next) get().startLesson(next.id);
      },
      dismissLanding() {
        set({ landing: false });
      },
      startChallenge(challengeId) {
        const s = get();
        const spec = s.runInfo.challenges.find((c) => c.id === challengeId);
        if (!spec) return;
        const result = s.loadRun({ scenarioId: s.scenarioId, variantId: spec.variantIds[0], seed: s.seed, schedule: spec.start === 'empty' ? '' : undefined, cursor: 0 });
        if (!result.ok) return;
        set({ challengeId, challengeTries: s.challengeId === challengeId ? s.challengeTries + 1 : 1, shortestWayMissed: false, learnPanelOpen: true, persistRun: true, landing: false });
      },
      leaveChallenge() {
        set({ challengeId: null, challengeTries: 0, shortestWayMissed: false });
      },
      showShortestWay() {
        const s = get();
        const spec = selectActiveChallenge(s);
        if (!shortestWay || !spec || s.shortestWayPending) return;
        set({ shortestWayPending: true, shortestWayMissed: false });
        shortestWay.find({ scenarioId: s.scenarioId, variantId: spec.variantIds[0], seed: s.seed, challenge: spec }, (schedule) => {
          const now = get();
          // The learner moved on (another challenge or lesson) while it searched: nothing to show.
          if (now.challengeId !== spec.id) {
            set({ shortestWayPending: false });
            return;
          }
          set({ shortestWayPending: false, shortestWayMissed: schedule === null });
          // Loaded at step 0, as "Find a race" does: the learner steps through the way found.
          if (schedule !== null) now.loadRun({ scenarioId: now.scenarioId, variantId: spec.variantIds[0], seed: now.seed, schedule, cursor: 0 });
        });
      },
      togglePredict() {
        const predict = !get().predict;
        set(predict ? { predict, learnPanelOpen: true } : { predict });
      },
      toggleLearnPanel() {
        set({ learnPanelOpen: !get().learnPanelOpen });
      },
      answerQuestion(step, answer) {
        set({ predictions: { ...get().predictions, [step]: answer } });
      },
      applyLinkExtras(extras) {
        const patch: Patch = {};
        if (extras.predict !== undefined) patch.predict = extras.predict;
        if (extras.predict === true) patch.learnPanelOpen = true;
        if (extras.challengeId !== undefined) {
          const known = extras.challengeId !== null && get().runInfo.challenges.some((c) => c.id === extras.challengeId);
          patch.challengeId = known ? extras.challengeId : null;
          patch.challengeTries = known ? 1 : 0;
          if (known) patch.learnPanelOpen = true;
        }
        set(patch);
      },
    };
  };
}
