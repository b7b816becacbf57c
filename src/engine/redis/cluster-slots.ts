/**
 * Redis Cluster's key hash slots (cluster.c keyHashSlot, getNodeByQuery), for a simulated server
 * in cluster mode (ServerOptions.cluster). It stands for a cluster of three masters, each serving
 * a third of the 16384 slots, reached through a cluster client that sends every command to the
 * master serving its keys' slot: no command is redirected (no MOVED, no ASK), but a command's
 * keys must share one slot (CROSSSLOT otherwise), and a script reaches only keys of its own
 * master. Proved against real clusters in tests/differential/cluster.test.ts.
 */

export const CLUSTER_SLOT_COUNT = 16384;
export const CLUSTER_MASTER_COUNT = 3;

/** Which master (0-based) serves a slot: master i serves floor(i*16384/3) up to the next one's first slot. */
export function clusterMasterOf(slot: number): number {
  for (let i = CLUSTER_MASTER_COUNT - 1; i > 0; i--) if (slot >= Math.floor((i * CLUSTER_SLOT_COUNT) / CLUSTER_MASTER_COUNT)) return i;
  return 0;
}

export const CROSSSLOT_ERROR = "CROSSSLOT Keys in request don't hash to the same slot";

/** CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, as Redis's crc16.c. */
function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

const encoder = new TextEncoder();

/**
 * The slot of a key: CRC16 of the key mod 16384, or of its hash tag, the bytes between the first
 * `{` and the next `}` after it, when there is at least one byte between them (`{}` is no tag,
 * and then the whole key is hashed).
 */
export function keyHashSlot(key: string): number {
  const bytes = encoder.encode(key);
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) return crc16(bytes.subarray(open + 1, close)) & (CLUSTER_SLOT_COUNT - 1);
  }
  return crc16(bytes) & (CLUSTER_SLOT_COUNT - 1);
}

/** Key positions of commands with more than one key, or none (COMMAND INFO of Redis 7.0: first, last, step). */
const MULTI_KEY: Readonly<Record<string, readonly [number, number, number]>> = {
  del: [1, -1, 1],
  unlink: [1, -1, 1],
  exists: [1, -1, 1],
  mget: [1, -1, 1],
  watch: [1, -1, 1],
  mset: [1, -1, 2],
  msetnx: [1, -1, 2],
  rename: [1, 2, 1],
  renamenx: [1, 2, 1],
  smove: [1, 2, 1],
  lmove: [1, 2, 1],
  rpoplpush: [1, 2, 1],
  blmove: [1, 2, 1],
  blpop: [1, -2, 1],
  brpop: [1, -2, 1],
  bzpopmin: [1, -2, 1],
  bzpopmax: [1, -2, 1],
};

/** Commands without keys (Redis 7.0's COMMAND INFO, for the ones Lockstep implements). */
const NO_KEYS: ReadonlySet<string> = new Set([
  'dbsize', 'echo', 'flushall', 'flushdb', 'keys', 'ping', 'time', 'publish', 'subscribe', 'unsubscribe', 'psubscribe',
  'punsubscribe', 'multi', 'exec', 'discard', 'quit', 'reset', 'unwatch', 'script', 'wait', 'select', 'client', 'info',
  'scan',
]);

/** The key names of a command (its argv[0] in any case), as getKeysFromCommand finds them. */
export function commandKeys(argv: readonly string[]): string[] {
  const name = (argv[0] ?? '').toLowerCase();
  if (NO_KEYS.has(name)) return [];
  if (name === 'eval' || name === 'evalsha' || name === 'eval_ro' || name === 'evalsha_ro') {
    // evalGetKeys: a numkeys that is not a number, or larger than what follows, declares no key.
    const numkeys = /^[0-9]+$/.test(argv[2] ?? '') ? Number(argv[2]) : -1;
    return numkeys > 0 && numkeys <= argv.length - 3 ? argv.slice(3, 3 + numkeys) : [];
  }
  if (name === 'msetex') {
    const numkeys = /^[0-9]+$/.test(argv[1] ?? '') ? Number(argv[1]) : -1;
    if (numkeys <= 0 || 2 + numkeys * 2 > argv.length) return [];
    return Array.from({ length: numkeys }, (_, i) => argv[2 + i * 2]);
  }
  const positions = MULTI_KEY[name];
  if (positions === undefined) return argv.length > 1 ? [argv[1]] : [];
  const [first, lastSpec, step] = positions;
  const last = lastSpec < 0 ? argv.length + lastSpec : lastSpec;
  const keys: string[] = [];
  for (let i = first; i <= last && i < argv.length; i += step) keys.push(argv[i]);
  return keys;
}

/** The one slot all the commands' keys hash to; null when they have none, 'cross' when they span several. */
export function slotOf(commands: readonly (readonly string[])[]): number | null | 'cross' {
  let slot: number | null = null;
  for (const argv of commands) {
    for (const key of commandKeys(argv)) {
      const s = keyHashSlot(key);
      if (slot === null) slot = s;
      else if (s !== slot) return 'cross';
    }
  }
  return slot;
}
