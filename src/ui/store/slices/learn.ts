/**
 * The learn slice: the lesson path, the active challenge, predict-then-reveal and the progress this
 * browser remembers. It reads the run through its port and changes it only through the port's
 * actions (loadRun, selectScenario), so the simulation slice knows nothing of it. The port's run
 * changes arrive inside the update that made them: what the lesson path writes then (a met
 * challenge, a visited lesson) joins that same update, never a second one.
 */
import { challengeStatus } from '../../../engine/learn/challenge';
import type { ViolationEvent } from '../../../engine/trace';
import { START_SCENARIO_ID } from '../../../scenarios/learning';
import type { LearnPort, RunChange, SliceStore } from '../ports';
import type { ChallengeSpec, ChallengeStatus, RunInfo } from '../types';

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

/** What a challenge's status is read from: the learn slice's challenge and the run at the cursor. */
export interface ChallengeFacts {
  readonly challengeId: string | null;
  readonly runInfo: Pick<RunInfo, 'challenges'>;
  readonly variantId: string;
  readonly cursor: number;
  readonly violations: readonly ViolationEvent[];
  readonly finished: boolean;
}

/** The active challenge's spec, if it belongs to the run's scenario. */
export const selectActiveChallenge = (s: Pick<ChallengeFacts, 'challengeId' | 'runInfo'>): ChallengeSpec | null =>
  s.challengeId === null ? null : (s.runInfo.challenges.find((c) => c.id === s.challengeId) ?? null);

let lastStatus: { spec: ChallengeSpec; variantId: string; cursor: number; violations: ChallengeFacts['violations']; finished: boolean; status: ChallengeStatus } | null = null;

/** The active challenge's status at the cursor (the same object while its inputs stay). */
export const selectChallengeStatus = (s: ChallengeFacts): ChallengeStatus | null => {
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

type Patch = { -readonly [K in keyof LearnSlice]?: LearnSlice[K] };

/**
 * What a run change means for the lesson path: a new scenario or variant clears the predictions, a
 * new scenario ends a challenge of the old one; the lesson on screen is visited, a met challenge
 * is kept in the progress. An empty patch when nothing changes.
 */
function followRun(change: RunChange, own: LearnSlice, port: LearnPort): Patch {
  const { before, after } = change;
  const patch: Patch = {};
  const runInfo = port.runInfo();
  if (after.scenarioId !== before.scenarioId || after.variantId !== before.variantId) patch.predictions = {};
  let challengeId = own.challengeId;
  if (after.scenarioId !== before.scenarioId && challengeId !== null && !runInfo.challenges.some((c) => c.id === challengeId)) {
    challengeId = patch.challengeId = null;
    patch.challengeTries = 0;
  }
  const visited = withLesson(own.progress, after.scenarioId, (l) => (l.visited ? l : { ...l, visited: true }));
  const progress = withMet(visited, challengeId, port);
  if (progress !== own.progress) patch.progress = progress;
  return patch;
}

/** `progress` with the challenge `challengeId` met by the run on screen, if it is (the same object if nothing changes). */
function withMet(progress: Progress, challengeId: string | null, port: Pick<LearnPort, 'run' | 'runInfo' | 'verdict'>): Progress {
  if (challengeId === null) return progress;
  const { scenarioId, variantId, cursor } = port.run();
  const status = selectChallengeStatus({ challengeId, runInfo: port.runInfo(), variantId, cursor, ...port.verdict() });
  if (status?.state !== 'met') return progress;
  return withLesson(progress, scenarioId, (l) => (l.met[challengeId] !== undefined && l.met[challengeId] <= status.choices ? l : { ...l, met: { ...l.met, [challengeId]: status.choices } }));
}

/** Start, leave and solve challenges: each start is a run loaded for it. */
function challengeActions(port: LearnPort, { set, get }: SliceStore<LearnSlice>, shortestWay: ShortestWayService | null): Pick<LearnSlice, 'startChallenge' | 'leaveChallenge' | 'showShortestWay'> {
  return {
    startChallenge(challengeId) {
      const s = get();
      const spec = port.runInfo().challenges.find((c) => c.id === challengeId);
      if (!spec) return;
      const run = port.run();
      const result = port.loadRun({ scenarioId: run.scenarioId, variantId: spec.variantIds[0], seed: run.seed, schedule: spec.start === 'empty' ? '' : undefined, cursor: 0 });
      if (!result.ok) return;
      port.setPersistRun(true);
      const progress = withMet(get().progress, challengeId, port);
      set({ challengeId, challengeTries: s.challengeId === challengeId ? s.challengeTries + 1 : 1, shortestWayMissed: false, learnPanelOpen: true, landing: false, progress });
    },
    leaveChallenge() {
      set({ challengeId: null, challengeTries: 0, shortestWayMissed: false });
    },
    showShortestWay() {
      const s = get();
      const spec = selectActiveChallenge({ challengeId: s.challengeId, runInfo: port.runInfo() });
      if (!shortestWay || !spec || s.shortestWayPending) return;
      set({ shortestWayPending: true, shortestWayMissed: false });
      const run = port.run();
      shortestWay.find({ scenarioId: run.scenarioId, variantId: spec.variantIds[0], seed: run.seed, challenge: spec }, (schedule) => {
        // The learner moved on (another challenge or lesson) while it searched: nothing to show.
        if (get().challengeId !== spec.id) return set({ shortestWayPending: false });
        set({ shortestWayPending: false, shortestWayMissed: schedule === null });
        // Loaded at step 0, as "Find a race" does: the learner steps through the way found.
        const onScreen = port.run();
        if (schedule !== null) port.loadRun({ scenarioId: onScreen.scenarioId, variantId: spec.variantIds[0], seed: onScreen.seed, schedule, cursor: 0 });
      });
    },
  };
}

/** Predict mode, the panel, the learner's answers, and what a link carries besides its run. */
function panelActions(port: LearnPort, { set, get }: SliceStore<LearnSlice>): Pick<LearnSlice, 'togglePredict' | 'toggleLearnPanel' | 'answerQuestion' | 'applyLinkExtras'> {
  return {
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
        const known = extras.challengeId !== null && port.runInfo().challenges.some((c) => c.id === extras.challengeId);
        patch.challengeId = known ? extras.challengeId : null;
        patch.challengeTries = known ? 1 : 0;
        if (known) patch.learnPanelOpen = true;
        // A link whose run already meets its challenge counts as met, as the run's own step would.
        const progress = withMet(get().progress, patch.challengeId ?? null, port);
        if (progress !== get().progress) patch.progress = progress;
      }
      set(patch);
    },
  };
}

export function createLearnSlice(scenarios: readonly { readonly id: string }[], port: LearnPort, init: LearnInit): (store: SliceStore<LearnSlice>) => LearnSlice {
  const shortestWay = init.shortestWay ?? null;
  return (store) => {
    const { set, get } = store;
    // Follow the run, inside the update that changed it (the port delivers the change there).
    port.onRunChanged((change) => {
      const patch = followRun(change, get(), port);
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
        if (scenarioId !== port.run().scenarioId) port.selectScenario(scenarioId);
      },
      nextLesson() {
        const at = lessons.findIndex((l) => l.id === port.run().scenarioId);
        const next = lessons[at + 1];
        if (next) get().startLesson(next.id);
      },
      dismissLanding() {
        set({ landing: false });
      },
      ...challengeActions(port, store, shortestWay),
      ...panelActions(port, store),
    };
  };
}
