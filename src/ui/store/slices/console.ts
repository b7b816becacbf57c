/**
 * The console slice: what the user types into the Redis console becomes a `console` choice at the
 * cursor (engine/console-choice.ts), applied like a clicked step, so it joins the run's schedule,
 * its timeline and its link. A line the run does not take (bad quoting, a refused command, a CLI
 * directive) is kept as a note beside the transcript, never in the run. The line parser loads on
 * demand with the panel (src/ui/console), not with the first screen.
 */
import type { StateCreator } from 'zustand/vanilla';
import type { SimState } from '../createSimStore';
import type { Runtime } from '../runtime';

/** Lines kept in the console's history (up/down), and notes kept beside the transcript. */
export const consoleHistoryCountMax = 100;
const consoleNoteCountMax = 50;

/** A typed line the run did not take, with why; shown in the transcript after the step it was typed at. */
export interface ConsoleNote {
  readonly id: number;
  /** The run it belongs to (`scenario/variant/seed`) and the cursor when it was typed. */
  readonly run: string;
  readonly step: number;
  readonly input: string;
  /** `error`: the line does not parse; `refused`: the console does not run that command here. */
  readonly kind: 'error' | 'refused';
  readonly message: string;
}

/** What became of one line: run (a choice at `step`), kept as a note, or nothing (a blank line). */
export type ConsoleOutcome = { readonly kind: 'ran'; readonly step: number } | { readonly kind: 'note'; readonly note: ConsoleNote } | { readonly kind: 'blank' };

export interface ConsoleSlice {
  /** Lines typed, oldest first (no blank lines, no repeat of the line before). */
  readonly consoleHistory: readonly string[];
  readonly consoleNotes: readonly ConsoleNote[];
  /** Runs one redis-cli line at the cursor (a later future is dropped, as any choice there does). */
  consoleRun(line: string): Promise<ConsoleOutcome>;
}

export const consoleRunKey = (s: Pick<SimState, 'scenarioId' | 'variantId' | 'seed'>) => `${s.scenarioId}/${s.variantId}/${s.seed}`;

export function createConsoleSlice(rt: Runtime): StateCreator<SimState, [], [], ConsoleSlice> {
  let noteId = 0;
  return (set, get) => ({
    consoleHistory: [],
    consoleNotes: [],
    async consoleRun(line) {
      if (line.trim() === '') return { kind: 'blank' };
      const history = get().consoleHistory;
      if (history[history.length - 1] !== line) set({ consoleHistory: [...history, line].slice(-consoleHistoryCountMax) });
      const { parseConsoleLine } = await import('../console-line');
      const parsed = parseConsoleLine(line);
      const sim = rt.engine.sim;
      const refusal = parsed.ok ? sim.refusal({ kind: 'console', argv: parsed.argv }) : null;
      if (!parsed.ok || refusal !== null) {
        const note: ConsoleNote = {
          id: ++noteId,
          run: consoleRunKey(get()),
          step: sim.cursor,
          input: line,
          kind: parsed.ok ? 'refused' : 'error',
          message: parsed.ok ? (refusal as string) : parsed.error,
        };
        set({ consoleNotes: [...get().consoleNotes, note].slice(-consoleNoteCountMax) });
        return { kind: 'note', note };
      }
      const step = sim.cursor;
      rt.act((s) => void s.apply({ kind: 'console', argv: parsed.argv }));
      return { kind: 'ran', step };
    },
  });
}
