import type { Step } from '../src/engine/program';
import type { Scenario } from '../src/engine/scenario';
import type { Choice } from '../src/engine/schedule';
import { Simulation } from '../src/engine/simulation';
import { isLive } from '../src/engine/world';
import { COMPARE_AND_DELETE } from '../src/scenarios/scripts';

/**
 * A long run for performance checks of the views (dev harness, unit tests): three clients loop
 * acquire, work, GET-then-DEL release for as many steps as asked, with seeded-random scheduling.
 */
const loop: Step[] = [
  { op: 'command', label: 'top', argv: ['SET', '${lockKey}', '${token}', 'NX', 'PX', '${ttlMs}'], saveAs: 'acquired' },
  { op: 'if', when: { test: 'notNil', reply: 'acquired' }, goto: 'locked' },
  { op: 'retry', goto: 'top', afterMs: 300, jitterMs: 200, attemptCountMax: 1_000_000 },
  { op: 'goto', goto: 'top' },
  { op: 'enter', label: 'locked' },
  { op: 'work', durationMs: 400 },
  { op: 'leave' },
  { op: 'command', argv: ['GET', '${lockKey}'], saveAs: 'current' },
  { op: 'if', when: { test: 'ne', left: '${current}', right: '${token}' }, goto: 'top' },
  { op: 'command', argv: ['DEL', '${lockKey}'], releases: true },
  { op: 'goto', goto: 'top' },
];

const text = (s: string) => ({ en: s, zh: s });

export const stressScenario: Scenario = {
  id: 'stress',
  title: text('stress'),
  summary: text('stress'),
  lesson: text('stress'),
  params: { lockKey: 'lock', ttlMs: '1000' },
  lockKey: 'lock',
  scripts: { compareAndDelete: COMPARE_AND_DELETE },
  defaultSchedule: '',
  variants: [
    {
      id: 'loop',
      title: text('loop'),
      summary: text('loop'),
      clients: ['A', 'B', 'C'].map((id) => ({ id, program: loop })),
      expect: { violations: [], absent: [] },
    },
  ],
  defaultVariant: 'loop',
};

/** A simulation of `stepCount` choices: mostly client steps, sometimes a clock advance (seeded LCG). */
export function stressSimulation(stepCount: number, seed: number): Simulation {
  const sim = new Simulation(stressScenario, { seed });
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (let i = 0; i < stepCount; i++) {
    const live = sim.clients.filter(isLive);
    const choice: Choice =
      live.length === 0 || next() < 0.12 ? { kind: 'advance', ms: 100 + Math.floor(next() * 900) } : { kind: 'step', clientId: live[Math.floor(next() * live.length)].id };
    sim.apply(choice);
  }
  return sim;
}
