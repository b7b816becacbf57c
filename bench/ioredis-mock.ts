import RedisMock from 'ioredis-mock';

/**
 * ioredis-mock 8.13.1, the library Lockstep's Redis replaced, as the bench's baseline: used through
 * its public promise API, as an application would (a fresh keyspace per instance host name).
 */
export type MockClient = Record<string, (...args: (string | number)[]) => Promise<unknown>> & { disconnect(): void };

let hostCount = 0;

export function createMock(): MockClient {
  hostCount += 1;
  const Ctor = RedisMock as unknown as new (options: object) => MockClient;
  return new Ctor({ host: `lockstep-bench-${hostCount}`, port: 6379 });
}
