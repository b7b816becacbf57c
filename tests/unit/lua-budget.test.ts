import { describe, expect, it } from 'vitest';
import { defaultScriptLimits } from '../../src/engine/redis/lua/budget';
import { sha1Hex } from '../../src/engine/redis/lua/sha1';
import { reply } from '../../src/engine/redis/reply';
import { budgetedServer, expectBudgetError, expectServerUsable } from './support/lua-budget';

// Goal: every expensive thing a script can make the engine do is charged to one work budget and
// one memory budget (src/engine/redis/lua/budget.ts), so each hostile class below ends with a
// budget error (never a hang, an out-of-memory crash, a JS stack overflow, or a claim that
// someone sent SCRIPT KILL), and the server stays usable. Budgets are small here so each case
// ends in milliseconds; the budget error is the proof of bounded-ness, no test reads a clock.

describe('the work budget', () => {
  it('stops an endless loop with an error that says which budget ran out, where', () => {
    const s = budgetedServer();
    const script = 'local i = 0 while true do i = i + 1 end';
    expect(s.eval(script)).toEqual(
      reply.error(
        `ERR Script exceeded Lockstep's work budget (300000 units: Lua instructions and the work done on its behalf) script: ${sha1Hex(script)}, on @user_script:1.`,
      ),
    );
    const report = s.engine.lastRun();
    expect(report?.killed).toBe(true);
    expect(report?.workUnits).toBeGreaterThan(300_000);
    expect(report?.instructionCount).toBeGreaterThan(250_000);
    expectServerUsable(s);
  });

  it('cannot be swallowed by pcall inside the script', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval('while true do pcall(function() while true do end end) end'), 'work');
    expectBudgetError(s.eval("local n = 0 while true do n = n + 1 pcall(string.rep, 'x', 2^30) end"));
    expectServerUsable(s);
  });

  it('stops an xpcall whose message handler loops (fengari had turned hooks off inside it)', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("return xpcall(function() error('x') end, function() while true do end end)"), 'work');
    expectBudgetError(s.eval("return xpcall(function() while true do end end, function(e) while true do end end)"), 'work');
    expectServerUsable(s);
  });

  it('stops loops inside coroutines', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval('local co = coroutine.wrap(function() while true do end end) co()'), 'work');
    expectBudgetError(s.eval('local co = coroutine.create(function() while true do end end) coroutine.resume(co) while true do end'), 'work');
    expectServerUsable(s);
  });

  it('charges pattern backtracking step by step', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("return string.find(string.rep('a', 300), '.-.-.-.-b')"), 'work');
    expectBudgetError(s.eval("return string.match(string.rep('a', 300), string.rep('a*', 30) .. 'b')"), 'work');
    expectBudgetError(s.eval("return string.gsub(string.rep('a', 300), '.-.-.-b', 'x')"), 'work');
    expectServerUsable(s);
  });

  it('charges what gsub replacement functions and gmatch loops do', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("return string.gsub(string.rep('a', 1000), 'a', function() while true do end end)"), 'work');
    expectBudgetError(s.eval("local n = 0 while true do for w in string.gmatch(string.rep('ab ', 100), '%a+') do n = n + 1 end end"), 'work');
    expectServerUsable(s);
  });

  it('charges comparing long strings, which fengari does byte by byte', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("local a, b = string.rep('a', 100000), string.rep('a', 100000) local n = 0 while true do if a == b then n = n + 1 end end"), 'work');
    expectBudgetError(s.eval("local a, b = string.rep('a', 100000), string.rep('a', 99999) .. 'b' local n = 0 while true do if a < b then n = n + 1 end end"), 'work');
    expectServerUsable(s);
  });

  it('charges redis.call by what it moves: arguments, replies, and keyspace walks', () => {
    const s = budgetedServer({ workUnitsMax: 300_000, memoryBytesMax: 64 * 1024 * 1024 });
    s.server.execute(['SET', 'big', 'x'.repeat(1_000_000)], 0);
    expectBudgetError(s.eval("local n = 0 while true do n = n + #redis.call('get', 'big') end"), 'work');
    for (let i = 0; i < 2000; i++) s.server.execute(['SET', `key:${i}`, 'v'], 0);
    // Each KEYS walks 2000 keys and finds none: priced by the keyspace, not by its empty reply.
    const keys = s.eval("local n = 0 for i = 1, 1000 do n = n + #redis.call('keys', 'nomatch*') end return n");
    expectBudgetError(keys, 'work');
    expectServerUsable(s);
  });

  it('charges compiling: loadstring of a large chunk in a loop', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("local src = 'return ' .. string.rep('1 + ', 20000) .. '1' while true do loadstring(src) end"), 'work');
    expectServerUsable(s);
  });

  it('sorts deterministically with 5.1 quicksort, every comparison charged', () => {
    const s = budgetedServer({ workUnitsMax: 300_000, memoryBytesMax: 64 * 1024 * 1024 });
    // About 40,000 table writes to fill it, then 600,000 comparisons to sort it.
    expectBudgetError(s.eval('local t = {} for i = 1, 20000 do t[i] = (i * 7919) % 20011 end table.sort(t) return t[1]'), 'work');
    const sorted = s.eval('local t = {} for i = 1, 200 do t[i] = (i * 37) % 17 end table.sort(t, function(a, b) return a <= b end) return t');
    expect(s.eval('local t = {} for i = 1, 200 do t[i] = (i * 37) % 17 end table.sort(t, function(a, b) return a <= b end) return t')).toEqual(sorted);
    expectServerUsable(s);
  });
});

describe('values that share or contain themselves', () => {
  // t = {t, t} forty times: 41 tables, but 2^40 values when walked as a tree.
  const SHARED = 'local t = {} for i = 1, 40 do t = {t, t} end';

  it('a returned table that shares sub-tables ends while its reply is converted', () => {
    const s = budgetedServer();
    const result = s.eval(`${SHARED} return t`);
    expectBudgetError(result);
    expect(result.type === 'error' && result.value.endsWith("(while converting the script's return value)")).toBe(true);
    expectServerUsable(s);
  });

  it('cjson.encode and cmsgpack.pack of shared sub-tables end by the budget', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval(`${SHARED} return cjson.encode(t)`));
    expectBudgetError(s.eval('local t = {} for i = 1, 40 do t = {t, t, t, t} end return cmsgpack.pack(t)'));
    expectServerUsable(s);
  });

  it('a table that contains itself answers Redis 7.0.15\'s stack error, 1000 levels deep (Redis: 7995)', () => {
    const s = budgetedServer({ workUnitsMax: 1_000_000 });
    let r = s.eval('local a = {} a[1] = a return a');
    let depth = 0;
    // Bounded by the reply's depth.
    while (r.type === 'array' && r.value.length === 1) {
      depth++;
      r = r.value[0];
    }
    expect(depth).toBe(1000);
    expect(r).toEqual(reply.error('ERR reached lua stack limit'));
    expectServerUsable(s);
  });

  it('cjson refuses cycles with its own error, at the depth the real library reaches', () => {
    const s = budgetedServer({ workUnitsMax: 1_000_000 });
    expect(s.eval('local a = {} a[1] = a return {pcall(cjson.encode, a)}')).toEqual(
      reply.array([reply.nil(), reply.bulk('Cannot serialise, excessive nesting (1001)')]),
    );
    // With no depth limit of its own, the Lua C stack (8000 slots) stops it: 1 slot per array level, 2 per object level.
    expect(s.eval('cjson.encode_max_depth(2147483647) local a = {} a[1] = a return {pcall(cjson.encode, a)}')).toEqual(
      reply.array([reply.nil(), reply.bulk('Cannot serialise, excessive nesting (7998)')]),
    );
    expect(s.eval('local a = {} a.x = a return {pcall(cjson.encode, a)}')).toEqual(
      reply.array([reply.nil(), reply.bulk('Cannot serialise, excessive nesting (4000)')]),
    );
    expectServerUsable(s);
  });

  it('cmsgpack packs a cycle 16 levels deep, as lua-cmsgpack does', () => {
    const s = budgetedServer();
    expect(s.eval('local a = {} a[1] = a local p = cmsgpack.pack(a) return #p')).toEqual(reply.integer(17));
  });
});

describe('the memory budget', () => {
  it('refuses a string bigger than the budget before building it', () => {
    const s = budgetedServer({ workUnitsMax: 20_000_000, memoryBytesMax: 4 * 1024 * 1024 });
    expectBudgetError(s.eval("return #string.rep('x', 2^30)"), 'memory');
    expectBudgetError(s.eval("local s = string.rep('x', 1048576) local t = {} for i = 1, 2500 do t[i] = s end return #table.concat(t)"), 'memory');
    expectBudgetError(s.eval("local s = string.rep('x', 1048576) return #string.format(string.rep('%s', 40), " + Array(40).fill('s').join(', ') + ')'), 'memory');
    expectBudgetError(s.eval("local s = string.rep('x', 1048576) return #(s .. s .. s .. s .. s .. s)"), 'memory');
    expectBudgetError(s.eval("local s = string.rep('x', 5000) return #s:gsub('.', s)"), 'memory');
    expectServerUsable(s);
  });

  it('stops doubling strings by any route', () => {
    const s = budgetedServer();
    expectBudgetError(s.eval("local s = 'x' while true do s = s .. s end"));
    expectBudgetError(s.eval("local s = 'x' while true do s = string.format('%s%s', s, s) end"));
    expectBudgetError(s.eval("local s = 'xy' while true do s = s:gsub('.', '%0%0') end"));
    expectBudgetError(s.eval("local s = 'x' while true do s = string.rep(s, 2) end"));
    expectBudgetError(s.eval("local s = 'x' while true do s = table.concat({s, s}) end"));
    expectServerUsable(s);
  });

  it('stops scripts that keep what they build: table slots, strings, tables, coroutines', () => {
    const s = budgetedServer({ workUnitsMax: 5_000_000, memoryBytesMax: 4 * 1024 * 1024 });
    expectBudgetError(s.eval('local t = {} local i = 0 while true do i = i + 1 t[i] = i end'), 'memory');
    expectBudgetError(s.eval("local t = {} for i = 1, 1e6 do t[i] = string.rep('x', 1000) end"), 'memory');
    expectBudgetError(s.eval('local t = {} for i = 1, 1e6 do t[i] = {} end'), 'memory');
    expectBudgetError(s.eval('local t = {} for i = 1, 1e6 do t[i] = coroutine.create(function() end) end'), 'memory');
    expectServerUsable(s);
  });

  it('counts what is alive, not what was ever made: garbage does not use it up', () => {
    const s = budgetedServer({ workUnitsMax: 20_000_000, memoryBytesMax: 4 * 1024 * 1024 });
    // About 40 MB of short-lived strings, never more than a few kB alive.
    expect(s.eval("local n = 0 for i = 1, 20000 do local x = string.rep('y', 2000) n = n + #x end return n")).toEqual(reply.integer(40_000_000));
    expectServerUsable(s);
  });

  it('bounds the reply being built, not only Lua memory', () => {
    const s = budgetedServer({ workUnitsMax: 5_000_000, memoryBytesMax: 4 * 1024 * 1024 });
    expectBudgetError(s.eval("local s = string.rep('x', 100000) local t = {} for i = 1, 100 do t[i] = s end return t"), 'memory');
    expectServerUsable(s);
  });
});

describe('no JS stack overflow from a script', () => {
  it('struct.pack and struct.unpack take a 200 kB format', () => {
    const s = budgetedServer({ workUnitsMax: 2_000_000 });
    expect(s.eval("return #struct.pack('c200000', string.rep('x', 200000))")).toEqual(reply.integer(200_000));
    expect(s.eval("return #struct.pack(string.rep('b', 100000), unpack((function() local t = {} for i = 1, 7000 do t[i] = 1 end return t end)()))")).toMatchObject({ type: 'error' });
    expect(s.eval("return struct.size(string.rep('i', 50000))")).toEqual(reply.integer(200_000));
    expectServerUsable(s);
  });

  it('deep cjson documents answer lua-cjson\'s nesting error', () => {
    const s = budgetedServer({ workUnitsMax: 1_000_000 });
    expect(s.eval("return {pcall(cjson.decode, string.rep('[', 100000))}")).toEqual(
      reply.array([reply.nil(), reply.bulk('Found too many nested data structures (1001) at character 1001')]),
    );
    expect(s.eval("cjson.decode_max_depth(2147483647) return {pcall(cjson.decode, string.rep('[', 100000))}")).toEqual(
      reply.array([reply.nil(), reply.bulk('Found too many nested data structures (7999) at character 7999')]),
    );
  });

  it('a pattern deeper than the JS stack allows says it is too complex', () => {
    const s = budgetedServer({ workUnitsMax: 2_000_000 });
    expect(s.eval("return {pcall(string.find, string.rep('a', 300), string.rep('a?', 300))}")).toEqual(
      reply.array([reply.integer(1), reply.integer(1), reply.integer(300)]),
    );
    expect(s.eval("return {pcall(string.find, string.rep('a', 5000), string.rep('a?', 5000))}")).toEqual(
      reply.array([reply.nil(), reply.bulk('pattern too complex')]),
    );
  });
});

describe('the default budget lets through what Redis finishes quickly', () => {
  it('packs and unpacks 100,000-entry tables with cmsgpack in one script (Redis: about 0.1 s)', () => {
    const s = budgetedServer(defaultScriptLimits);
    const script = `local array_big = {} for i = 1, 100000 do array_big[i] = i end
local map_big = {} for i = 1, 100000 do map_big[tostring(i)] = i end
local decoded = cmsgpack.unpack(cmsgpack.pack({ab = array_big, mb = map_big, s = string.rep('x', 100000)}))
local n = 0 for _ in pairs(decoded.mb) do n = n + 1 end
return {#decoded.ab, n, #decoded.s}`;
    expect(s.eval(script)).toEqual(reply.array([reply.integer(100_000), reply.integer(100_000), reply.integer(100_000)]));
    expect(s.engine.lastRun()?.killed).toBe(false);
  });

  it('reports the same work for the same script every time', () => {
    const s = budgetedServer(defaultScriptLimits);
    const script = "local t = {} for i = 1, 2000 do t[i] = tostring(i) end return #cjson.encode(t) + #table.concat(t)";
    s.eval(script);
    const first = s.engine.lastRun()?.workUnits;
    s.eval(script);
    expect(s.engine.lastRun()?.workUnits).toBe(first);
  });
});
