import { differentialSuite } from './harness';
import { INTEGER_CASES } from './cases/integers';

differentialSuite('integers', INTEGER_CASES);
