/**
 * The run-session job of the engine worker: the page's one run session (src/session) lives here,
 * so no step, replay or script of the run runs on the page's thread. Requests are answered in
 * the order they came, each with only what changed (session/wire.ts).
 */
import { formatProblems, parseDefinition } from '../../definition';
import type { Scenario } from '../../engine/scenario';
import { findScenario, SCENARIOS } from '../../scenarios';
import { RunSession } from '../../session/run-session';
import { SessionServer, type RunTarget, type SessionReply, type SessionRequest } from '../../session/wire';

/** The scenario a load names; throws for an unknown id or a definition that does not validate. */
function scenarioOf(target: RunTarget): Scenario {
  if ('scenarioId' in target) return findScenario(target.scenarioId);
  // The page validated it before sending; a worker checks it again rather than trust a message.
  const parsed = parseDefinition(target.definition);
  if (!parsed.ok) throw new Error(`the definition is not valid: ${formatProblems(parsed.problems)}`);
  return parsed.scenario;
}

/** One worker's session job: its own session, serving one page. */
export function createSessionJob(): (request: SessionRequest, post: (reply: SessionReply) => void) => void {
  let server: SessionServer | null = null;
  return (request, post) => {
    server ??= new SessionServer(new RunSession(SCENARIOS[0]));
    try {
      if (request.kind === 'command') return post(server.command(request.id, request.command));
      const scenario = scenarioOf(request.target);
      post(server.load(request.id, scenario.id, scenario, request.spec));
    } catch (error) {
      post(server.failed(request.id, error instanceof Error ? error.message : String(error)));
    }
  };
}
