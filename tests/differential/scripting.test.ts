import { differentialSuite } from './harness';
import { SCRIPTING_CASES } from './cases/scripting';

// EVAL/EVALSHA/SCRIPT against the simulator's Lua engine (src/engine/redis/lua/, A1's): reply
// conversions, error texts and the lock scripts. A failure here is reported to the engine's owner.
differentialSuite('scripting', SCRIPTING_CASES);
