// ioredis-mock's own typings pull in all of Node's (through ioredis). The engine treats the mock as
// untyped (src/engine/redis/mock-bridge.ts types what it uses), so the engine check maps it here.
declare const RedisMock: unknown;
export default RedisMock;
