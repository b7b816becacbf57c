import { diffCase, near } from '../harness';

/**
 * Expiry commands with long TTLs (wall time never matters here; see harness.ts). GT/LT steps always
 * compare TTLs that differ by seconds: equal relative TTLs set a few ms apart would compare by
 * the wall-clock ms between the two commands.
 */
export const EXPIRY_CASES = [
  diffCase('TTL and PTTL on absent, persistent and expiring keys', 'TTL k', 'PTTL k', 'SET k v', 'TTL k', 'PTTL k', 'EXPIRE k 1000', 'TTL k', near('PTTL k')),
  diffCase('TTL rounds to the nearest second', 'SET k v PX 100400', 'TTL k', 'SET j v PX 100600', 'TTL j'),
  diffCase('EXPIRE returns 1 or 0', 'EXPIRE k 100', 'SET k v', 'EXPIRE k 100', 'TTL k', 'PEXPIRE k 200000', 'TTL k'),
  diffCase('EXPIRE argument parsing', 'SET k v', 'EXPIRE k abc', 'EXPIRE k 1.5', 'EXPIRE k " 10"', 'EXPIRE k 01', 'TTL k'),
  diffCase('EXPIRE overflow', 'SET k v', 'EXPIRE k 9223372036854775807', 'PEXPIRE k 9223372036854775807', 'EXPIRE k 9223372036854775', 'TTL k'),
  diffCase('EXPIRE zero or negative deletes', 'SET k v', 'EXPIRE k 0', 'EXISTS k', 'SET j v', 'PEXPIRE j -100', 'EXISTS j'),
  diffCase('EXPIRE NX/XX', 'SET k v', 'EXPIRE k 100 XX', 'TTL k', 'EXPIRE k 100 NX', 'TTL k', 'EXPIRE k 200 NX', 'EXPIRE k 300 XX', 'TTL k'),
  diffCase('EXPIRE GT/LT', 'SET k v', 'EXPIRE k 100 GT', 'TTL k', 'EXPIRE k 100 LT', 'TTL k', 'EXPIRE k 50 GT', 'EXPIRE k 200 GT', 'TTL k', 'EXPIRE k 300 LT', 'EXPIRE k 150 LT', 'TTL k'),
  diffCase('EXPIRE flags are case-insensitive and conflicts refused', 'SET k v', 'EXPIRE k 100 nx', 'EXPIRE k 100 NX XX', 'EXPIRE k 100 GT LT', 'EXPIRE k 100 NX GT', 'EXPIRE k 200 XX GT', 'EXPIRE k 100 FOO', 'EXPIRE k 150 GT GT', 'TTL k'),
  diffCase('EXPIRE flags on an absent key', 'EXPIRE k 100 NX', 'EXPIRE k 100 FOO', 'EXPIRE k abc NX'),
  diffCase('EXPIRE LT on a key without TTL, GT with negative', 'SET k v', 'EXPIRE k 100 LT', 'TTL k', 'SET j v', 'EXPIRE j -1 GT', 'EXISTS j', 'EXPIRE j -1 LT', 'EXISTS j'),
  diffCase('EXPIREAT and PEXPIREAT', 'SET k v', 'EXPIREAT k 4102444800', 'EXPIRETIME k', 'PEXPIREAT k 4102444800500', 'PEXPIRETIME k', 'EXPIRETIME k', 'EXPIREAT missing 4102444800'),
  diffCase('EXPIREAT in the past deletes', 'SET k v', 'EXPIREAT k 1', 'EXISTS k', 'SET j v', 'PEXPIREAT j 0', 'EXISTS j'),
  diffCase('EXPIREAT flags', 'SET k v', 'EXPIREAT k 4102444800 NX', 'EXPIREAT k 4102444900 NX', 'EXPIREAT k 4102444900 GT', 'EXPIRETIME k', 'EXPIREAT k 4102444850 LT', 'EXPIRETIME k', 'EXPIREAT k 4102444850 XX GT'),
  diffCase('EXPIRETIME and PEXPIRETIME on absent and persistent keys', 'EXPIRETIME k', 'PEXPIRETIME k', 'SET k v', 'EXPIRETIME k', 'PEXPIRETIME k'),
  diffCase('PERSIST', 'PERSIST k', 'SET k v', 'PERSIST k', 'EXPIRE k 100', 'PERSIST k', 'TTL k'),
  diffCase('EXPIRE on other types', 'HSET h f v', 'EXPIRE h 100', 'TTL h', 'RPUSH l a', 'PEXPIRE l 100000', 'TTL l', 'SADD s a', 'EXPIRE s 100', 'PERSIST s', 'TTL s'),
  diffCase('TTL after GETSET and APPEND', 'SET k v EX 1000', 'APPEND k x', 'TTL k', 'GETSET k y', 'TTL k'),
  diffCase('RENAME carries the TTL', 'SET k v EX 1000', 'RENAME k j', 'TTL j', 'EXISTS k'),
];
