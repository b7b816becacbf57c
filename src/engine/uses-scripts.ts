import type { Step } from './program';
import { SCRIPT_COMMANDS } from './redis/script-engine';
import type { Scenario } from './scenario';

/** A command's name that is, or may become once its template resolves, a scripting command. */
function mayScript(name: string | undefined): boolean {
  if (name === undefined) return false;
  return name.includes('${') || SCRIPT_COMMANDS.has(name.toLowerCase());
}

function stepMayScript(step: Step): boolean {
  if (step.op === 'eval') return true;
  if (step.op === 'command') return mayScript(step.argv[0]);
  if (step.op === 'transaction') return step.commands.some((argv) => mayScript(argv[0]));
  return false;
}

/**
 * Whether a run of `scenario` (any variant) may evaluate Lua: an EVAL step, a scripting command
 * (EVAL, EVALSHA, SCRIPT, by name or through a template), a setup command that is one, or a
 * hosted client (its commands are written while it runs). Conservative: a run of a scenario for
 * which this is false never needs the realm's Lua engine (lua-runtime.ts), so the page can show it
 * before the engine has loaded.
 */
export function usesScripts(scenario: Scenario): boolean {
  if ((scenario.setup ?? []).some((argv) => mayScript(argv[0]))) return true;
  return scenario.variants.some((variant) => variant.clients.some((client) => client.hosted === true || client.program.some(stepMayScript)));
}
