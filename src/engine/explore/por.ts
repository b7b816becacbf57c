import { COMMANDS } from '../redis/commands';
import { lockKeyOf } from '../scenario';
import type { TraceEvent } from '../trace';
import type { RunContext, WorldState } from '../world';
import type { RankedMove } from './moves';

/**
 * Partial-order reduction (docs/EXPLORER.md, "Partial-order reduction").
 *
 * Two moves commute at a state when applying them in either order gives the same state (the same
 * explorer key) and each produces the same events either way. Then of the two orders only one
 * needs exploring: a move u is skipped right after a move t when both were applied at the parent
 * state, they commute there, and u ranks before t (faults rank before steps). The other order
 * (u, then t) reaches the same state by the same number of choices, with the same events.
 *
 * Only moves are skipped, never states: the reduced search visits exactly the states of the full
 * one, each at the same depth, and finds every violation at the same depth (the proof is in
 * docs/EXPLORER.md; tests/unit/explore-por.test.ts compares both searches on small scenarios and
 * checks the commutation itself on random states).
 *
 * "Commute" is decided conservatively from what each move did at the parent (its Effect):
 * - with several nodes, neither changed the cluster's state (a command is a message: every one
 *   does; node faults are global anyway), so only client-local steps commute;
 * - neither moved the clock, reported a violation, touched the lock key or the lock tracking,
 *   drew from the run's RNG, wrote a protected resource or counter, or ran a command whose keys
 *   are not among its arguments (scripts, KEYS, FLUSHALL, transactions...): such a move is global;
 * - they belong to different processes, and every event of each is about its own process;
 * - their Redis keys do not conflict (a write of one meets no read or write of the other);
 * - one does not change who is in the critical section while the other enters it (the
 *   mutual-exclusion checker reads it);
 * - one does not end or crash clients while the lock has no TTL (lock-never-released reads it);
 * - they do not both give their clients a new place in the run order (ranks are part of the state).
 */
export interface Effect {
  readonly move: RankedMove;
  readonly global: boolean;
  readonly process: string | null;
  readonly keysRead: readonly string[];
  readonly keysWritten: readonly string[];
  /** Enters, leaves, ends or crashes: changes who is in the critical section. */
  readonly changesCriticalSection: boolean;
  /** Enters the critical section: the mutual-exclusion checker reads the others. */
  readonly entersCriticalSection: boolean;
  /** Ends or crashes clients. */
  readonly endsClients: boolean;
  /** The lock key existed with no TTL when the move began. */
  readonly lockWithoutTtl: boolean;
  /** Gave a client a new place in the run order. */
  readonly reorders: boolean;
}

/**
 * Commands whose keys are all among their arguments and that touch nothing but those keys. Any
 * other command (scripts, KEYS, FLUSHALL, MULTI/EXEC, WATCH, Pub/Sub, an unknown one) is global.
 * Treating every argument as a key over-approximates the keys, which only makes moves dependent.
 */
const KEYED_COMMANDS: ReadonlySet<string> = new Set(
  (
    'set get setnx setex psetex getset getdel getex mset msetnx mget append strlen getrange setrange incr decr incrby decrby ' +
    'incrbyfloat del unlink exists type rename renamenx expire pexpire expireat pexpireat ttl pttl expiretime pexpiretime persist ' +
    'hset hmset hget hmget hdel hexists hincrby hincrbyfloat hlen hgetall hkeys hvals hsetnx hstrlen lpush rpush lpushx rpushx ' +
    'lpop rpop lrange llen lindex sadd srem smembers sismember smismember scard delex digest ping echo ' +
    'zadd zincrby zrem zcard zscore zmscore zrank zrevrank zcount zrange zrevrange zrangebyscore zrevrangebyscore zrangebylex ' +
    'zrevrangebylex zremrangebyrank zremrangebyscore zremrangebylex zpopmin zpopmax lrem lset ltrim linsert lpos lmove rpoplpush smove'
  ).split(' '),
);

function isWrite(name: string): boolean {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name].write : true;
}

/** The cluster state's JSON, once per parent world (every move at a state compares against it). */
const clusterTexts = new WeakMap<object, string>();
function clusterText(world: Readonly<WorldState>): string {
  let text = clusterTexts.get(world);
  if (text === undefined) {
    text = JSON.stringify(world.cluster);
    clusterTexts.set(world, text);
  }
  return text;
}

/** What `move` did from `before` to `after` with `events`: the facts independence is decided on. */
export function effectOf(move: RankedMove, before: Readonly<WorldState>, after: Readonly<WorldState>, events: readonly TraceEvent[], ctx: RunContext): Effect {
  const processOf = (id: string | null) => (id === null ? null : (after.clients.find((c) => c.id === id)?.process ?? null));
  let global =
    move.process === null ||
    before.nowMs !== after.nowMs ||
    before.rng !== after.rng ||
    before.lock.holder !== after.lock.holder ||
    before.lock.generation !== after.lock.generation ||
    before.lock.value !== after.lock.value ||
    before.lock.acquiredAtMs !== after.lock.acquiredAtMs ||
    // Several nodes: anything that touched the nodes, links, messages in flight, replication or
    // clocks (every command does: it is a message) is global; only client-local steps may commute.
    (after.cluster !== undefined && clusterText(before) !== JSON.stringify(after.cluster));
  const keysRead: string[] = [];
  const keysWritten: string[] = [];
  let changesCriticalSection = false;
  let entersCriticalSection = false;
  let endsClients = false;
  for (const event of events) {
    if (global) break;
    if (event.clientId === null || processOf(event.clientId) !== move.process) {
      global = true;
      break;
    }
    switch (event.kind) {
      case 'violation':
      case 'mark':
      case 'write':
      case 'reply':
      case 'clock':
      case 'expire':
      case 'send':
      case 'drop':
      case 'replicate':
      case 'fault':
        global = true;
        break;
      case 'enter':
        entersCriticalSection = true;
        changesCriticalSection = true;
        break;
      case 'leave':
        changesCriticalSection = true;
        break;
      case 'end':
      case 'crash':
        endsClients = true;
        changesCriticalSection = true;
        break;
      case 'command': {
        const name = event.argv[0]?.toLowerCase() ?? '';
        if (!KEYED_COMMANDS.has(name)) {
          global = true;
          break;
        }
        const keys = event.argv.slice(1);
        if (isWrite(name)) {
          if (keys.includes(lockKeyOf(ctx.scenario, ctx.variant))) global = true;
          keysWritten.push(...keys);
        } else keysRead.push(...keys);
        break;
      }
      default:
        break;
    }
  }
  const first = events[0];
  const lockWithoutTtl = first !== undefined && first.lockBefore.value !== null && first.lockBefore.pttlMs === -1;
  let reorders = false;
  for (let i = 0; i < after.clients.length; i++) if (after.clients[i].order !== before.clients[i].order) reorders = true;
  return { move, global, process: move.process, keysRead, keysWritten, changesCriticalSection, entersCriticalSection, endsClients, lockWithoutTtl, reorders };
}

function meets(a: readonly string[], b: readonly string[]): boolean {
  return a.some((key) => b.includes(key));
}

/** Whether the two moves commute at the state both were applied to (see the module comment). */
export function independent(a: Effect, b: Effect): boolean {
  if (a.global || b.global || a.process === null || b.process === null || a.process === b.process) return false;
  if (meets(a.keysWritten, b.keysRead) || meets(a.keysWritten, b.keysWritten) || meets(b.keysWritten, a.keysRead)) return false;
  if ((a.changesCriticalSection && b.entersCriticalSection) || (b.changesCriticalSection && a.entersCriticalSection)) return false;
  if ((a.endsClients || b.endsClients) && (a.lockWithoutTtl || b.lockWithoutTtl)) return false;
  return !(a.reorders && b.reorders);
}

/** Whether `move` may be skipped at a state reached by `via`, given what it did at the parent. */
export function skippable(move: RankedMove, via: Effect | null, atParent: Effect | undefined): boolean {
  return via !== null && atParent !== undefined && move.rank < via.move.rank && independent(via, atParent);
}
