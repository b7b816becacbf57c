import { differentialSuite } from './harness';
import { EXPIRY_CASES } from './cases/expiry';

differentialSuite('expiry', EXPIRY_CASES);
