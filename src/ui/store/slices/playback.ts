/**
 * The playback slice: autoplay with a seeded random scheduling policy, a speed, and a bound. Its
 * interval timer is the only wall clock Lockstep reads; each tick applies one engine step. It
 * drives the run directly (`AutoplayRuntime`: the store's runtime, seen only as far as autoplay needs).
 */
import type { AutoplayRuntime, PlaybackPort, SliceStore } from '../ports';
import type { PlaybackTimers } from '../types';

export interface PlaybackSlice {
  readonly playing: boolean;
  readonly speedStepsPerS: number;
  readonly autoplayStepCountMax: number;
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(stepsPerS: number): void;
  /** One autoplay tick (the driver calls it; exposed for tests). Returns false when playback stopped. */
  tick(): boolean;
}

export interface PlaybackInit {
  /** The wall-clock timers the autoplay driver uses (the page's own; tests inject theirs). */
  readonly timers?: PlaybackTimers;
  readonly autoplayStepCountMax?: number;
}

export const SPEEDS_STEPS_PER_S = [0.5, 1, 2, 4, 8] as const;
const defaultAutoplayStepCountMax = 500;

/** A seeded random policy per press of Play: the same run, seed and position give the same continuation. */
function policySeedOf(seed: number, cursor: number): number {
  return (seed * 1_000_003 + cursor) >>> 0;
}

/** One autoplay step: forward along the timeline, else the seeded policy's next choice; false once playback stops (its bound, the run's end). */
function autoplayTick(rt: AutoplayRuntime, port: PlaybackPort, { get }: SliceStore<PlaybackSlice>): () => boolean {
  const { runState } = rt;
  return () => {
    if (!get().playing) return false;
    // A step still in the engine worker: this tick waits rather than queue another behind it.
    if (rt.sessionPending()) return true;
    if (runState.autoplaySteps >= get().autoplayStepCountMax) {
      get().pause();
      port.notify({ key: 'autoplayBound', params: { n: runState.autoplaySteps }, tone: 'info' });
      return false;
    }
    runState.autoplaySteps += 1;
    rt.command({ kind: 'autoplay', play: runState.play, policySeed: runState.policySeed }, (result) => {
      // The seeded policy had nothing more to do: the run is over.
      if (!(result.ok && result.ended === true) || !get().playing) return;
      get().pause();
      port.notify({ key: 'runFinished', tone: 'info' });
    });
    return true;
  };
}

export function createPlaybackSlice(rt: AutoplayRuntime, port: PlaybackPort, init: PlaybackInit): (store: SliceStore<PlaybackSlice>) => PlaybackSlice {
  const { runState, timers } = rt;
  return ({ set, get }) => {
    const stopTimer = () => {
      if (runState.timer !== null) timers.clearInterval(runState.timer);
      runState.timer = null;
    };
    const startTimer = () => {
      stopTimer();
      runState.timer = timers.setInterval(() => {
        get().tick();
      }, 1000 / get().speedStepsPerS);
    };

    return {
      playing: false,
      speedStepsPerS: 2,
      autoplayStepCountMax: init.autoplayStepCountMax ?? defaultAutoplayStepCountMax,
      play() {
        if (get().playing) return;
        const loading = port.loadingTitle();
        if (loading !== null) {
          // The run is not shown yet (its scenario is loading): nothing to play.
          port.notify({ key: 'runStillLoading', params: { title: loading }, tone: 'info' });
          return;
        }
        const { cursor, length, finished } = port.position();
        if (cursor >= length && finished) {
          port.notify({ key: 'runFinished', tone: 'info' });
          return;
        }
        // The session starts a new seeded policy for this press of Play.
        runState.play += 1;
        runState.policySeed = policySeedOf(port.position().seed, cursor);
        runState.autoplaySteps = 0;
        port.notify(null);
        set({ playing: true });
        startTimer();
      },
      pause() {
        stopTimer();
        if (get().playing) set({ playing: false });
      },
      togglePlay() {
        if (get().playing) get().pause();
        else get().play();
      },
      setSpeed(stepsPerS) {
        if (!SPEEDS_STEPS_PER_S.includes(stepsPerS as (typeof SPEEDS_STEPS_PER_S)[number])) return;
        set({ speedStepsPerS: stepsPerS });
        if (get().playing) startTimer();
      },
      tick: autoplayTick(rt, port, { set, get }),
    };
  };
}
