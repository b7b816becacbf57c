// Goal: the loading tickets that the run session and the worker host share. While a scenario
// loads, commands get the "loading" refusal; a newer load or an installed run supersedes an older
// ticket (its late answer must be dropped), and ending a stale ticket leaves the newer load alone.
import { describe, expect, it } from 'vitest';
import { LoadTickets } from '../../src/session/load-tickets';

describe('LoadTickets', () => {
  it('refuses nothing until a load begins, then refuses with the scenario loading', () => {
    const tickets = new LoadTickets();
    expect(tickets.loading).toBeNull();
    expect(tickets.refusal()).toBeNull();
    tickets.begin('redlock');
    expect(tickets.loading).toBe('redlock');
    expect(tickets.refusal()).toEqual({ ok: false, refusal: { kind: 'loading', scenarioId: 'redlock' }, timelineChanged: false });
  });

  it('a newer load supersedes an older one: the older ticket is stale and ending it changes nothing', () => {
    const tickets = new LoadTickets();
    const first = tickets.begin('a');
    const second = tickets.begin('b');
    expect(second).not.toBe(first);
    expect(tickets.isCurrent(first)).toBe(false);
    expect(tickets.isCurrent(second)).toBe(true);
    tickets.end(first);
    expect(tickets.loading).toBe('b');
    tickets.end(second);
    expect(tickets.loading).toBeNull();
    expect(tickets.refusal()).toBeNull();
  });

  it('a run installed meanwhile supersedes the pending load and lifts the refusal', () => {
    const tickets = new LoadTickets();
    const pending = tickets.begin('a');
    tickets.supersede();
    expect(tickets.isCurrent(pending)).toBe(false);
    expect(tickets.loading).toBeNull();
    expect(tickets.refusal()).toBeNull();
    // The superseded load's late end does not disturb a load begun after it.
    const next = tickets.begin('b');
    tickets.end(pending);
    expect(tickets.isCurrent(next)).toBe(true);
    expect(tickets.loading).toBe('b');
  });
});
