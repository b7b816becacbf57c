import { differentialSuite } from './harness';
import { LIST_SET_CASES } from './cases/lists-sets';

differentialSuite('lists-sets', LIST_SET_CASES);
