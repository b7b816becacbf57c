import { differentialSuite } from './harness';
import { CONNECTION_CASES } from './cases/connection';

differentialSuite('connection', CONNECTION_CASES);
