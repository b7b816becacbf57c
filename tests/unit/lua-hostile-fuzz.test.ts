import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { budgetedServer, expectServerUsable, type BudgetedServer } from './support/lua-budget';
import { runs } from '../support/size';

// Goal: no Lua a learner can type hangs, exhausts or crashes the engine. fast-check writes
// scripts from the pieces that caused trouble (nested and shared tables, cycles through
// metatables and upvalues, long reps, concatenation in loops, format with wide fields, patterns
// with many '.-', gsub with replacement functions, pcall/xpcall with looping handlers, the
// cjson/cmsgpack/struct libraries) and checks that every script ends with a reply (its result,
// a Lua error, or a budget error) and leaves the server answering PING with its Lua state
// intact. Budgets are small, so each script ends in milliseconds: the budget is the bound, and
// no test reads a clock. Seed pinned (fast-check prints it with any failure to replay).

const SEED = 20_260_501;

/** A Lua expression for a number, including the awkward ones (2^31, 2^32+3, 1e9, -1, 0). */
const count = fc.constantFrom('0', '1', '3', '40', '1000', '100000', '2^20', '2^31', '2^32 + 3', '1e9', '-1', '2.5');
const smallCount = fc.constantFrom('1', '2', '10', '40', '200');

/** A string expression. */
const str = fc.oneof(
  fc.constantFrom("'x'", "'ab'", "''", "'(%a+)'", "string.rep('a', 300)", 's', "'\\0\\1\\255'"),
  count.map((n) => `string.rep('xy', ${n})`),
);

/** A pattern: classes, repetitions, captures, many '.-' (backtracking), balanced and frontier items. */
const pattern = fc.oneof(
  fc.constantFrom("'.-.-.-.-b'", "'(a*)*b'", "'%b()'", "'%f[%w]%w+'", "'(.-)%1'", "'[%a-z]+'", "'^a?a?a?a?a?a?b'", "'(()'", "'%'", "'[a'"),
  fc.integer({ min: 1, max: 40 }).map((n) => `string.rep('.-', ${n}) .. 'b'`),
  fc.integer({ min: 1, max: 3000 }).map((n) => `string.rep('a?', ${n})`),
);

/** A statement that changes `t` (a table) or `s` (a string), or just spends. */
const statement = fc.oneof(
  // Tables: nesting, sharing, cycles (direct, through metatables, through upvalues).
  smallCount.map((n) => `for i = 1, ${n} do t = {t, t} end`),
  smallCount.map((n) => `for i = 1, ${n} do t = {t} end`),
  fc.constant('t[1] = t'),
  fc.constant('t.self = t'),
  fc.constant('setmetatable(t, {__index = t, __concat = function(a, b) return s end})'),
  fc.constant('local f f = function() return f, t end t.f = f'),
  count.map((n) => `for i = 1, ${n} do t[#t + 1] = s end`),
  // Strings: reps, concatenation in loops, wide format fields, doubling.
  fc.tuple(str, count).map(([x, n]) => `s = string.rep(${x}, ${n})`),
  smallCount.map((n) => `for i = 1, ${n} do s = s .. s end`),
  count.map((n) => `for i = 1, ${n} do s = s .. 'x' end`),
  fc.constant("s = string.format('%99s%-99s%s%s', s, s, s, s)"),
  fc.constant('s = table.concat({s, s, s, s}, s)'),
  // Patterns and gsub, with replacement functions that loop or grow.
  fc.tuple(str, pattern).map(([x, p]) => `pcall(string.find, ${x}, ${p})`),
  fc.tuple(str, pattern).map(([x, p]) => `s = select(2, pcall(string.gsub, ${x}, ${p}, '%0%0')) or s`),
  fc.constant("s = string.gsub(s, '.', function(c) while true do end end)"),
  fc.constant("s = string.gsub(s, '.', function(c) return s end)"),
  fc.tuple(str, pattern).map(([x, p]) => `for w in string.gmatch(${x}, ${p}) do t[#t + 1] = w end`),
  // Protected calls with handlers that loop or fail.
  fc.constant('pcall(function() while true do end end)'),
  fc.constant("xpcall(function() error('e') end, function() while true do end end)"),
  fc.constant("xpcall(function() error('e') end, function(m) error(m) end)"),
  fc.constant('local co = coroutine.wrap(function() while true do coroutine.yield(t) end end) for i = 1, 1e9 do co() end'),
  // Libraries.
  fc.constant('s = select(2, pcall(cjson.encode, t)) or s'),
  fc.constant('t = select(2, pcall(cjson.decode, s)) or t'),
  fc.constant('s = cmsgpack.pack(t, t)'),
  fc.constant('t = {pcall(cmsgpack.unpack, s)}'),
  count.map((n) => `s = select(2, pcall(struct.pack, string.rep('i', ${n}), 1)) or s`),
  count.map((n) => `pcall(unpack, t, 1, ${n})`),
  count.map((n) => `pcall(string.byte, s, 1, ${n})`),
  fc.constant('table.sort(t, function(a, b) return true end)'),
  fc.constant('local src = string.rep("local x = 1 ", 1000) for i = 1, 1e9 do loadstring(src) end'),
);

const ending = fc.constantFrom('return t', 'return s', 'return {s, t, #s}', 'return cjson.encode(t)', 'return #s', 'return redis.call("set", "k", s)');

const script = fc
  .tuple(fc.array(statement, { minLength: 1, maxLength: 4 }), ending)
  .map(([statements, last]) => `local t = {1, 'a'} local s = 'ab'\n${statements.join('\n')}\n${last}`);

describe('hostile Lua fuzzer', () => {
  it(`every generated script ends and leaves the server usable (seed ${SEED})`, () => {
    const s: BudgetedServer = budgetedServer({ workUnitsMax: 100_000, memoryBytesMax: 2 * 1024 * 1024 });
    fc.assert(
      fc.property(script, (source) => {
        const result = s.eval(source);
        expect(['status', 'bulk', 'integer', 'nil', 'array', 'error']).toContain(result.type);
        expect(result.type === 'error' ? result.value : '').not.toMatch(/SCRIPT KILL|Maximum call stack|JS stack overflow/);
        expect(s.server.execute(['PING'], 0)).toEqual({ type: 'status', value: 'PONG' });
        expect(s.eval('return 1')).toEqual({ type: 'integer', value: '1' });
      }),
      { seed: SEED, numRuns: runs(150) },
    );
    expectServerUsable(s);
  });
});
