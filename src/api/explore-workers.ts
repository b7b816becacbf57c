/**
 * A breadth-first search on several worker threads (node:worker_threads; the engine stays pure):
 * worker i searches shard i of n (engine/explore/shard.ts: the states of one level dealt out by
 * position, every state past it counted once by its stable hash) and the shards' files are merged
 * into the result of one run. So the result does not depend on the worker count: the same
 * violations and shortest schedules, the same verdict and, for a search that runs to its end, the
 * same counts (tests/unit/explore-workers.test.ts checks 1 against 2). One worker: no thread.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { explore, mergeShards, type ExploreOptions, type ExploreResult } from '../engine/explore';
import type { Scenario } from '../engine/scenario';

export const workerCountMax = 64;

export interface WorkerSearch {
  /** A built-in scenario's id (the workers look it up), or null with `scenario`. */
  readonly scenarioId: string | null;
  /** The scenario itself (a definition's): structured-cloned to each worker. */
  readonly scenario: Scenario;
  readonly options: Omit<ExploreOptions, 'scenario' | 'mode'>;
}

/**
 * How a worker starts: the worker file beside this one. Built (.js): that file. From the sources
 * (.ts, run by tsx): Node 20's workers do not take the main thread's loader, so a small script
 * registers tsx's loader in the worker first, then imports the file.
 */
function workerStart(): { readonly code: string | URL; readonly eval: boolean } {
  const ext = extname(fileURLToPath(import.meta.url));
  if (ext !== '.ts') {
    // The package build (vite.lib.config.ts) puts explore-worker.js in dist-pkg/lib; this code may sit in lib/chunks.
    const beside = new URL('./explore-worker.js', import.meta.url);
    return { code: existsSync(fileURLToPath(beside)) ? beside : new URL('../explore-worker.js', import.meta.url), eval: false };
  }
  const url = new URL('./explore-worker.ts', import.meta.url);
  const api = import.meta.resolve('tsx/esm/api');
  return { code: `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(url.href)}); })`, eval: true };
}

export async function exploreInWorkers(search: WorkerSearch, workers: number): Promise<ExploreResult> {
  if (!Number.isInteger(workers) || workers < 1 || workers > workerCountMax) throw new RangeError(`workers must be an integer from 1 to ${workerCountMax}, got ${workers}`);
  if (workers === 1) return explore({ ...search.options, scenario: search.scenario });
  const start = workerStart();
  const files = await Promise.all(
    Array.from(
      { length: workers },
      (_, index) =>
        new Promise<unknown>((resolve, reject) => {
          const worker = new Worker(start.code, {
            eval: start.eval,
            workerData: { scenarioId: search.scenarioId, scenario: search.scenarioId === null ? search.scenario : null, options: search.options, shard: { index, count: workers } },
          });
          worker.once('message', resolve);
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`explore worker ${index + 1} of ${workers} exited with code ${code}`));
          });
        }),
    ),
  );
  return mergeShards(files.map((data, i) => ({ name: `worker ${i + 1}`, data })));
}
