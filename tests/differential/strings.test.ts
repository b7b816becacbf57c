import { differentialSuite } from './harness';
import { STRING_CASES } from './cases/strings';

differentialSuite('strings', STRING_CASES);
