/**
 * The loading tickets of one run: while a scenario's body loads elsewhere, commands are refused,
 * and a newer load (or a run installed meanwhile) supersedes an older one, whose answer is then
 * dropped. The session keeps one in its thread; a host whose session is in a worker keeps its own,
 * because the page must refuse commands before they cross.
 */
import type { CommandResult } from './commands';

export class LoadTickets {
  private ticket = 0;
  private loadingId: string | null = null;

  /** A scenario starts loading: commands are refused until a run is installed. Returns its ticket. */
  begin(scenarioId: string): number {
    this.loadingId = scenarioId;
    return ++this.ticket;
  }

  /** Whether the load of `ticket` is still the one wanted (no later load or run replaced it). */
  isCurrent(ticket: number): boolean {
    return ticket === this.ticket;
  }

  /** The pending load of `ticket` ended without a run (refused or failed). */
  end(ticket: number): void {
    if (ticket === this.ticket) this.loadingId = null;
  }

  /** A run is installed: it replaces any scenario still loading, whose run is no longer wanted. */
  supersede(): void {
    this.ticket += 1;
    this.loadingId = null;
  }

  /** The scenario loading, or null. */
  get loading(): string | null {
    return this.loadingId;
  }

  /** What a command gets while a scenario loads; null when none does. */
  refusal(): CommandResult | null {
    return this.loadingId === null ? null : { ok: false, refusal: { kind: 'loading', scenarioId: this.loadingId }, timelineChanged: false };
  }
}
