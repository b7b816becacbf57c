/**
 * Measures the match rate of the differential corpus: `npm run fidelity` (`--verbose` lists the
 * cases that differ). Prints a Markdown report for Lockstep's server and the ioredis-mock baseline
 * side by side; its figures go to docs/REDIS-FIDELITY.md. Not a test (baseline.test.ts is).
 */
import { startRealRedis } from '../support/real-redis';
import { RespClient } from '../support/resp-client';
import { ioredisMockExecutor, stopIoredisMockBaseline } from './baseline/ioredis-mock';
import { measureCorpus, renderReport } from './fidelity';
import { simExecutor } from './harness';

const verbose = process.argv.includes('--verbose');
const real = await startRealRedis();
const client = await RespClient.connect(real.port);
try {
  const lockstep = await measureCorpus('Lockstep', client, (diff) => simExecutor({ unixEpochMs: diff.unixEpochMs }));
  const mock = await measureCorpus('ioredis-mock 8.13.1', client, ioredisMockExecutor);
  process.stdout.write(`${renderReport([lockstep, mock])}\n`);
  if (verbose) for (const score of [lockstep, mock]) process.stdout.write(`\n${score.server} differs in:\n${score.mismatched.map((name) => `  ${name}`).join('\n')}\n`);
} finally {
  await stopIoredisMockBaseline();
  await client.close();
  await real.stop();
}
