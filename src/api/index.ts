/**
 * Lockstep's Node API (`import { simulate, explore } from 'lockstep'`): run a scenario, a scenario
 * definition or your own async lock code under a schedule, or let the explorer find the schedule
 * that breaks it. Pure: no page, no wall clock, no network. docs/AUTOMATION.md, "Testing your own
 * lock code". The exception is `record` (record.ts): it records a real application's Redis traffic
 * for `lockstep check` (docs/HISTORIES.md), in real time, to a file.
 */
export { simulate, simulateAll, verdictOf } from './simulate';
export type { FailedProperty, SimulateOptions, SimulateResult, Verdict, ViolationSummary } from './simulate';
export type { FindingKind, Properties, Property } from './findings';
export { FINDING_KINDS } from './findings';
export type { RedisClientChoice } from './async/client-links';
export { nodeCountMax } from './nodes';
export type { NodeOption } from './nodes';
export { explore, exploreBounds } from './explore';
export type { ExploreFaults, ExploreOptions, ExploreResult, ExploreVerdict, FoundViolation } from './explore';
export type { ExpectedVerdict, ScenarioSource } from './source';
export type { AsyncClientCode, AsyncClients, AsyncClientSpec } from './async/run';
export type { ClientContext } from './async/context';
export { ReplyError } from './async/ioredis';
export type { LockstepPipeline, LockstepRedis, LockstepRedisOptions } from './async/ioredis';
export type { ErrorCommand } from './async/ioredis-wire';
export { parkHopCountMax } from './async/host';
export { runFileOf } from './run-file';
export { mark, record } from './record';
export type { MarkKind, RecordOptions, Recording } from './record';
export { checkHistoryText, HistoryChecker, HISTORY_VIOLATION_KINDS } from '../history';
export type { Certainty, CheckOptions, ClientLane, EvidenceEvent, HistoryProblem, HistoryVerdict, HistoryViolation, HistoryViolationKind } from '../history';
export { writeRunFile } from './run-file-write';
export type { ScenarioFile, ScenarioFileRun } from '../definition/file';
export {
  ArgumentError,
  AsyncClientError,
  DefinitionError,
  LockstepError,
  ScheduleDoesNotFitError,
  RunFileError,
  ScheduleError,
  UncontrolledAwaitError,
} from './errors';
export type { LockstepErrorCode } from './errors';
export { DEFINITION_VERSION, definitionBounds, definitionOfScenario, formatProblems, parseDefinition, parseDefinitionText } from '../definition';
export type { DefinitionProblem, DefinitionResult, ScenarioDefinition } from '../definition';
export type { Trace, TraceEvent, ViolationKind } from '../engine/trace';
export { VIOLATION_KINDS } from '../engine/trace';
export type { KeyEntry } from '../engine/redis/keyspace';

import { SCENARIOS } from '../scenarios';
import { definitionOfScenario } from '../definition';
import type { ScenarioDefinition } from '../definition';

/** The built-in scenarios' ids, in teaching order. */
export const scenarioIds: readonly string[] = SCENARIOS.map((s) => s.id);

/** A built-in scenario as a definition: a starting point for your own. */
export function builtinDefinition(id: string): ScenarioDefinition | null {
  const scenario = SCENARIOS.find((s) => s.id === id);
  return scenario ? definitionOfScenario(scenario) : null;
}
