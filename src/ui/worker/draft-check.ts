/**
 * Replays a draft (an edited scenario) under a schedule, every variant, and reports each script a
 * budget stopped. Pure: the worker runs it; tests and pages without workers call it directly.
 */
import { ChoiceError } from '../../engine/engine';
import { parseSchedule } from '../../engine/schedule';
import { Simulation } from '../../engine/simulation';
import { formatProblems, parseDefinition } from '../../definition';
import type { DraftBudgetStop, DraftCheckReport, DraftCheckRequest, DraftCheckService } from './draft-check-protocol';

/** The start of the error every script budget gives (src/engine/redis/lua/budget.ts). */
const BUDGET_ERROR_PREFIX = "ERR Script exceeded Lockstep's";

/** Stops reported at most (one per variant is enough to refuse a draft; a few say where). */
const stopCountMax = 16;

export function checkDraft(request: DraftCheckRequest): DraftCheckReport {
  const parsed = parseDefinition(request.definition);
  if (!parsed.ok) return { id: request.id, stops: [], failure: formatProblems(parsed.problems) };
  const stops: DraftBudgetStop[] = [];
  for (const variant of parsed.scenario.variants) {
    let choices;
    try {
      choices = parseSchedule(request.schedule, variant.clients.map((c) => c.id));
    } catch {
      continue; // A schedule naming another variant's clients: the page cuts it there too.
    }
    const sim = new Simulation(parsed.scenario, { variantId: variant.id, seed: request.seed });
    for (const choice of choices) {
      let events;
      try {
        events = sim.apply(choice);
      } catch (error) {
        if (error instanceof ChoiceError) break;
        return { id: request.id, stops, failure: error instanceof Error ? error.message : String(error) };
      }
      for (const event of events) {
        const reply = event.kind === 'command' || event.kind === 'reply' ? event.reply : null;
        if (reply?.type === 'error' && reply.value.startsWith(BUDGET_ERROR_PREFIX) && stops.length < stopCountMax) {
          stops.push({ variantId: variant.id, step: event.step, clientId: event.clientId, message: reply.value });
        }
      }
    }
  }
  return { id: request.id, stops, failure: null };
}

/** The same check on the calling thread, for tests and pages without workers. */
export function createInlineDraftCheckService(): DraftCheckService {
  return {
    check: (request) => Promise.resolve().then(() => checkDraft(request)),
    dispose() {},
  };
}
