/**
 * The program editor's changes to who runs: add a client that runs a program the scenario already
 * has, remove one (and its choices from the schedule), and the steps a learner may insert (the
 * scenario's own Redis commands and scripts, work and sleep). Pure: definition in, definition out.
 */
import type { DefinitionStep, ScenarioDefinition } from '../../definition';
import { formatSchedule, parseSchedule, type Choice } from '../../engine/schedule';

type Variant = ScenarioDefinition['variants'][number];
type Client = Variant['clients'][number];

/** The console's lane id: never a new client's. */
const RESERVED_IDS: ReadonlySet<string> = new Set(['console']);

function variantAt(definition: ScenarioDefinition, variantId: string): number {
  const index = definition.variants.findIndex((v) => v.id === variantId);
  return index < 0 ? 0 : index;
}

/**
 * Clients whose program a new client may run: started by the schedule (not a helper another
 * client starts) and starting no helper themselves (a copy would start the same helper twice).
 */
export function copyableClients(definition: ScenarioDefinition, variantId: string): string[] {
  const variant = definition.variants[variantAt(definition, variantId)];
  return variant.clients.filter((c) => c.startedBy === undefined && c.tokenFrom === undefined && !c.program.some((s) => s.op === 'start')).map((c) => c.id);
}

/** The next free one-letter id after the clients' (C after A and B), else a letter with a number. */
export function nextClientId(taken: readonly string[]): string {
  const used = new Set([...taken, ...RESERVED_IDS]);
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const letter of letters) if (!used.has(letter)) return letter;
  for (let n = 2; ; n++) for (const letter of letters) if (!used.has(`${letter}${n}`)) return `${letter}${n}`;
}

/**
 * A new client at the end of every variant's list (so no other client's token changes), running
 * that variant's program of `fromId`: the variant toggle still compares the same clients.
 */
export function addClient(definition: ScenarioDefinition, variantId: string, fromId: string): { definition: ScenarioDefinition; clientId: string } | null {
  if (!copyableClients(definition, variantId).includes(fromId)) return null;
  const clientId = nextClientId(definition.variants.flatMap((v) => v.clients.map((c) => c.id)));
  const variants = definition.variants.map((variant) => {
    const from = variant.clients.find((c) => c.id === fromId);
    if (!from) return variant;
    const copy: Client = { id: clientId, program: from.program, ...(from.vars ? { vars: from.vars } : {}), ...(from.clockDriftPpm !== undefined ? { clockDriftPpm: from.clockDriftPpm } : {}) };
    return { ...variant, clients: [...variant.clients, copy] };
  });
  return { definition: { ...definition, variants }, clientId };
}

/** Whether a choice names the client (steps it, stalls or crashes it, touches its links or clock). */
function names(choice: Choice, clientId: string): boolean {
  return 'clientId' in choice && choice.clientId === clientId;
}

/** The schedule without the client's choices, and where the cursor lands in it. */
export function scheduleWithout(choices: readonly Choice[], cursor: number, clientId: string): { schedule: string; cursor: number; dropped: number } {
  const kept = choices.filter((c) => !names(c, clientId));
  const before = choices.slice(0, cursor).filter((c) => names(c, clientId)).length;
  return { schedule: formatSchedule(kept), cursor: cursor - before, dropped: choices.length - kept.length };
}

/**
 * The scenario without the client, in every variant (a helper it starts, or one using its token,
 * is reported by the definition's checks). The default schedule loses the client's choices, and
 * narration lines move with the choices they were written for (a line about a dropped one goes).
 */
export function removeClient(definition: ScenarioDefinition, clientId: string): ScenarioDefinition {
  const allClients = [...new Set(definition.variants.flatMap((v) => v.clients.map((c) => c.id)))];
  let choices: Choice[];
  try {
    choices = parseSchedule(definition.defaultSchedule ?? '', allClients);
  } catch {
    choices = [];
  }
  const newIndex: (number | null)[] = [];
  let kept = 0;
  for (const choice of choices) newIndex.push(names(choice, clientId) ? null : kept++);
  type Line = NonNullable<ScenarioDefinition['narration']>[number];
  const moveLines = (lines: readonly Line[] | undefined): Line[] | undefined => {
    if (lines === undefined) return undefined;
    const out: Line[] = [];
    for (const line of lines) {
      const step = newIndex[line.step];
      if (step !== null && step !== undefined) out.push({ ...line, step });
    }
    return out;
  };
  const narration = moveLines(definition.narration);
  return {
    ...definition,
    ...(definition.defaultSchedule === undefined ? {} : { defaultSchedule: formatSchedule(choices.filter((c) => !names(c, clientId))) }),
    ...(narration === undefined ? {} : { narration }),
    variants: definition.variants.map((variant) => {
      const lines = moveLines(variant.narration);
      return { ...variant, clients: variant.clients.filter((c) => c.id !== clientId), ...(lines === undefined ? {} : { narration: lines }) };
    }),
  };
}

/** A step the program editor can insert: what the scenario's programs already send, its scripts, work, sleep. */
export interface StepOption {
  readonly id: string;
  readonly kind: 'command' | 'script' | 'work' | 'sleep';
  /** The command's words (templates such as ${lockKey} included), or the script's name. */
  readonly text: string;
  readonly step: DefinitionStep;
}

/** Every distinct Redis command of the variant's programs, each script callable with the lock key and the token, work and sleep of `durationMs`. */
export function stepOptions(definition: ScenarioDefinition, variantId: string, scriptNames: readonly string[], durationMs: number): StepOption[] {
  const variant = definition.variants[variantAt(definition, variantId)];
  const out: StepOption[] = [];
  const seen = new Set<string>();
  for (const client of variant.clients) {
    for (const step of client.program) {
      if (step.op !== 'command') continue;
      const key = JSON.stringify([step.argv, step.saveAs ?? null, step.releases ?? false, step.connection ?? null]);
      if (seen.has(key)) continue;
      seen.add(key);
      const command: DefinitionStep = {
        op: 'command',
        argv: step.argv,
        ...(step.saveAs === undefined ? {} : { saveAs: step.saveAs }),
        ...(step.releases === undefined ? {} : { releases: step.releases }),
        ...(step.connection === undefined ? {} : { connection: step.connection }),
      };
      out.push({ id: `command.${out.length}`, kind: 'command', text: step.argv.join(' '), step: command });
    }
  }
  for (const name of scriptNames) {
    out.push({ id: `script.${name}`, kind: 'script', text: name, step: { op: 'eval', script: name, keys: ['${lockKey}'], args: ['${token}'] } });
  }
  out.push({ id: 'work', kind: 'work', text: '', step: { op: 'work', durationMs } });
  out.push({ id: 'sleep', kind: 'sleep', text: '', step: { op: 'sleep', durationMs } });
  return out;
}
