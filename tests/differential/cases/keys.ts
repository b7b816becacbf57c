import { diffCase, sorted } from '../harness';

/** Generic key commands and the few server commands a learner types. */
export const KEY_CASES = [
  diffCase('DEL multi-key counts deleted keys', 'MSET a 1 b 2 c 3', 'DEL a b missing', 'DEL a', 'EXISTS a b c', 'DEL c c'),
  diffCase('UNLINK', 'MSET a 1 b 2', 'HSET h f v', 'UNLINK a h missing', 'EXISTS a b h'),
  diffCase('EXISTS counts duplicates', 'SET a 1', 'EXISTS a a a', 'EXISTS a b', 'EXISTS b'),
  diffCase('TYPE of every type', 'SET s v', 'HSET h f v', 'RPUSH l a', 'SADD t a', 'TYPE s', 'TYPE h', 'TYPE l', 'TYPE t', 'TYPE none'),
  diffCase('RENAME', 'SET a 1', 'RENAME a b', 'GET b', 'EXISTS a', 'RENAME missing c', 'SET c 3', 'RENAME b c', 'GET c', 'RENAME c c', 'GET c'),
  diffCase('RENAME over another type and with a TTL on the target', 'HSET h f v', 'SET s v EX 1000', 'RENAME h s', 'TYPE s', 'TTL s', 'HGET s f'),
  diffCase('RENAMENX', 'SET a 1', 'SET b 2', 'RENAMENX a b', 'RENAMENX a c', 'GET c', 'RENAMENX missing d', 'RENAMENX c c'),
  diffCase('KEYS patterns', 'MSET lock:a 1 lock:b 2 other 3 "l[x" 4', sorted('KEYS *'), sorted('KEYS lock:*'), sorted('KEYS lock:?'), sorted('KEYS lock:[ab]'), sorted('KEYS lock:[^a]'), sorted('KEYS l\\[*'), sorted('KEYS nothing*'), sorted('KEYS [a-o]*')),
  diffCase('KEYS escapes and ranges', 'MSET a*b 1 axb 2 a?b 3 b 4 "a\\\\b" 5', sorted('KEYS a\\*b'), sorted('KEYS a\\?b'), sorted('KEYS a?b'), sorted('KEYS [z-a]'), sorted('KEYS a[\\\\]b'), sorted('KEYS [!a]')),
  diffCase('KEYS on integer-like names', 'MSET 2 a 10 b 1 c', sorted('KEYS *'), sorted('KEYS 1*')),
  diffCase('KEYS on multibyte names matches bytes', 'MSET é 1 a 2 ab 3', sorted('KEYS ?'), sorted('KEYS ??'), sorted('KEYS é*'), sorted('KEYS [é]'), sorted('KEYS "\\xc3*"')),
  diffCase('KEYS with the empty key', 'SET "" 1', 'SET a 2', sorted('KEYS *'), sorted('KEYS **'), sorted('KEYS ""'), sorted('KEYS ?')),
  diffCase('FLUSHALL keeps the script cache', 'SCRIPT LOAD "return 42"', 'SET k v', 'FLUSHALL', 'SCRIPT EXISTS 1fa00e76656cc152ad327c13fe365858fd7be306', 'EXISTS k'),
  diffCase('RENAME a key onto itself keeps its TTL', 'SET k v EX 1000', 'RENAME k k', 'TTL k', 'RENAMENX k k', 'TTL k'),
  diffCase('DBSIZE and FLUSHALL', 'DBSIZE', 'MSET a 1 b 2', 'HSET h f v', 'DBSIZE', 'FLUSHALL', 'DBSIZE', 'MSET a 1', 'FLUSHDB', 'DBSIZE'),
  diffCase('FLUSHALL options', 'SET a 1', 'FLUSHALL SYNC', 'SET a 1', 'FLUSHALL ASYNC', 'FLUSHALL FOO', 'FLUSHDB sync', 'FLUSHALL SYNC ASYNC', 'EXISTS a'),
  diffCase('PING and ECHO', 'PING', 'PING hello', 'PING a b', 'ECHO hi', 'ECHO ""', 'ECHO a b'),
  diffCase('PING is status, PING msg is bulk', 'PING', 'PING PONG'),
  diffCase('command names are case-insensitive', 'set k v', 'Get k', 'gEtDeL k', 'exists k'),
];
