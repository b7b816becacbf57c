import fc from 'fast-check';
import type { Scenario } from '../../../src/engine/scenario';
import type { Choice } from '../../../src/engine/schedule';
import { Simulation } from '../../../src/engine/simulation';
import { isLive } from '../../../src/engine/world';

/** What a random schedule wants to do next; turned into a choice only if it fits the world then. */
export type Intent =
  | { kind: 'step'; client: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'stall'; client: number; ms: number }
  | { kind: 'crash'; client: number };

export const intentArb: fc.Arbitrary<Intent> = fc.oneof(
  { weight: 8, arbitrary: fc.nat(7).map((client) => ({ kind: 'step' as const, client })) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 8000 }).map((ms) => ({ kind: 'advance' as const, ms })) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 8000 })).map(([client, ms]) => ({ kind: 'stall' as const, client, ms })) },
  { weight: 1, arbitrary: fc.nat(7).map((client) => ({ kind: 'crash' as const, client })) },
);

/** Intents rich in faults and time: for properties about waits, stalls and lateness. */
export const faultyIntentArb: fc.Arbitrary<Intent> = fc.oneof(
  { weight: 5, arbitrary: fc.nat(7).map((client) => ({ kind: 'step' as const, client })) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 8000 }).map((ms) => ({ kind: 'advance' as const, ms })) },
  { weight: 3, arbitrary: fc.tuple(fc.nat(7), fc.integer({ min: 1, max: 8000 })).map(([client, ms]) => ({ kind: 'stall' as const, client, ms })) },
  { weight: 1, arbitrary: fc.nat(7).map((client) => ({ kind: 'crash' as const, client })) },
);

/** Applies intents to `sim` as far as they fit, returning the choices actually applied. */
export function applyIntents(sim: Simulation, intents: readonly Intent[]): Choice[] {
  const applied: Choice[] = [];
  for (const intent of intents) {
    const live = sim.clients.filter(isLive);
    let choice: Choice;
    if (intent.kind === 'advance') choice = { kind: 'advance', ms: intent.ms };
    else {
      if (live.length === 0) continue;
      const clientId = live[intent.client % live.length].id;
      choice =
        intent.kind === 'step'
          ? { kind: 'step', clientId }
          : intent.kind === 'crash'
            ? { kind: 'crash', clientId }
            : { kind: 'stall', clientId, ms: intent.ms };
    }
    // A helper that has not started yet, or a hung client, cannot be stepped: skip the intent.
    if (sim.refusal(choice) !== null) continue;
    sim.apply(choice);
    applied.push(choice);
  }
  return applied;
}

/** Every (scenario, variant) pair, for properties that must hold across the whole library. */
export function allVariants(scenarios: readonly Scenario[]): { scenario: Scenario; variantId: string }[] {
  return scenarios.flatMap((scenario) => scenario.variants.map((v) => ({ scenario, variantId: v.id })));
}
