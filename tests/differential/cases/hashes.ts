import { diffCase, near } from '../harness';

/** Hashes: reentrant locks and lock metadata are hashes (HINCRBY owner count, HEXISTS owner). */
export const HASH_CASES = [
  diffCase('HSET counts new fields, HGET', 'HSET h a 1 b 2', 'HSET h a 3 c 4', 'HGET h a', 'HGET h missing', 'HGET missing a', 'HLEN h'),
  diffCase('HSET odd field-value count', 'HSET h a', 'HSET h a 1 b', 'EXISTS h'),
  diffCase('HMSET is status OK', 'HMSET h a 1 b 2', 'HMSET h a', 'HGETALL h'),
  diffCase('HGETALL keeps insertion order (small hash)', 'HSET h b 1 a 2 10 3 1 4', 'HGETALL h', 'HKEYS h', 'HVALS h'),
  diffCase('HGETALL after delete and re-add', 'HSET h a 1 b 2 c 3', 'HDEL h a', 'HSET h a 9', 'HSET h b 8', 'HGETALL h'),
  diffCase('HGETALL on absent key', 'HGETALL h', 'HKEYS h', 'HVALS h', 'HLEN h'),
  diffCase('HMGET', 'HSET h a 1 b 2', 'HMGET h a missing b', 'HMGET missing a b', 'SET s v', 'HMGET s a'),
  diffCase('HDEL counts, deletes the key when empty', 'HSET h a 1 b 2', 'HDEL h a a missing', 'HDEL h b', 'EXISTS h', 'HDEL h b'),
  diffCase('HEXISTS', 'HSET h owner tok', 'HEXISTS h owner', 'HEXISTS h other', 'HEXISTS missing owner'),
  diffCase('HINCRBY (reentrant lock count)', 'HINCRBY h tok 1', 'HINCRBY h tok 1', 'HINCRBY h tok -2', 'HGET h tok', 'HLEN h'),
  diffCase('HINCRBY errors', 'HSET h s abc', 'HINCRBY h s 1', 'HINCRBY h n abc', 'HINCRBY h n " 1"', 'HSET h big 9223372036854775807', 'HINCRBY h big 1', 'HINCRBY h n 9223372036854775808', 'HGETALL h'),
  diffCase('HINCRBY value with leading zero or plus', 'HSET h a 01 b +1 c -0', 'HINCRBY h a 1', 'HINCRBY h b 1', 'HINCRBY h c 1'),
  diffCase('HINCRBYFLOAT', 'HINCRBYFLOAT h f 1.5', 'HINCRBYFLOAT h f 0.25', 'HINCRBYFLOAT h f abc', 'HSET h s x', 'HINCRBYFLOAT h s 1', 'HGET h f'),
  diffCase('HINCRBYFLOAT inf, nan and precision', 'HINCRBYFLOAT h f inf', 'HINCRBYFLOAT h f nan', 'HINCRBYFLOAT h f 0.1', 'HINCRBYFLOAT h f 0.2', 'HSET h big 1e4932', 'HINCRBYFLOAT h big 1e4932', 'HGETALL h'),
  diffCase('HSETNX', 'HSETNX h f v', 'HSETNX h f w', 'HGET h f', 'SET s v', 'HSETNX s f v'),
  diffCase('HSTRLEN', 'HSET h f "héllo"', 'HSTRLEN h f', 'HSTRLEN h g', 'HSTRLEN missing f'),
  diffCase('hash with a TTL (lock with metadata)', 'HSET lock owner a count 1', 'PEXPIRE lock 100000', near('PTTL lock'), 'HINCRBY lock count 1', near('PTTL lock'), 'HDEL lock owner count', 'PTTL lock'),
  diffCase('HSET repeated field in one call', 'HSET h a 1 a 2', 'HGETALL h', 'HLEN h', 'HMSET h b 1 b 2', 'HGET h b'),
  diffCase('hash with empty field and value', 'HSET h "" ""', 'HGET h ""', 'HEXISTS h ""', 'HSTRLEN h ""', 'HGETALL h'),
  diffCase('hash field named __proto__', 'HSET h __proto__ v constructor w', 'HGET h __proto__', 'HGETALL h', 'HEXISTS h toString', 'HLEN h'),
];
