import type { DiffCase } from '../harness';
import { CONNECTION_CASES } from './connection';
import { EPOCH_CASES } from './epoch';
import { EXPIRY_CASES } from './expiry';
import { HASH_CASES } from './hashes';
import { INTEGER_CASES } from './integers';
import { KEY_CASES } from './keys';
import { LIST_SET_CASES } from './lists-sets';
import { PUBSUB_CASES } from './pubsub';
import { SCRIPTING_CASES } from './scripting';
import { SORTED_SET_CASES } from './sorted-sets';
import { STRING_CASES } from './strings';
import { TRANSACTION_CASES } from './transactions';
import { UNKNOWN_CASES } from './unknown';
import { WRONGTYPE_CASES } from './wrongtype';

/** Every data-driven differential case, by area (arity cases are generated in arity.test.ts). */
export const CASES_BY_AREA: Record<string, readonly DiffCase[]> = {
  strings: STRING_CASES,
  integers: INTEGER_CASES,
  expiry: EXPIRY_CASES,
  keys: KEY_CASES,
  hashes: HASH_CASES,
  'lists-sets': LIST_SET_CASES,
  'sorted-sets': SORTED_SET_CASES,
  wrongtype: WRONGTYPE_CASES,
  unknown: UNKNOWN_CASES,
  scripting: SCRIPTING_CASES,
  transactions: TRANSACTION_CASES,
  pubsub: PUBSUB_CASES,
  epoch: EPOCH_CASES,
  connection: CONNECTION_CASES,
};
