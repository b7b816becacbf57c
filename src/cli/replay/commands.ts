/**
 * What a replay must know about each command it sends to a real Redis: which arguments are key
 * names (they get the run's key prefix) and which are durations (they are divided by the time
 * scale). A command not in this table is refused rather than guessed at: a wrong guess would
 * touch a key outside the prefix or keep a lease at its unscaled length.
 *
 * An argument is either a literal (every argument of a command a client sends; a quoted string in
 * a script's `redis.call`) or an expression of a script (`KEYS[1]`, `ARGV[2]`, `tonumber(x)`):
 * option words must be literals, so the shape of a call is known without running it.
 */
export type Arg = { readonly literal: string } | { readonly expr: string };

interface DurationArg {
  /** Index into the argument list (0 = the command name). */
  readonly index: number;
  readonly unit: 'ms' | 's';
}

export interface CommandShape {
  /** Indexes of key names. */
  readonly keys: readonly number[];
  /**
   * Indexes of Pub/Sub channel names and patterns: they get the key prefix too (the replay's
   * messages then reach only its own subscribers, and PUBLISH counts only them), but they are
   * not keys: nothing checks or removes them on the server.
   */
  readonly channels?: readonly number[];
  readonly durations: readonly DurationArg[];
  /** The integer reply is a duration in ms (PTTL): compared on the scaled clock, within the margin. */
  readonly replyIsDurationMs: boolean;
  /** EVAL or EVALSHA: the script's own keys and durations come from its source and its ScriptSpec. */
  readonly script?: { readonly numkeys: number; readonly bySha: boolean };
}

export type ShapeResult = { readonly shape: CommandShape } | { readonly refusal: string };

const plain = (keys: readonly number[], durations: readonly DurationArg[] = [], replyIsDurationMs = false): ShapeResult => ({
  shape: { keys, durations, replyIsDurationMs },
});

const range = (from: number, to: number, step = 1): number[] => {
  const out: number[] = [];
  for (let i = from; i < to; i += step) out.push(i);
  return out;
};

const literalOf = (arg: Arg | undefined): string | null => (arg !== undefined && 'literal' in arg ? arg.literal : null);

/** SET's and GETEX's options from `from` on: EX and PX take a duration; EXAT and PXAT are refused. */
function expiryOptions(name: string, args: readonly Arg[], from: number): ShapeResult {
  const durations: DurationArg[] = [];
  for (let i = from; i < args.length; i++) {
    const word = literalOf(args[i]);
    if (word === null) return { refusal: `${name}'s option ${i} is computed by the script, so the replay cannot tell what it is` };
    const option = word.toUpperCase();
    if (option === 'EX' || option === 'PX') {
      if (i + 1 < args.length) durations.push({ index: i + 1, unit: option === 'EX' ? 's' : 'ms' });
      i++;
    } else if (option === 'EXAT' || option === 'PXAT') {
      return { refusal: `${name} ... ${option} names an absolute Unix time, which the simulation counts from its own epoch: it cannot be replayed on a real clock` };
    } else if (option === 'IFEQ' || option === 'IFNE' || option === 'IFDEQ' || option === 'IFDNE') {
      i++;
    }
  }
  return plain([1], durations);
}

/** The shape of one command, from its name and (literal) option words. */
export function commandShape(args: readonly Arg[]): ShapeResult {
  const first = literalOf(args[0]);
  if (first === null) return { refusal: 'the command name is computed by the script' };
  const name = first.toUpperCase();
  const n = args.length;
  switch (name) {
    // One key; values, scores, ranks and list elements are data (sorted sets and list edits: semaphores, fair queues).
    case 'GET':
    case 'GETDEL':
    case 'SETNX':
    case 'TYPE':
    case 'PERSIST':
    case 'INCR':
    case 'DECR':
    case 'INCRBY':
    case 'DECRBY':
    case 'STRLEN':
    case 'APPEND':
    case 'DELEX':
    case 'DIGEST':
    case 'HSET':
    case 'HGET':
    case 'HDEL':
    case 'HEXISTS':
    case 'HINCRBY':
    case 'HGETALL':
    case 'HLEN':
    case 'LPUSH':
    case 'RPUSH':
    case 'LLEN':
    case 'SADD':
    case 'SREM':
    case 'SISMEMBER':
    case 'SCARD':
    case 'ZADD':
    case 'ZREM':
    case 'ZCARD':
    case 'ZSCORE':
    case 'ZRANK':
    case 'ZRANGE':
    case 'ZREMRANGEBYSCORE':
    case 'LPOP':
    case 'RPOP':
    case 'LINDEX':
    case 'LRANGE':
    case 'LPOS':
    case 'LREM':
      return plain(n > 1 ? [1] : []);
    case 'DEL':
    case 'UNLINK':
    case 'EXISTS':
    case 'MGET':
      return plain(range(1, n));
    case 'MSET':
    case 'MSETNX':
      return plain(range(1, n, 2));
    case 'PTTL':
      return plain(n > 1 ? [1] : [], [], true);
    case 'SET':
      return expiryOptions(name, args, 3);
    case 'GETEX':
      return expiryOptions(name, args, 2);
    case 'SETEX':
      return plain([1], n > 2 ? [{ index: 2, unit: 's' }] : []);
    case 'PSETEX':
      return plain([1], n > 2 ? [{ index: 2, unit: 'ms' }] : []);
    case 'EXPIRE':
      return plain([1], n > 2 ? [{ index: 2, unit: 's' }] : []);
    case 'PEXPIRE':
      return plain([1], n > 2 ? [{ index: 2, unit: 'ms' }] : []);
    // PING and ECHO; and a transaction's frame (the queued commands between MULTI and EXEC are planned one by one).
    case 'PING':
    case 'ECHO':
    case 'MULTI':
    case 'EXEC':
    case 'DISCARD':
    case 'UNWATCH':
      return plain([]);
    case 'WATCH':
      return plain(range(1, n));
    case 'PUBLISH':
      return { shape: { keys: [], channels: n > 1 ? [1] : [], durations: [], replyIsDurationMs: false } };
    case 'SUBSCRIBE':
    case 'UNSUBSCRIBE':
    case 'PSUBSCRIBE':
    case 'PUNSUBSCRIBE':
      // ioredis answers the subscribe family with the subscription count only, once per command:
      // the replay rebuilds the confirmation from one named channel (report.ts says so).
      if (n !== 2) return { refusal: `${name} with ${n === 1 ? 'no channel' : 'several channels'}: the replay compares one confirmation per command` };
      return { shape: { keys: [], channels: [1], durations: [], replyIsDurationMs: false } };
    case 'EVAL':
    case 'EVALSHA': {
      const numkeysText = literalOf(args[2]);
      const numkeys = numkeysText !== null && /^(0|[1-9][0-9]{0,5})$/.test(numkeysText) ? Number(numkeysText) : null;
      if (numkeys === null || 3 + numkeys > n) return { refusal: `${name} with a numkeys the replay cannot read` };
      return { shape: { keys: range(3, 3 + numkeys), durations: [], replyIsDurationMs: false, script: { numkeys, bySha: name === 'EVALSHA' } } };
    }
    case 'SCRIPT': {
      const sub = (literalOf(args[1]) ?? '').toUpperCase();
      if (sub === 'LOAD' || sub === 'EXISTS') return plain([]);
      if (sub === 'FLUSH') return plain([]);
      return { refusal: `SCRIPT ${sub} acts on whatever script the server runs, not only the replay's` };
    }
    // WAIT's timeout is a duration (0: for ever, sent as it is); its reply counts the replicas that have the write.
    case 'WAIT':
      return plain([], n > 2 ? [{ index: 2, unit: 'ms' }] : []);
    case 'TTL':
      return { refusal: "TTL answers whole seconds, which a scaled clock cannot compare; the replay compares PTTL" };
    default:
      return { refusal: `the replay does not know which arguments of ${name} are keys or durations` };
  }
}

/** Commands that change the whole server, not only the replay's keys: refused unless allowed. */
export function serverWideEffect(argv: readonly string[]): string | null {
  const name = (argv[0] ?? '').toUpperCase();
  const sub = (argv[1] ?? '').toUpperCase();
  if (name === 'SCRIPT' && sub === 'FLUSH') return "SCRIPT FLUSH empties the server's whole script cache, not only the replay's scripts";
  return null;
}
