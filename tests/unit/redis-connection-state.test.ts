import { describe, expect, it } from 'vitest';
import { SimRedisServer } from '../../src/engine/redis/server';

// Goal: per-connection state (SELECT's database, CLIENT's name and id) lives in the server's
// snapshot only once used, restores exactly, and CLIENT ID grows with each connection that asks.

const int = (value: number) => ({ type: 'integer', value: String(value) });

describe('connection state', () => {
  it('CLIENT ID: one number per connection, growing in the order connections ask', () => {
    const server = new SimRedisServer();
    const a = server.execute(['CLIENT', 'ID'], 0, 'a');
    const b = server.execute(['CLIENT', 'ID'], 0, 'b');
    expect(server.execute(['CLIENT', 'ID'], 0, 'a')).toEqual(a);
    expect(a).toEqual(int(1));
    expect(b).toEqual(int(2));
  });

  it('a server nobody SELECTs or names snapshots without databases, ids or names', () => {
    const server = new SimRedisServer();
    server.execute(['SET', 'k', 'v'], 0, 'a');
    const snapshot = server.snapshot();
    expect(snapshot.databases).toBeUndefined();
    expect(snapshot.lastClientId).toBeUndefined();
    expect(snapshot.clients).toBeUndefined();
  });

  it('databases, the selected one and names come back from a snapshot', () => {
    const server = new SimRedisServer();
    server.execute(['SELECT', '3'], 0, 'a');
    server.execute(['SET', 'k', 'three'], 0, 'a');
    server.execute(['CLIENT', 'SETNAME', 'worker'], 0, 'a');
    server.execute(['CLIENT', 'ID'], 0, 'a');
    const snapshot = JSON.parse(JSON.stringify(server.snapshot()));
    server.execute(['FLUSHALL'], 0, 'a');
    server.execute(['SELECT', '0'], 0, 'a');
    server.execute(['CLIENT', 'SETNAME', ''], 0, 'a');
    server.restore(snapshot);
    expect(server.execute(['GET', 'k'], 0, 'a')).toEqual({ type: 'bulk', value: 'three' });
    expect(server.execute(['CLIENT', 'GETNAME'], 0, 'a')).toEqual({ type: 'bulk', value: 'worker' });
    expect(server.execute(['CLIENT', 'ID'], 0, 'b')).toEqual(int(2));
    expect(server.execute(['GET', 'k'], 0, 'b')).toEqual({ type: 'nil' });
  });

  it('INFO answers what the ioredis ready check reads (loading:0) and the version', () => {
    const server = new SimRedisServer();
    const info = server.execute(['INFO'], 0);
    if (info.type !== 'bulk') throw new Error('INFO answered no bulk');
    const fields = Object.fromEntries(info.value.split('\r\n').map((line) => line.split(':')).filter((parts) => parts.length === 2));
    expect(fields.loading).toBe('0');
    expect(fields.redis_version).toBe('7.0.15');
  });

  it('keys of database 1 expire on the virtual clock too', () => {
    const server = new SimRedisServer();
    server.execute(['SELECT', '1'], 0, 'a');
    server.execute(['SET', 'k', 'v', 'PX', '100'], 0, 'a');
    expect(server.execute(['EXISTS', 'k'], 100, 'a')).toEqual(int(1));
    expect(server.execute(['EXISTS', 'k'], 101, 'a')).toEqual(int(0));
  });
});
