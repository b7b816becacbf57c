/**
 * Goal: cloneWorld is a deep copy, exactly what structuredClone gives, sharing nothing mutable
 * with the original (only replies and, with several nodes, messages, replication entries and WAITs,
 * which are immutable), so explorers and checkpoints can copy
 * worlds cheaply without one copy's run leaking into another.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine/simulation';
import { cloneWorld } from '../../src/engine/world';
import { SCENARIOS } from '../../src/scenarios';
import { allVariants, applyIntents, faultyIntentArb } from './support/random-schedule';
import { runs } from '../support/size';

const variants = allVariants(SCENARIOS);

/**
 * With several nodes, what is never changed once made: messages in flight, replication entries,
 * WAITs, and an awaited command's argv and reply (all readonly in their types).
 */
const IMMUTABLE_CLUSTER_PARTS = /\.cluster\.(messages|waits)\.[0-9]+$|\.cluster\.pending\.[^.]+\.[0-9]+$|\.cluster\.awaiting\.[^.]+\.(argv|reply)$/;

/** Objects reachable from both `a` and `b` (by identity), with their paths, except replies and immutable cluster parts. */
function sharedObjects(a: unknown, b: unknown, path = 'world', out: string[] = []): string[] {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return out;
  if (path.endsWith('.lastReply') || IMMUTABLE_CLUSTER_PARTS.test(path)) return out;
  if (a === b) out.push(path);
  for (const key of Object.keys(a)) sharedObjects((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${path}.${key}`, out);
  return out;
}

describe('cloneWorld', () => {
  it('equals structuredClone and shares nothing mutable, on worlds from random schedules (seed 7)', () => {
    fc.assert(
      fc.property(fc.nat(variants.length - 1), fc.array(faultyIntentArb, { maxLength: 25 }), (index, intents) => {
        const { scenario, variantId } = variants[index];
        const sim = new Simulation(scenario, { variantId });
        applyIntents(sim, intents);
        const world = sim.state;
        const copy = cloneWorld(world);
        expect(copy).toEqual(structuredClone(world));
        expect(JSON.stringify(copy)).toBe(JSON.stringify(world));
        expect(sharedObjects(world, copy)).toEqual([]);
      }),
      { seed: 7, numRuns: runs(150) },
    );
  });
});
