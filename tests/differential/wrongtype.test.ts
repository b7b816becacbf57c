import { differentialSuite } from './harness';
import { WRONGTYPE_CASES } from './cases/wrongtype';

differentialSuite('wrongtype', WRONGTYPE_CASES);
