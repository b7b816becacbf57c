/**
 * What one recorded command did to the lock key, with transactions: commands a MULTI queued take
 * effect at EXEC, with EXEC's replies. Counts the commands on the key, and notes a command of
 * unknown effect (the owner is uncertain from then until a sure acquisition).
 */
import { lockEffect, type LockEffect } from './effects';
import type { HistoryReply } from './format';
import type { Findings } from './findings';
import type { Intake } from './intake';
import type { Ev } from './model';
import { ScriptBook } from './scripts';
import type { Versions } from './versions';

const MULTI_QUEUE_MAX = 1000;

export class CommandEffects {
  lockCommandCount = 0;
  private readonly scripts = new ScriptBook();

  constructor(
    private readonly intake: Intake,
    private readonly findings: Findings,
    private readonly versions: Versions,
  ) {}

  /** Effects of one command on `lockKey`: none while a MULTI queues it, every queued one at EXEC. */
  of(ev: Ev, lockKey: string, argv: readonly string[], reply: HistoryReply | undefined, error: string | undefined): LockEffect[] {
    const name = argv[0].toUpperCase();
    const conn = this.intake.connection(ev.conn);
    if (conn !== undefined) {
      if (name === 'MULTI' && error === undefined) {
        conn.multi = [];
        return [];
      }
      if (name === 'DISCARD') {
        conn.multi = null;
        return [];
      }
      if (name === 'EXEC' && conn.multi !== null) {
        const queued = conn.multi;
        conn.multi = null;
        if (error !== undefined || reply === null) return [];
        const replies = Array.isArray(reply) ? reply : null;
        return queued.map((q, i) => {
          const r = replies === null ? undefined : replies[i];
          return this.count(lockEffect(q, lockKey, { reply: r, error: undefined }, this.scripts), ev);
        });
      }
      if (conn.multi !== null && error === undefined) {
        if (conn.multi.length < MULTI_QUEUE_MAX) conn.multi.push(argv);
        return [];
      }
    }
    return [this.count(lockEffect(argv, lockKey, { reply, error }, this.scripts), ev)];
  }

  private count(effect: LockEffect, ev: Ev): LockEffect {
    if (effect.op !== 'none') this.lockCommandCount++;
    if (effect.op === 'unknown') {
      this.findings.unknown({ key: 'hEffectUnknown', params: { line: ev.line, client: ev.client, why: effect.why } });
      this.versions.ownerUnknownSince = ev;
    }
    return effect;
  }
}
