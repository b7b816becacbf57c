/**
 * The console's code, loaded on demand with its panel: the `consoleRun` action's body, a typed
 * line to argv (redis-cli's quoting, the engine's splitArgs), argv back to a line for the
 * transcript, a reply as redis-cli prints it, and the transcript read from the run's events.
 */
import { formatCli, quoteBulk, splitArgs } from '../../engine/redis/console';
import { traceText } from '../../i18n';
import type { Reply } from '../../engine/redis/reply';
import type { RunLog } from './types';
import type { ConsolePort, SliceStore } from './ports';

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

/** The console slice's own state, as its action reads and writes it. */
interface ConsoleLineState {
  readonly consoleHistory: readonly string[];
  readonly consoleNotes: readonly ConsoleNote[];
  readonly consoleNode: string | null;
}

/** Lines kept in the console's history (up/down), and notes kept beside the transcript. */
const consoleHistoryCountMax = 100;
const consoleNoteCountMax = 50;
let noteId = 0;

/** The console slice's `consoleRun` (slices/console.ts), loaded with the panel. */
export function runConsoleLine(port: ConsolePort, { get, set }: SliceStore<ConsoleLineState>, line: string): ConsoleOutcome {
  if (line.trim() === '') return { kind: 'blank' };
  const history = get().consoleHistory;
  if (history[history.length - 1] !== line) set({ consoleHistory: [...history, line].slice(-consoleHistoryCountMax) });
  const parsed = parseConsoleLine(line);
  const run = port.run();
  const nodeId = consoleNodeOf({ nodes: port.nodes(), consoleNode: get().consoleNode });
  const choice = parsed.ok ? ({ kind: 'console', argv: parsed.argv, ...(nodeId === undefined ? {} : { nodeId }) } as const) : null;
  const noteOf = (kind: ConsoleNote['kind'], message: string): ConsoleNote => {
    const note: ConsoleNote = { id: ++noteId, run: `${run.scenarioId}/${run.variantId}/${run.seed}`, step: run.cursor, input: line, kind, message };
    set({ consoleNotes: [...get().consoleNotes, note].slice(-consoleNoteCountMax) });
    return note;
  };
  if (!parsed.ok || choice === null) return { kind: 'note', note: noteOf('invalid', parsed.ok ? '' : parsed.error) };
  // The engine decides (wherever the session runs): a refused line changes nothing but the notes.
  let refusedNote: ConsoleNote | null = null;
  port.apply(choice, (detail) => (refusedNote = noteOf('refused', detail)));
  // In this thread the answer is in already; from the engine worker the note comes later.
  const noted = refusedNote as ConsoleNote | null;
  return noted === null ? { kind: 'ran', step: run.cursor } : { kind: 'note', note: noted };
}

/** The node the console is aimed at with several nodes: the one chosen, else the first; none with one node. */
export function consoleNodeOf(state: { readonly nodes: readonly { readonly id: string }[]; readonly consoleNode: string | null }): string | undefined {
  if (state.nodes.length === 0) return undefined;
  return state.nodes.some((n) => n.id === state.consoleNode) ? (state.consoleNode as string) : state.nodes[0].id;
}

export type ParsedLine = { readonly ok: true; readonly argv: string[] } | { readonly ok: false; readonly error: string };

/** A line as redis-cli reads it; the CLI's `.directives` are not the page's (the run moves by its own buttons). */
export function parseConsoleLine(line: string): ParsedLine {
  const split = splitArgs(line);
  if (!split.ok) return { ok: false, error: `ERR ${split.error}` };
  if (split.argv[0]?.startsWith('.')) {
    return { ok: false, error: traceText('refuseConsoleDirective', { directive: split.argv[0] }) };
  }
  return { ok: true, argv: split.argv };
}

/** argv as a line that parses back to it: plain words bare, anything else quoted as redis-cli prints bulk strings. */
export function formatConsoleLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[!#-&(-[\]-~]+$/.test(word) ? word : quoteBulk(word))).join(' ');
}

/** A reply as redis-cli prints it in a terminal: (integer) 1, (nil), "text", (error) ERR ..., numbered arrays. */
export function formatConsoleReply(reply: Reply): string {
  return formatCli(reply);
}

/** One console command of the run, as the transcript shows it. */
export interface ConsoleEntry {
  readonly seq: number;
  /** The schedule choice it is (0-based): shown once the cursor is past it. */
  readonly step: number;
  readonly atMs: number;
  /** The node it ran on (several nodes), or null. */
  readonly node: string | null;
  readonly input: string;
  readonly output: string;
  readonly error: boolean;
}

/**
 * The run's console commands, extended by what the log appended since the last call (a new
 * generation of the log starts over): a step costs the events it added, not the whole run.
 */
export class ConsoleTranscript {
  private generation = -1;
  private scanned = 0;
  private entries: ConsoleEntry[] = [];

  sync(log: Pick<RunLog, 'generation' | 'events' | 'eventCount'>, consoleId: string): readonly ConsoleEntry[] {
    if (log.generation !== this.generation || log.eventCount < this.scanned) {
      this.generation = log.generation;
      this.scanned = 0;
      this.entries = [];
    }
    const added: ConsoleEntry[] = [];
    for (let i = this.scanned; i < log.eventCount; i++) {
      const e = log.events[i];
      if (e.kind !== 'command' || e.clientId !== consoleId) continue;
      const output = e.reply === null ? '' : formatConsoleReply(e.reply);
      added.push({ seq: e.seq, step: e.step, atMs: e.atMs, node: e.node ?? null, input: formatConsoleLine(e.argv), output, error: e.reply?.type === 'error' });
    }
    this.scanned = log.eventCount;
    if (added.length > 0) this.entries = [...this.entries, ...added];
    return this.entries;
  }
}
