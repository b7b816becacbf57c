// ioredis-mock ships no types; only the fidelity baseline and the bench use it (never src/).
declare module 'ioredis-mock' {
  const RedisMock: unknown;
  export default RedisMock;
}
