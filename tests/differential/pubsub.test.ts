import { differentialSuite } from './harness';
import { PUBSUB_CASES } from './cases/pubsub';

differentialSuite('pubsub', PUBSUB_CASES);
