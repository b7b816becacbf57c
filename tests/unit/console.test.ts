import { describe, expect, it } from 'vitest';
import { ConsoleSession, formatCli, fromJsonReply, splitArgs, toJsonReply } from '../../src/engine/redis/console';
import type { Reply } from '../../src/engine/redis/reply';
import { SimRedisServer } from '../../src/engine/redis/server';

const bulk = (value: string): Reply => ({ type: 'bulk', value });
const int = (value: string): Reply => ({ type: 'integer', value });

describe('splitArgs follows redis-cli (sdssplitargs)', () => {
  const ok = (line: string) => {
    const result = splitArgs(line);
    if (!result.ok) throw new Error(result.error);
    return result.argv;
  };
  it('splits on whitespace and keeps quoted spaces', () => {
    expect(ok('  SET   k  "a b"  ')).toEqual(['SET', 'k', 'a b']);
    expect(ok('')).toEqual([]);
    expect(ok(' \t ')).toEqual([]);
    expect(ok('GET ""')).toEqual(['GET', '']);
  });
  it('decodes double-quote escapes, including \\xHH bytes', () => {
    expect(ok('"a\\x41\\n\\t\\"\\\\"')).toEqual(['aA\n\t"\\']);
    expect(ok('"\\xzz"')).toEqual(['xzz']);
    expect(ok('"\\xff"')).toEqual(['\udcff']);
    expect(ok('"\\xc3\\xa9"')).toEqual(['é']);
  });
  it('keeps single quotes literal except \\\'', () => {
    expect(ok("'a\\nb'")).toEqual(['a\\nb']);
    expect(ok("'it\\'s'")).toEqual(["it's"]);
  });
  it('lets a quote open inside a bare word', () => {
    expect(ok('a"b c"')).toEqual(['ab c']);
  });
  it('refuses unbalanced quotes and a closing quote followed by a non-space', () => {
    expect(splitArgs('"abc').ok).toBe(false);
    expect(splitArgs("'abc").ok).toBe(false);
    expect(splitArgs('"abc"def').ok).toBe(false);
    expect(splitArgs('"abc\\').ok).toBe(false);
  });
});

describe('formatCli renders like redis-cli', () => {
  it('renders each reply type', () => {
    expect(formatCli({ type: 'status', value: 'OK' })).toBe('OK');
    expect(formatCli(bulk('v'))).toBe('"v"');
    expect(formatCli(int('-3'))).toBe('(integer) -3');
    expect(formatCli({ type: 'nil' })).toBe('(nil)');
    expect(formatCli({ type: 'error', value: 'ERR syntax error' })).toBe('(error) ERR syntax error');
    expect(formatCli({ type: 'array', value: [] })).toBe('(empty array)');
  });
  it('escapes bytes as sdscatrepr does', () => {
    expect(formatCli(bulk('a"\\\n\r\t\x07\b\x00\udcffé'))).toBe('"a\\"\\\\\\n\\r\\t\\a\\b\\x00\\xff\\xc3\\xa9"');
  });
  it('numbers nested arrays with growing indentation', () => {
    const nested: Reply = { type: 'array', value: [{ type: 'array', value: [bulk('a'), bulk('b')] }, int('3')] };
    expect(formatCli(nested)).toBe('1) 1) "a"\n   2) "b"\n2) (integer) 3');
  });
  it('right-aligns indexes when there are ten or more', () => {
    const lines = formatCli({ type: 'array', value: Array.from({ length: 10 }, (_, i) => int(String(i))) }).split('\n');
    expect(lines[0]).toBe(' 1) (integer) 0');
    expect(lines[9]).toBe('10) (integer) 9');
  });
});

describe('JSON replies', () => {
  it('encode every type, integers as strings and non-UTF-8 bulk as hex', () => {
    const r: Reply = { type: 'array', value: [bulk('ok'), bulk('a\udcff'), { type: 'nil' }, int('9223372036854775807'), { type: 'status', value: 'OK' }] };
    const json = toJsonReply(r);
    expect(json).toEqual({
      type: 'array',
      value: [
        { type: 'bulk', value: 'ok' },
        { type: 'bulk', hex: '61ff' },
        { type: 'null', value: null },
        { type: 'integer', value: '9223372036854775807' },
        { type: 'status', value: 'OK' },
      ],
    });
    expect(fromJsonReply(JSON.parse(JSON.stringify(json)))).toEqual(r);
  });
});

describe('ConsoleSession', () => {
  const session = () => new ConsoleSession({ server: new SimRedisServer(), startMs: 0 });

  it('runs commands at virtual time and moves time only on .advance', () => {
    const c = session();
    expect(c.runLine('SET lock:a tok NX PX 5000').text).toBe('OK');
    expect(c.runLine('.advance 5000').text).toBe('virtual time: 5000 ms (+5000 ms)');
    expect(c.runLine('PTTL lock:a').text).toBe('(integer) 0');
    c.runLine('.advance 1');
    expect(c.runLine('GET lock:a').text).toBe('(nil)');
    expect(c.runLine('.time').text).toBe('virtual time: 5001 ms');
    expect(c.nowMs).toBe(5001);
  });

  it('answers bad directives and bad quoting with errors and goes on', () => {
    const c = session();
    expect(c.runLine('.advance -5').text).toMatch(/^\(error\) ERR \.advance takes/);
    expect(c.runLine('.advance 1.5').text).toMatch(/^\(error\) ERR/);
    expect(c.runLine('.advance').text).toBe('(error) ERR usage: .advance <ms>');
    expect(c.runLine('.nope').text).toBe("(error) ERR unknown directive '.nope' (try .help)");
    expect(c.runLine('SET "a b').text).toMatch(/^\(error\) ERR Invalid argument\(s\)/);
    expect(c.nowMs).toBe(0);
    expect(c.runLine('PING').text).toBe('PONG');
  });

  it('lists keys with type, TTL and value', () => {
    const c = session();
    expect(c.runLine('.keys').text).toBe('(no keys)');
    c.runLine('SET lock tok PX 3000');
    c.runLine('HSET meta owner a');
    c.runLine('.advance 1000');
    expect(c.runLine('.keys').text).toBe('"lock"  string  pttl 2000 ms  "tok"\n"meta"  hash  no expiry  ["owner" "a"]');
  });

  it('stops on quit or exit', () => {
    expect(session().runLine('quit')).toEqual({ text: '', exit: true });
    expect(session().runLine('EXIT')).toEqual({ text: '', exit: true });
    expect(session().runLine('quit now').exit).toBe(false);
  });

  it('JSON mode: one JSON reply per line, directives as arrays, malformed lines answered', () => {
    const c = session();
    expect(JSON.parse(c.runJsonLine('["SET","k","v","PX","100"]'))).toEqual({ type: 'status', value: 'OK' });
    expect(JSON.parse(c.runJsonLine('[".advance","101"]'))).toEqual({ type: 'integer', value: '101' });
    expect(JSON.parse(c.runJsonLine('["GET","k"]'))).toEqual({ type: 'null', value: null });
    expect(JSON.parse(c.runJsonLine('[".time"]'))).toEqual({ type: 'integer', value: '101' });
    expect(JSON.parse(c.runJsonLine('{"cmd":"GET"}')).type).toBe('error');
    expect(JSON.parse(c.runJsonLine('["GET", 1]')).type).toBe('error');
    expect(JSON.parse(c.runJsonLine('[]')).type).toBe('error');
    expect(JSON.parse(c.runJsonLine('not json')).value).toMatch(/^ERR malformed input/);
    expect(c.runJsonLine('   ')).toBe('');
    expect(JSON.parse(c.runJsonLine('["INCR","n"]'))).toEqual({ type: 'integer', value: '1' });
  });

  it('MULTI queues on the console connection until EXEC; the prompt tag shows (TX)', () => {
    const c = session();
    expect(c.runLine('MULTI').text).toBe('OK');
    expect(c.promptTag).toBe('(TX)');
    expect(c.runLine('INCR n').text).toBe('QUEUED');
    expect(c.runLine('EXEC').text).toBe('1) (integer) 1');
    expect(c.promptTag).toBe('');
  });

  it('SUBSCRIBE keeps reading lines; messages from another connection print labelled after the reply', () => {
    const c = session();
    expect(c.runLine('SUBSCRIBE news alerts').text).toBe(
      ['1) "subscribe"', '2) "news"', '3) (integer) 1', '1) "subscribe"', '2) "alerts"', '3) (integer) 2'].join('\n'),
    );
    expect(c.promptTag).toBe('(subscribed)');
    expect(c.runLine('.as pub PUBLISH news hi').text).toBe(['(integer) 1', '[console] 1) "message"', '          2) "news"', '          3) "hi"'].join('\n'));
    expect(c.runLine('GET k').text).toMatch(/^\(error\) ERR Can't execute 'get'/);
    c.runLine('UNSUBSCRIBE');
    expect(c.runLine('GET k').text).toBe('(nil)');
  });

  it('.conn switches and lists connections with their state; names are checked', () => {
    const c = session();
    c.runLine('SUBSCRIBE ch');
    expect(c.runLine('.conn worker').text).toBe('connection: worker');
    expect(c.promptTag).toBe('[worker]');
    c.runLine('WATCH stock');
    expect(c.runLine('.conn').text).toBe('  console  (subscribed to "ch")\n* worker  (watching "stock")');
    expect(c.runLine('.conn "bad name"').text).toMatch(/^\(error\) ERR a connection name/);
    expect(c.runLine('.as').text).toBe('(error) ERR usage: .as <name> <command> [arg ...]');
  });

  it('JSON mode carries pushes on the reply line', () => {
    const c = session();
    c.runJsonLine('["SUBSCRIBE","a"]');
    expect(JSON.parse(c.runJsonLine('[".as","pub","PUBLISH","a","x"]'))).toEqual({
      type: 'integer',
      value: '1',
      pushes: [{ connection: 'console', reply: { type: 'array', value: [{ type: 'bulk', value: 'message' }, { type: 'bulk', value: 'a' }, { type: 'bulk', value: 'x' }] } }],
    });
  });
});
