import os from 'node:os';
import { commandLine, headerLine, markLine, type HistoryReply } from '../../history';
import type { RealReply } from './connection';
import type { PlannedCommand, PlannedMark, ReplayPlan } from './plan';

/**
 * `replay --record <file>`: the real side of a replay written as a history (docs/HISTORIES.md), so
 * `lockstep check` judges what the real server did; each command with the real reply and the real
 * times it was sent and answered, and the simulated code's beliefs (enter, leave, write) as marks
 * at their scaled times. The checker's verdict on it is compared with the simulation's in the
 * differential test (tests/replay/record.test.ts).
 */
export class ReplayHistory {
  private nextMark = 0;
  private readonly clock = `${os.hostname()}:${process.pid}`;

  constructor(
    private readonly plan: ReplayPlan,
    private readonly write: (line: string) => void,
  ) {
    write(headerLine({ history: 1, recorder: 'replay' }));
  }

  /** Marks the trace has before the command at `index` (all that are left, past the last command). */
  marksBefore(index: number): PlannedMark[] {
    const seq = index < this.plan.commandSeqs.length ? this.plan.commandSeqs[index] : Infinity;
    if (seq < 0) return [];
    const out: PlannedMark[] = [];
    // Bounded by the plan's marks.
    while (this.nextMark < this.plan.marks.length && this.plan.marks[this.nextMark].seq < seq) out.push(this.plan.marks[this.nextMark++]);
    return out;
  }

  mark(mark: PlannedMark): void {
    const detail = mark.resource === undefined ? {} : { resource: mark.resource, token: mark.token ?? '' };
    this.write(markLine({ client: mark.clientId, mark: mark.mark, ...detail, atMs: performance.now(), atWallMs: Date.now(), clock: this.clock }));
  }

  command(command: PlannedCommand, real: RealReply | null, startMs: number, startWallMs: number): void {
    const outcome = real === null ? {} : real.type === 'error' ? { error: real.value } : { reply: historyReply(real) };
    this.write(
      commandLine({
        client: command.clientId ?? 'setup',
        conn: command.connection ?? 'control',
        argv: [...command.realArgv],
        ...outcome,
        startMs,
        endMs: performance.now(),
        startWallMs,
        endWallMs: Date.now(),
        clock: this.clock,
      }),
    );
  }
}

function historyReply(reply: Exclude<RealReply, { type: 'error' }>): HistoryReply {
  switch (reply.type) {
    case 'nil':
      return null;
    case 'integer':
      return Number(reply.value);
    case 'string':
      return reply.value;
    case 'array':
      return reply.value.map((r) => (r.type === 'error' ? `(error) ${r.value}` : historyReply(r)));
  }
}
