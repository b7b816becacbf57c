/**
 * Measures the match rate of the differential cases: `npx tsx tests/differential/measure.ts`.
 *   --baseline=mock        plain ioredis-mock (its own commands, replies typed by a naive conversion)
 *   --server=<path>        another SimRedisServer module (e.g. an older checkout of server.ts)
 *   --verbose              print every mismatch report
 * Not a test: it prints numbers for docs/REDIS-FIDELITY.md.
 */
import { callMock, createMockInstance } from '../../src/engine/redis/mock-bridge';
import { fromMock } from '../../src/engine/redis/commands';
import { startRealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { CASES_BY_AREA } from './cases/index';
import { arityCases } from './arity-cases';
import { mismatchReport, runCase, simExecutor, type Executor } from './harness';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const baseline = args.find((a) => a.startsWith('--baseline='))?.split('=')[1];
const serverModule = args.find((a) => a.startsWith('--server='))?.split('=')[1];

async function executorFactory(): Promise<() => Executor> {
  if (baseline === 'mock') {
    return () => {
      const mock = createMockInstance();
      return (argv) => {
        const outcome = callMock(mock, Date.now(), argv[0].toLowerCase(), argv.slice(1));
        return fromMock(outcome, ['OK', 'PONG', 'string', 'hash', 'list', 'set', 'zset', 'none']);
      };
    };
  }
  if (serverModule) {
    const module = (await import(serverModule)) as { SimRedisServer: new () => { execute(argv: readonly string[], nowMs: number): never } };
    return () => {
      const server = new module.SimRedisServer();
      return (argv) => server.execute(argv, Date.now());
    };
  }
  return simExecutor;
}

const real = await startRealRedis();
const client = await RespClient.connect(real.port);
try {
  const makeExecutor = await executorFactory();
  const areas: Record<string, readonly import('./harness').DiffCase[]> = { ...CASES_BY_AREA, arity: arityCases() };
  let casesTotal = 0;
  let casesMatched = 0;
  let stepsTotal = 0;
  let stepsMatched = 0;
  for (const [area, cases] of Object.entries(areas)) {
    let matched = 0;
    for (const diff of cases) {
      const outcome = await runCase(client, makeExecutor(), diff);
      stepsTotal += outcome.outcomes.length;
      stepsMatched += outcome.outcomes.filter((o) => o.match).length;
      if (outcome.match) matched += 1;
      else if (verbose) console.log(mismatchReport(outcome) + '\n');
    }
    casesTotal += cases.length;
    casesMatched += matched;
    console.log(`${area.padEnd(12)} ${matched}/${cases.length} cases`);
  }
  console.log(`TOTAL        ${casesMatched}/${casesTotal} cases, ${stepsMatched}/${stepsTotal} replies`);
} finally {
  await client.close();
  await real.stop();
}
