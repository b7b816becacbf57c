import { differentialSuite } from './harness';
import { HASH_CASES } from './cases/hashes';

differentialSuite('hashes', HASH_CASES);
