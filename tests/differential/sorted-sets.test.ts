import { differentialSuite } from './harness';
import { SORTED_SET_CASES } from './cases/sorted-sets';

differentialSuite('sorted-sets', SORTED_SET_CASES);
