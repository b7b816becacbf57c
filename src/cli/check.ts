import fs from 'node:fs';
import { HISTORY_LINE_BYTES_MAX, HistoryChecker, MonitorImport, checkExitCode, type HistoryVerdict } from '../history';
import { StringDecoder } from 'node:string_decoder';
import type { InputLine } from './lines';

/** `lockstep check <history>`: a recorded history checked for lock violations (docs/HISTORIES.md). */
export interface CheckCommand {
  readonly file: string;
  readonly format: 'jsonl' | 'monitor';
  readonly lockKey: string | undefined;
  readonly maxHoldMs: number | undefined;
  readonly clockSkewMs: number | undefined;
  readonly json: boolean;
}

export interface CheckIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** Reads the file line by line (memory flat in its length), prints the verdict; exit 1 violation, 2 bad input, else 0. */
export async function runCheck(command: CheckCommand, io: CheckIo): Promise<number> {
  let input: fs.ReadStream;
  try {
    fs.accessSync(command.file, fs.constants.R_OK);
    input = fs.createReadStream(command.file);
  } catch (error) {
    io.stderr.write(`lockstep: cannot read ${command.file}: ${(error as Error).message}\n`);
    return 2;
  }
  const checker = new HistoryChecker({ lockKey: command.lockKey, maxHoldMs: command.maxHoldMs, clockSkewMs: command.clockSkewMs });
  const monitor = command.format === 'monitor' ? new MonitorImport() : null;
  if (monitor !== null) checker.push({ kind: 'header', line: 0, header: { history: 1, recorder: 'monitor', repliesKnown: false } });
  let line = 0;
  for await (const read of historyLines(input, HISTORY_LINE_BYTES_MAX)) {
    line++;
    if ('tooLongBytes' in read) checker.pushTooLong(line, read.tooLongBytes);
    else if (monitor === null) checker.pushLine(read.text, line);
    else {
      const command_ = monitor.line(read.text, line);
      if (command_ === null) continue;
      if ('message' in command_) checker.pushProblem(line, command_.message);
      else checker.push({ kind: 'command', line, command: command_ });
    }
  }
  const verdict = checker.finish();
  io.stdout.write(command.json ? `${JSON.stringify({ file: command.file, ...verdict }, withoutRefs)}\n` : `${verdictText(command.file, verdict)}\n`);
  return checkExitCode(verdict);
}

/**
 * Lines of a history file, each at most `maxChars` long (a longer one is reported by its size and
 * skipped). Decodes whole chunks and splits the text: several times faster than decoding line by
 * line (cli/lines.ts), which counts for a file of a million lines.
 */
async function* historyLines(input: AsyncIterable<Buffer>, maxChars: number): AsyncGenerator<InputLine> {
  const decoder = new StringDecoder('utf8');
  let tail = '';
  /** Characters of the current line while it is over the limit (-1: it is not). */
  let skipped = -1;
  const emit = function* (text: string, ended: boolean): Generator<InputLine> {
    let start = 0;
    // Bounded by the text: each round consumes one line.
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      const line = text.slice(start, newline);
      start = newline + 1;
      if (skipped >= 0) {
        yield { tooLongBytes: skipped + line.length };
        skipped = -1;
      } else if (line.length > maxChars) yield { tooLongBytes: line.length };
      else yield { text: line.endsWith('\r') ? line.slice(0, -1) : line };
    }
    const rest = text.slice(start);
    if (ended) {
      if (skipped >= 0) yield { tooLongBytes: skipped + rest.length };
      else if (rest !== '') yield rest.length > maxChars ? { tooLongBytes: rest.length } : { text: rest };
      tail = '';
    } else if (skipped >= 0 || rest.length > maxChars) {
      skipped = (skipped >= 0 ? skipped : 0) + rest.length;
      tail = '';
    } else tail = rest;
  };
  for await (const chunk of input) yield* emit(tail + decoder.write(chunk), false);
  yield* emit(tail + decoder.end(), true);
}

/** The JSON keeps the English `message`s only: the catalog keys behind them (`ref`, `unknownRefs`) are the page's, not a format to keep stable. */
function withoutRefs(key: string, value: unknown): unknown {
  return key === 'ref' || key === 'unknownRefs' ? undefined : value;
}

/** The verdict in words for a person with an incident. */
function verdictText(file: string, v: HistoryVerdict): string {
  const out: string[] = [];
  const spanS = v.fromMs === null || v.toMs === null ? 0 : (v.toMs - v.fromMs) / 1000;
  const keyFrom = v.lockKeyFrom === 'option' ? 'given' : v.lockKeyFrom === 'detected' ? 'found from the first SET ... NX' : 'none found';
  out.push(`${file}: ${v.lineCount} lines, ${v.commandCount} commands (${v.lockCommandCount} on the lock key ${v.lockKey === null ? '-' : JSON.stringify(v.lockKey)}, ${keyFrom}), ${v.markCount} marks, ${v.clients.length} clients, ${spanS.toFixed(3)} s`);
  out.push('');
  if (v.violations.length === 0) out.push('No violation found.');
  else {
    const certain = v.violations.filter((x) => x.certainty === 'certain').length;
    const total = v.violations.length + v.violationsNotListed;
    out.push(`${total} violation${total === 1 ? '' : 's'} (${certain} certain, ${v.violations.length - certain} possible${v.violationsNotListed > 0 ? `, ${v.violationsNotListed} more not listed` : ''}):`);
    for (const x of v.violations) {
      out.push(`  ${x.certainty.toUpperCase().padEnd(8)} ${x.kind}: ${x.message}`);
      for (const e of x.evidence) out.push(`      line ${String(e.line).padEnd(7)} ${e.client.padEnd(14)} +${((e.startMs - (v.fromMs ?? 0)) / 1000).toFixed(3)} s  ${e.text}`);
    }
  }
  if (v.unknowns.length > 0) {
    out.push('', 'What the recording cannot tell:');
    for (const u of v.unknowns) out.push(`  - ${u}`);
  }
  if (v.problems.length > 0) {
    out.push('', `Input problems (${v.problems.length + v.problemsNotListed}; the rest was checked):`);
    for (const p of v.problems) out.push(`  line ${p.line}: ${p.message}`);
    if (v.problemsNotListed > 0) out.push(`  ... and ${v.problemsNotListed} more`);
  }
  return out.join('\n');
}
