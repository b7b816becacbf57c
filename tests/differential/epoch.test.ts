import { differentialSuite } from './harness';
import { EPOCH_CASES } from './cases/epoch';

differentialSuite('epoch', EPOCH_CASES);
