/**
 * Replays a draft (an edited scenario) under a schedule, every variant, and reports each script a
 * budget stopped. Pure: the worker runs it; tests and pages without workers call it directly.
 */
import { ChoiceError } from '../../engine/engine';
import { parseSchedule } from '../../engine/schedule';
import { nodeIdsOf as sim0NodeIds } from '../../engine/scenario';
import { Simulation } from '../../engine/simulation';
import type { TraceEvent } from '../../engine/trace';
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
  let misfit: string | undefined;
  for (const variant of parsed.scenario.variants) {
    let choices;
    try {
      choices = parseSchedule(request.schedule, variant.clients.map((c) => c.id), sim0NodeIds(parsed.scenario, variant));
    } catch (error) {
      if (variant.id === request.fitVariant) misfit = error instanceof Error ? error.message : String(error);
      continue; // A schedule naming another variant's clients: the page cuts it there too.
    }
    const sim = new Simulation(parsed.scenario, { variantId: variant.id, seed: request.seed });
    /** A slow script's reply arrives when it ends on the virtual clock: the check waits for the last one. */
    let lastReplyAtMs = 0;
    const pending = new Map<string, number>();
    const scan = (events: readonly TraceEvent[]) => {
      for (const event of events) {
        if (event.kind === 'command' && event.replyAtMs !== undefined) {
          lastReplyAtMs = Math.max(lastReplyAtMs, event.replyAtMs);
          pending.set(`${event.clientId}:${event.pc}`, event.step);
        }
        const reply = event.kind === 'command' || event.kind === 'reply' ? event.reply : null;
        if (reply?.type === 'error' && reply.value.startsWith(BUDGET_ERROR_PREFIX) && stops.length < stopCountMax) {
          // A delayed reply is reported at the step that sent the script.
          const step = event.kind === 'reply' ? (pending.get(`${event.clientId}:${event.pc}`) ?? event.step) : event.step;
          stops.push({ variantId: variant.id, step, clientId: event.clientId, message: reply.value });
        }
      }
    };
    try {
      for (const choice of choices) scan(sim.apply(choice));
      if (lastReplyAtMs > sim.nowMs) scan(sim.apply({ kind: 'advance', ms: lastReplyAtMs - sim.nowMs }));
    } catch (error) {
      if (!(error instanceof ChoiceError)) return { id: request.id, stops, failure: error instanceof Error ? error.message : String(error) };
      if (variant.id === request.fitVariant) misfit = error.message;
    }
  }
  return { id: request.id, stops, failure: null, ...(misfit === undefined ? {} : { misfit }) };
}

/** The same check on the calling thread, for tests and pages without workers. */
export function createInlineDraftCheckService(): DraftCheckService {
  return {
    check: (request) => Promise.resolve().then(() => checkDraft(request)),
    dispose() {},
  };
}
