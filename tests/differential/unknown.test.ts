import { differentialSuite } from './harness';
import { UNKNOWN_CASES } from './cases/unknown';

differentialSuite('unknown', UNKNOWN_CASES);
