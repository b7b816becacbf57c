import { diffCase } from '../harness';

/** 64-bit integer parsing and overflow: fencing tokens and counters are INCRs. */
export const INTEGER_CASES = [
  diffCase('INCR on absent, then DECR', 'INCR k', 'INCR k', 'DECR k', 'DECR k', 'DECR k', 'GET k', 'TYPE k'),
  diffCase('INCR on a non-integer', 'SET k abc', 'INCR k', 'SET k 1.5', 'INCR k', 'SET k ""', 'INCR k', 'GET k'),
  diffCase('INCR on spaces, plus, leading zero', 'SET a " 1"', 'INCR a', 'SET b "+1"', 'INCR b', 'SET c 01', 'INCR c', 'SET d "1 "', 'INCR d', 'SET e -0', 'INCR e'),
  diffCase('INCR at the int64 limit', 'SET k 9223372036854775807', 'INCR k', 'GET k', 'SET m -9223372036854775808', 'DECR m', 'INCR m'),
  diffCase('INCR beyond int64 in the value', 'SET k 9223372036854775808', 'INCR k', 'SET m -9223372036854775809', 'DECR m'),
  diffCase('INCRBY argument parsing', 'INCRBY k " 1"', 'INCRBY k +1', 'INCRBY k 01', 'INCRBY k 1.0', 'INCRBY k abc', 'INCRBY k -0', 'INCRBY k 5', 'INCRBY k -7', 'GET k'),
  diffCase('INCRBY overflow', 'SET k 9223372036854775800', 'INCRBY k 7', 'INCRBY k 1', 'GET k', 'INCRBY k 9223372036854775807'),
  diffCase('INCRBY argument beyond int64', 'INCRBY k 9223372036854775808', 'INCRBY k -9223372036854775808', 'GET k'),
  diffCase('DECRBY', 'DECRBY k 5', 'DECRBY k -10', 'DECRBY k abc', 'GET k'),
  diffCase('DECRBY of int64 min', 'SET k 0', 'DECRBY k -9223372036854775808', 'SET j -1', 'DECRBY j -9223372036854775808', 'GET j'),
  diffCase('INCR keeps the TTL', 'SET k 1 EX 1000', 'INCR k', 'TTL k', 'INCRBY k 5', 'TTL k'),
  diffCase('INCR on a hash', 'HSET h f 1', 'INCR h', 'DECRBY h 1'),
  diffCase('INCRBYFLOAT', 'INCRBYFLOAT k 1.5', 'INCRBYFLOAT k 0.1', 'INCRBYFLOAT k -3', 'INCRBYFLOAT k 1e2', 'GET k', 'SET s abc', 'INCRBYFLOAT s 1', 'INCRBYFLOAT k abc'),
  diffCase('INCRBYFLOAT formatting', 'SET k 10', 'INCRBYFLOAT k 0', 'SET k 3.0e3', 'INCRBYFLOAT k 0', 'SET k 5.0000', 'INCRBYFLOAT k 0.5', 'INCRBYFLOAT k 1.1'),
  diffCase('INCRBYFLOAT rejects inf and nan', 'INCRBYFLOAT k inf', 'INCRBYFLOAT k nan', 'SET k 1', 'INCRBYFLOAT k " 1"', 'GET k'),
  diffCase('INCRBYFLOAT long double precision', 'INCRBYFLOAT a 0.1', 'INCRBYFLOAT a 0.2', 'INCRBYFLOAT b 12345.1', 'INCRBYFLOAT b 0.000001', 'INCRBYFLOAT c 1e20', 'INCRBYFLOAT c 1.5', 'INCRBYFLOAT d 3.141592653589793238462643', 'INCRBYFLOAT e -0.0', 'INCRBYFLOAT f 1e-20', 'INCRBYFLOAT f -1e-20', 'INCRBYFLOAT g 123456789012345678901234567890', 'INCRBYFLOAT h 0.3333333333333333333333'),
  diffCase('INCRBYFLOAT number syntax', 'INCRBYFLOAT a 0x10', 'INCRBYFLOAT a 0x1.8p1', 'INCRBYFLOAT a .5', 'INCRBYFLOAT a 5.', 'INCRBYFLOAT a +2', 'INCRBYFLOAT a 1e', 'INCRBYFLOAT a -inf', 'INCRBYFLOAT a Infinity', 'INCRBYFLOAT a 1e5000', 'INCRBYFLOAT a 1e-5000', 'INCRBYFLOAT a 1e-4940', 'INCRBYFLOAT a "1 "', 'GET a'),
  diffCase('INCRBYFLOAT huge and tiny values', 'SET a 1e300', 'INCRBYFLOAT a 1', 'SET b 1.18e4932', 'INCRBYFLOAT b 1e4932', 'SET c 5e-4951', 'INCRBYFLOAT c 0', 'INCRBYFLOAT d 99999999999999999999.5'),
  diffCase('INCR result is an integer, GET is bulk', 'INCRBY k 42', 'GET k', 'APPEND k 0', 'INCR k'),
  // Translated (in our own words) from Redis 7.0's tests/unit/type/incr.tcl.
  diffCase('INCR against a key INCR created, and one SET created', 'INCR novar', 'INCR novar', 'SET novar 100', 'INCR novar', 'GET novar'),
  diffCase('INCR and INCRBY beyond 32 bits', 'SET novar 17179869184', 'INCR novar', 'INCRBY novar 17179869184', 'DECRBY novar 17179869185', 'DECRBY novar 34359738368'),
  diffCase('INCR and INCRBYFLOAT refuse values with spaces', 'SET novar "    11"', 'INCR novar', 'SET novar "11    "', 'INCR novar', 'SET novar "    11    "', 'INCRBYFLOAT novar 1', 'SET novar "11 "', 'INCRBYFLOAT novar 1', 'GET novar'),
  diffCase('INCR, INCRBYFLOAT on a list', 'RPUSH mylist 1', 'INCR mylist', 'INCRBYFLOAT mylist 1.0', 'LRANGE mylist 0 -1'),
  diffCase('INCRBYFLOAT on new, SET and big values', 'INCRBYFLOAT novar 1', 'INCRBYFLOAT novar 0.25', 'SET novar 1.5', 'INCRBYFLOAT novar 1.5', 'SET novar 17179869184', 'INCRBYFLOAT novar 1.5', 'INCRBYFLOAT novar 17179869184', 'INCRBYFLOAT novar -1.1'),
  diffCase('INCRBYFLOAT refuses a value with a NUL byte in it', 'SET foo 1', 'SETRANGE foo 2 2', 'INCRBYFLOAT foo 1', 'GET foo', 'INCRBYFLOAT bar "1\\x00"', 'INCRBYFLOAT bar "\\x001"', 'EXISTS bar'),
  diffCase('INCRBYFLOAT never answers negative zero', 'INCRBYFLOAT foo 0.024390243902439025', 'INCRBYFLOAT foo -0.024390243902439025', 'GET foo', 'INCRBYFLOAT z -0', 'INCRBYFLOAT z 0'),
];
