import { differentialSuite } from './harness';
import { TRANSACTION_CASES } from './cases/transactions';

differentialSuite('transactions', TRANSACTION_CASES);
