/**
 * One worker thread of a parallel breadth-first search (explore-workers.ts): searches one shard
 * of the search (engine/explore/shard.ts) and posts its shard file back.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { exploreShard, type ExploreOptions, type ShardSpec } from '../engine/explore';
import type { Scenario } from '../engine/scenario';
import { findScenario } from '../scenarios';

interface WorkerRequest {
  readonly scenarioId: string | null;
  readonly scenario: Scenario | null;
  readonly options: Omit<ExploreOptions, 'scenario'>;
  readonly shard: ShardSpec;
}

const request = workerData as WorkerRequest;
const scenario = request.scenario ?? findScenario(request.scenarioId ?? '');
parentPort?.postMessage(exploreShard({ ...request.options, scenario, shard: request.shard }));
