import { reply, type Reply } from '../reply';
import type { ScriptRunReport } from '../script-engine';

/**
 * Slow scripts on the virtual clock.
 *
 * The engine runs a script to completion inside one `execute` call: its effects land at the
 * start time. What a learner must still see is that Redis is single-threaded: while a long
 * script runs, every other client waits, and once it has run longer than `busy-reply-threshold`
 * (5 s by default) Redis answers them BUSY, accepts SCRIPT KILL unless the script already wrote
 * (UNKILLABLE), and SHUTDOWN NOSAVE.
 *
 * Mapping: the engine counts the Lua instructions a script ran (ScriptRunReport). The server
 * turns them into virtual time at `nsPerInstruction`: duration = floor(instructions x ns / 1e6)
 * ms (work under a millisecond takes no virtual time). The script then occupies [startMs, endMs). For a command from another client at `nowMs`:
 * - nowMs < startMs + busyReplyThresholdMs: Redis would queue it until the script ends. The
 *   server cannot hold a reply, so it answers normally; a scheduler that models the wait delivers
 *   the command at `min(endMs, busyFromMs)` (see `running()`).
 * - busyFromMs <= nowMs < endMs: BUSY, except SCRIPT KILL and SHUTDOWN NOSAVE.
 * - SCRIPT KILL while busy: UNKILLABLE if the script wrote, else OK and the script ends now; its
 *   caller's reply becomes the SCRIPT KILL error (`running().reply`, read at delivery time).
 *
 * A runaway script stopped by the engine's work or memory budget carries the budget's error (see
 * docs/REDIS-FIDELITY.md): it occupies the server for the virtual time of the work it did.
 *
 * The default rate, 20 ns per instruction, is the order of Redis's own Lua VM: lock scripts take
 * microseconds (0 ms), so nothing changes for them. A scenario about BUSY slows the rate (or lowers
 * the threshold, as `CONFIG SET busy-reply-threshold` would) so a loop crosses the threshold.
 */
export interface ScriptTiming {
  /** Virtual nanoseconds one Lua VM instruction takes. */
  readonly nsPerInstruction: number;
  /** Redis's busy-reply-threshold (lua-time-limit): running time after which others get BUSY. */
  readonly busyReplyThresholdMs: number;
}

export const defaultScriptTiming: ScriptTiming = { nsPerInstruction: 20, busyReplyThresholdMs: 5_000 };

/** A script still occupying the server on the virtual clock. Plain data (snapshots carry it). */
export interface RunningScript {
  readonly sha: string;
  readonly startMs: number;
  /** When the script ends (or ended, if killed). */
  readonly endMs: number;
  /** From when other clients get BUSY instead of waiting. */
  readonly busyFromMs: number;
  readonly wroteDataset: boolean;
  /** The reply its caller gets at `endMs`: the script's result or error, or the SCRIPT KILL error. */
  readonly reply: Reply;
  readonly killedAtMs: number | null;
}

const BUSY = 'BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.';
const UNKILLABLE =
  'UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.';
const KILLED_BY_USER = 'ERR Script killed by user with SCRIPT KILL...';

export function scriptDurationMs(instructionCount: number, timing: ScriptTiming): number {
  return Math.floor((instructionCount * timing.nsPerInstruction) / 1_000_000);
}

/** The server's view of the script occupying it. One per server; plain state, restorable. */
export class ScriptBusyTracker {
  private current: RunningScript | null = null;

  constructor(readonly timing: ScriptTiming = defaultScriptTiming) {}

  /** Records a finished EVAL: if it lasts past `startMs` on the virtual clock, the server is occupied. */
  record(startMs: number, report: ScriptRunReport, result: Reply): void {
    const durationMs = scriptDurationMs(report.instructionCount, this.timing);
    if (durationMs <= 0) {
      this.current = null;
      return;
    }
    this.current = {
      sha: report.sha,
      startMs,
      endMs: startMs + durationMs,
      busyFromMs: startMs + this.timing.busyReplyThresholdMs,
      wroteDataset: report.wroteDataset,
      reply: result,
      killedAtMs: null,
    };
  }

  /** The script occupying the server at `nowMs`, or null. */
  running(nowMs: number): RunningScript | null {
    const script = this.current;
    return script !== null && nowMs >= script.startMs && nowMs < script.endMs ? script : null;
  }

  /** The last slow script, even once it ended: its caller reads the final reply here. */
  last(): RunningScript | null {
    return this.current;
  }

  /**
   * What the server answers instead of running `argv` at `nowMs`, or null to run it normally.
   * Only in the busy window (from busyFromMs to endMs); SCRIPT KILL is handled here then.
   */
  intercept(argv: readonly string[], nowMs: number): Reply | null {
    const script = this.running(nowMs);
    if (script === null || nowMs < script.busyFromMs) return null;
    const name = argv[0]?.toLowerCase();
    const sub = argv[1]?.toLowerCase();
    if (name === 'script' && sub === 'kill' && argv.length === 2) {
      if (script.wroteDataset) return reply.error(UNKILLABLE);
      this.current = {
        ...script,
        endMs: nowMs,
        killedAtMs: nowMs,
        reply: reply.error(`${KILLED_BY_USER} script: ${script.sha}, on @user_script:1.`),
      };
      return reply.ok();
    }
    if (name === 'shutdown' && sub === 'nosave') return null;
    return reply.error(BUSY);
  }

  snapshot(): RunningScript | null {
    return this.current;
  }

  restore(script: RunningScript | null): void {
    this.current = script;
  }
}
