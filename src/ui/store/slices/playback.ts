/**
 * The playback slice: autoplay with a seeded random scheduling policy, a speed, and a bound. Its
 * interval timer is the only wall clock Lockstep reads; each tick applies one engine step.
 */
import type { StateCreator } from 'zustand/vanilla';
import { randomPolicy } from '../../../engine/policies';
import type { PlaybackSlice, SimState, SimStoreInit } from '../createSimStore';
import type { Runtime } from '../runtime';

export const SPEEDS_STEPS_PER_S = [0.5, 1, 2, 4, 8] as const;
const defaultAutoplayStepCountMax = 500;

export function createPlaybackSlice(rt: Runtime, init: SimStoreInit): StateCreator<SimState, [], [], PlaybackSlice> {
  const { engine, timers } = rt;
  return (set, get) => {
    const stopTimer = () => {
      if (engine.timer !== null) timers.clearInterval(engine.timer);
      engine.timer = null;
    };
    const startTimer = () => {
      stopTimer();
      engine.timer = timers.setInterval(() => {
        get().tick();
      }, 1000 / get().speedStepsPerS);
    };

    return {
      playing: false,
      speedStepsPerS: 2,
      autoplayStepCountMax: init.autoplayStepCountMax ?? defaultAutoplayStepCountMax,
      play() {
        if (get().playing) return;
        const loading = get().runLoading;
        if (loading !== null) {
          // The run is not shown yet (its scenario is loading): nothing to play.
          set({ notice: { key: 'runStillLoading', params: { title: loading.title[get().lang] }, tone: 'info' } });
          return;
        }
        const sim = engine.sim;
        if (sim.cursor >= sim.length && sim.isFinished) {
          set({ notice: { key: 'runFinished', tone: 'info' } });
          return;
        }
        // A seeded random policy per play: the same run, seed and position give the same continuation.
        engine.policy = randomPolicy((sim.seed * 1_000_003 + sim.cursor) >>> 0);
        engine.autoplaySteps = 0;
        set({ playing: true, notice: null });
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
      tick() {
        if (!get().playing) return false;
        const sim = engine.sim;
        if (engine.autoplaySteps >= get().autoplayStepCountMax) {
          get().pause();
          set({ notice: { key: 'autoplayBound', params: { n: engine.autoplaySteps }, tone: 'info' } });
          return false;
        }
        if (sim.cursor < sim.length) {
          engine.autoplaySteps += 1;
          rt.act((s) => s.stepForward());
          return true;
        }
        const choice = engine.policy?.next(sim) ?? null;
        if (choice === null) {
          get().pause();
          set({ notice: { key: 'runFinished', tone: 'info' } });
          return false;
        }
        engine.autoplaySteps += 1;
        rt.act((s) => void s.apply(choice));
        return true;
      },
    };
  };
}
