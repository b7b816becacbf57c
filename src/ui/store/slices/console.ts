/**
 * The console slice: what the user types into the Redis console becomes a `console` choice at the
 * cursor (engine/console-choice.ts), applied like a clicked step, so it joins the run's schedule,
 * its timeline and its link. A line the run does not take (bad quoting, a refused command, a CLI
 * directive) is kept as a note beside the transcript, never in the run. The action's body loads
 * on demand with the panel (store/console-line.ts), not with the first screen.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { SimState } from '../createSimStore';
import type { Runtime } from '../runtime';

/** A typed line the run did not take, with why; shown in the transcript after the step it was typed at. */
export interface ConsoleNote {
  readonly id: number;
  /** The run it belongs to (`scenario/variant/seed`) and the cursor when it was typed. */
  readonly run: string;
  readonly step: number;
  readonly input: string;
  /** `invalid`: the line does not parse (or is a CLI directive); `refused`: the console does not run that command here. */
  readonly kind: 'invalid' | 'refused';
  readonly message: string;
}

/** What became of one line: run (a choice at `step`), kept as a note, or nothing (a blank line). */
export type ConsoleOutcome = { readonly kind: 'ran'; readonly step: number } | { readonly kind: 'note'; readonly note: ConsoleNote } | { readonly kind: 'blank' };

export interface ConsoleSlice {
  /** Lines typed, oldest first (no blank lines, no repeat of the line before). */
  readonly consoleHistory: readonly string[];
  readonly consoleNotes: readonly ConsoleNote[];
  /** With several nodes, the node the console is connected to (null: the scenario's first). */
  readonly consoleNode: string | null;
  setConsoleNode(nodeId: string): void;
  /** Runs one redis-cli line at the cursor (a later future is dropped, as any choice there does). */
  consoleRun(line: string): Promise<ConsoleOutcome>;
}

export function createConsoleSlice(rt: Runtime): StateCreator<SimState, [], [], ConsoleSlice> {
  return (set, get) => ({
    consoleHistory: [],
    consoleNotes: [],
    consoleNode: null,
    setConsoleNode(nodeId) {
      set({ consoleNode: nodeId });
    },
    async consoleRun(line) {
      const { runConsoleLine } = await import('../console-line');
      return runConsoleLine(rt, set, get, line);
    },
  });
}
