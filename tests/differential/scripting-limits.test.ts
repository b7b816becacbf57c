import { differentialSuite } from './harness';
import { SCRIPTING_LIMIT_CASES } from './cases/scripting-limits';

// Scripts at Redis's limits (cycles, nesting, the Lua C stack, C int arguments) and Lua 5.1's
// string functions, against the simulator's Lua engine (src/engine/redis/lua/).
differentialSuite('scripting limits', SCRIPTING_LIMIT_CASES);
