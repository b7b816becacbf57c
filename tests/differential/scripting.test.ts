import { differentialSuite } from './harness';
import { SCRIPTING_CASES } from './cases/scripting';

differentialSuite('scripting', SCRIPTING_CASES);
