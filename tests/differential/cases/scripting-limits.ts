import { diffCase } from '../harness';

/**
 * Where scripts meet Redis's limits: self-containing and deep values in replies and in cjson and
 * cmsgpack, Lua 5.1's 8000-slot C stack (unpack, string.byte), C int arguments, lua-cjson's
 * options, and Lua 5.1's pattern matching and string order (which fengari, a Lua 5.3, does
 * differently). Several come from Redis's own test suite (tests/unit/scripting.tcl, 7.0).
 */
export const SCRIPTING_LIMIT_CASES = [
  diffCase(
    'EVAL cjson refuses cycles at the depth lua-cjson reaches',
    'EVAL "local a = {} a[1] = a return cjson.encode(a)" 0',
    'EVAL "local a = {} a.x = a return cjson.encode(a)" 0',
    'EVAL "cjson.encode_max_depth(100000) local a = {} a[1] = a return cjson.encode(a)" 0',
    'EVAL "local a = {} a.x = a return cjson.encode(a)" 0',
    'EVAL "local a = {} local b = {x = a} a[1] = b return cjson.encode(a)" 0',
  ),
  diffCase(
    'EVAL cjson.decode of deeply nested documents',
    'EVAL "return {pcall(cjson.decode, string.rep(\'[\', 5000))}" 0',
    'EVAL "cjson.decode_max_depth(100000) return {pcall(cjson.decode, string.rep(\'[\', 10000))}" 0',
    'EVAL "return {pcall(cjson.decode, string.rep(\'{\\"a\\":\', 5000))}" 0',
    'EVAL "return {pcall(cjson.decode, \'\\\\0[\')}" 0',
  ),
  diffCase(
    'EVAL cjson.encode_invalid_numbers, until SCRIPT FLUSH',
    'EVAL "return {pcall(cjson.encode, {0/0})}" 0',
    'EVAL "return cjson.encode_invalid_numbers(true)" 0',
    'EVAL "return cjson.encode({0/0, -(0/0), 1/0, -1/0, 1.5, {a = 1/0}})" 0',
    'EVAL "return cjson.encode_invalid_numbers(\'null\')" 0',
    'EVAL "return cjson.encode({0/0, 1/0, [1/0] = 2})" 0',
    'EVAL "return {cjson.encode_invalid_numbers()}" 0',
    'EVAL "return cjson.encode_invalid_numbers(\'x\')" 0',
    'SCRIPT FLUSH',
    'EVAL "return {pcall(cjson.encode, {1/0})}" 0',
  ),
  diffCase(
    'EVAL cjson option checks',
    'EVAL "return {pcall(cjson.encode_max_depth, 0)}" 0',
    'EVAL "return {cjson.encode_max_depth(1.5)}" 0',
    'EVAL "return {pcall(cjson.encode_number_precision, 15)}" 0',
    'EVAL "return {pcall(cjson.encode_sparse_array, nil, -1)}" 0',
    'EVAL "return {pcall(cjson.encode_sparse_array, 1, 2, 3, 4)}" 0',
    'EVAL "return {cjson.encode_keep_buffer(\'on\'), cjson.decode_invalid_numbers(false)}" 0',
    'EVAL "return {pcall(cjson.decode, \'[0x10]\')}" 0',
    'EVAL "return {pcall(cjson.decode, \'[+1]\')}" 0',
  ),
  diffCase(
    'EVAL cmsgpack packs a cycle 16 levels deep (scripting.tcl: circular references)',
    'EVAL "local a = {x = nil, y = 5} local b = {x = a} a[\'x\'] = b local e = cmsgpack.pack(a) local h = \'\' for i = 1, #e do h = h .. string.format(\'%02x\', string.byte(e, i)) end local re = cmsgpack.unpack(e) return {h, re.x.x.x.x.x.x.x.x.y == re.y, re.y == 5}" 0',
  ),
  diffCase(
    'EVAL Lua 5.1 gives a C function 8000 stack slots (scripting.tcl: unpack with massive arguments)',
    'EVAL "local a = {} for i = 1, 7999 do a[i] = 1 end return redis.call(\'lpush\', \'l\', unpack(a))" 0',
    'EVAL "local a = {} for i = 1, 8000 do a[i] = 1 end return {pcall(unpack, a)}" 0',
    'EVAL "return {pcall(unpack, {}, 1, 7999)}" 0',
    'EVAL "return {pcall(string.byte, string.rep(\'x\', 8000), 1, -1)}" 0',
    'EVAL "return select(\'#\', string.byte(string.rep(\'x\', 7997), 1, -1))" 0',
    'EVAL "return {pcall(unpack, {}, 1, 1e10)}" 0',
  ),
  diffCase(
    'EVAL C int arguments wrap as the cast does',
    'EVAL "return #string.rep(\'x\', 2^32 + 3)" 0',
    'EVAL "return #string.rep(\'x\', 2^31)" 0',
    'EVAL "return #string.rep(\'x\', -2^32 + 3)" 0',
    'EVAL "return table.concat({1, 2, 3}, \',\', 2, 2^32 + 3)" 0',
    'EVAL "return {string.gsub(\'aaa\', \'a\', \'b\', 2^32 + 1)}" 0',
  ),
  diffCase(
    'EVAL Lua 5.1 patterns (fengari ships 5.3\'s)',
    'EVAL "return (string.gsub(\'hello world\', \'%w*\', \'-\'))" 0',
    'EVAL "return {string.gsub(\'abc\', \'b*\', \'-\')}" 0',
    'EVAL "local t = {} for w in string.gmatch(\'hello world\', \'%a*\') do t[#t + 1] = w end return t" 0',
    'EVAL "return {string.find(\'abc\', \'%g\'), string.find(\'agc\', \'%g\')}" 0',
    'EVAL "return {string.find(\'abc\', \'\', 10)}" 0',
    'EVAL "return {pcall(string.gsub, \'abc\', \'a\', \'%2\')}" 0',
    'EVAL "return {string.gsub(\'abc\', \'b\', \'%x\')}" 0',
    'EVAL "return {pcall(string.find, \'x\', \'%b\')}" 0',
    'EVAL "return {pcall(string.find, \'x\', \'[a\')}" 0',
    'EVAL "return {pcall(string.find, \'x\', \'(()\')}" 0',
    'EVAL "return {pcall(string.find, string.rep(\'a\', 300), string.rep(\'a?\', 300))}" 0',
    'EVAL "return {string.find(\'a(b)c\', \'%b()\'), string.match(\'THE (quick) fox\', \'%f[%a]%a+\'), string.match(\'key = value\', \'(%w+)%s*=%s*(%w+)\')}" 0',
    'EVAL "return {string.find(\'a.b\', \'.\', 1, true), string.find(\'a+b\', \'+\'), string.match(\'  x\', \'()x\')}" 0',
    'EVAL "return {string.gsub(\'hello\', \'(l)(l)\', \'%2%1%0\'), string.gsub(\'abc\', \'%w\', {a = 1, b = true}), string.gsub(\'abc\', \'%w\', function(c) if c == \'b\' then return false end return c .. c end)}" 0',
  ),
  diffCase(
    'EVAL strings compare and key tables by their bytes',
    'EVAL "return {\'\\\\15\' < \'\\\\16\', \'a\\\\255\' < \'a\\\\128\', \'\\\\1\' < \'\\\\10\', \'b\' < \'ab\', \'\' < \'a\'}" 0',
    'EVAL "local t = {} t[\'\\\\1\\\\1\'] = 1 return {t[\'\\\\17\'], t[\'\\\\1\\\\1\']}" 0',
  ),
  diffCase(
    'EVAL table.concat and table.sort as in Lua 5.1',
    'EVAL "return {pcall(table.concat, {1, 2, {}})}" 0',
    'EVAL "return {pcall(table.concat, nil, {})}" 0',
    'EVAL "return {pcall(table.concat, {1, 2, 3}, \',\', 2, 5)}" 0',
    'EVAL "local t = {3, 1, 2, 5, 4, 1, 2, 3} table.sort(t) return t" 0',
    'EVAL "local t = {} for i = 1, 200 do t[i] = (i * 37) % 17 end table.sort(t, function(a, b) return a <= b end) return t" 0',
    'EVAL "return {pcall(table.sort, {3, \'a\', 1})}" 0',
  ),
];
