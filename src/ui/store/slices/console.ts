/**
 * The console slice: what the user types into the Redis console becomes a `console` choice at the
 * cursor (engine/console-choice.ts), applied like a clicked step, so it joins the run's schedule,
 * its timeline and its link. A line the run does not take (bad quoting, a refused command, a CLI
 * directive) is kept as a note beside the transcript, never in the run. The action's body loads
 * on demand with the panel (store/console-line.ts), not with the first screen.
 */
import type { ConsoleNote, ConsoleOutcome } from '../console-line';
import type { ConsolePort, SliceStore } from '../ports';

export type { ConsoleNote, ConsoleOutcome } from '../console-line';

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

export function createConsoleSlice(port: ConsolePort): (store: SliceStore<ConsoleSlice>) => ConsoleSlice {
  return (store) => ({
    consoleHistory: [],
    consoleNotes: [],
    consoleNode: null,
    setConsoleNode(nodeId) {
      store.set({ consoleNode: nodeId });
    },
    async consoleRun(line) {
      const { runConsoleLine } = await import('../console-line');
      return runConsoleLine(port, store, line);
    },
  });
}
