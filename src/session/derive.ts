/**
 * Plain data the store publishes, derived from the engine after each action. Each function keeps
 * the previous object when nothing it shows changed, so components selecting it do not re-render.
 */
import { displayBytes } from '../engine/redis/commands/bytes';
import type { KeyEntry } from '../engine/redis/keyspace';
import { formatSchedule, type Choice } from '../engine/schedule';
import { isLive, type ClientState, type ProcessState } from '../engine/world';
import type { ClientView, KeyView } from './views';

export function clientViews(
  clients: readonly Readonly<ClientState>[],
  processes: Readonly<Record<string, ProcessState>>,
  nowMs: number,
  previous: readonly ClientView[],
): readonly ClientView[] {
  let changed = clients.length !== previous.length;
  const next = clients.map((c, index) => {
    const stalledUntil = processes[c.process]?.stalledUntilMs ?? 0;
    const view: ClientView = {
      id: c.id,
      index,
      pc: c.pc,
      status: c.status,
      blockReason: c.status === 'blocked' ? c.blockReason : null,
      blockedUntilMs: c.status === 'blocked' ? c.blockedUntilMs : null,
      stalledUntilMs: isLive(c as ClientState) && stalledUntil > nowMs ? stalledUntil : null,
      inCriticalSection: c.inCriticalSection,
      believesHoldsLock: c.believesHoldsLock,
      token: c.vars.token ?? '',
      live: isLive(c as ClientState),
    };
    const old = previous[index];
    if (old && sameClient(old, view)) return old;
    changed = true;
    return view;
  });
  return changed ? next : previous;
}

function sameClient(a: ClientView, b: ClientView): boolean {
  return (
    a.id === b.id &&
    a.index === b.index &&
    a.pc === b.pc &&
    a.status === b.status &&
    a.blockReason === b.blockReason &&
    a.blockedUntilMs === b.blockedUntilMs &&
    a.stalledUntilMs === b.stalledUntilMs &&
    a.inCriticalSection === b.inCriticalSection &&
    a.believesHoldsLock === b.believesHoldsLock &&
    a.token === b.token &&
    a.live === b.live
  );
}

const valueTextLengthMax = 240;

/** A value for the inspector; bytes that are not UTF-8 show as `\xHH`, as redis-cli shows them. */
export function keyValueText(entry: KeyEntry): string {
  let text: string;
  switch (entry.type) {
    case 'string':
      text = displayBytes(entry.value);
      break;
    case 'hash':
      text = entry.value.map(([f, v]) => `${displayBytes(f)}=${displayBytes(v)}`).join(', ');
      break;
    case 'list':
      text = `[${entry.value.map(displayBytes).join(', ')}]`;
      break;
    case 'set':
      text = `{${entry.value.map(displayBytes).join(', ')}}`;
      break;
    case 'zset':
      text = entry.value.map(([m, s]) => `${displayBytes(m)}:${s}`).join(', ');
      break;
  }
  return text.length > valueTextLengthMax ? `${text.slice(0, valueTextLengthMax)}…` : text;
}

/** The client whose token the value is or contains. */
function ownerOf(text: string, tokens: Readonly<Record<string, string>>): string | null {
  for (const [clientId, token] of Object.entries(tokens)) {
    if (token !== '' && text.includes(token)) return clientId;
  }
  return null;
}

function entryKey(entry: KeyEntry): string {
  return JSON.stringify([entry.type, entry.value, entry.expireAtMs]);
}

/**
 * The inspector's rows: every live key, marked created/changed against the previous step, plus
 * keys the step removed (deleted, or expired when their time had passed).
 */
export function keyViews(
  entries: readonly KeyEntry[],
  previousEntries: readonly KeyEntry[] | null,
  nowMs: number,
  tokens: Readonly<Record<string, string>>,
): KeyView[] {
  const before = new Map((previousEntries ?? []).map((e) => [e.key, e]));
  const rows: KeyView[] = entries.map((entry) => {
    const old = before.get(entry.key);
    const text = keyValueText(entry);
    return {
      key: entry.key,
      type: entry.type,
      text,
      tokenOwner: ownerOf(text, tokens),
      expireAtMs: entry.expireAtMs,
      change: previousEntries === null ? null : old === undefined ? 'created' : entryKey(old) !== entryKey(entry) ? 'changed' : null,
    };
  });
  if (previousEntries !== null) {
    const now = new Set(entries.map((e) => e.key));
    for (const old of previousEntries) {
      if (now.has(old.key)) continue;
      const text = keyValueText(old);
      rows.push({
        key: old.key,
        type: old.type,
        text,
        tokenOwner: ownerOf(text, tokens),
        expireAtMs: old.expireAtMs,
        change: old.expireAtMs !== null && old.expireAtMs < nowMs ? 'expired' : 'deleted',
      });
    }
    rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
  return rows;
}

/** True when the choices so far are the scenario's scripted story (so its narration applies). */
export function isOnDefaultPath(choicesToCursor: readonly Choice[], defaultChoices: readonly Choice[]): boolean {
  if (choicesToCursor.length > defaultChoices.length) return false;
  return formatSchedule(choicesToCursor) === formatSchedule(defaultChoices.slice(0, choicesToCursor.length));
}
