import { differentialSuite } from './harness';
import { KEY_CASES } from './cases/keys';

differentialSuite('keys', KEY_CASES);
