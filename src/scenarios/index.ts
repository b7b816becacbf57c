import type { Scenario } from '../engine/scenario';
import { ScenarioError } from '../engine/scenario';
import { getThenDel } from './get-then-del';
import { setnxNoTtl } from './setnx-no-ttl';
import { setnxThenExpire } from './setnx-then-expire';
import { plainDel } from './plain-del';
import { leaseExpiresMidWork } from './lease-expires-mid-work';
import { watchdogScenario } from './watchdog';
import { reentrant } from './reentrant';
import { redissonLock } from './redisson-lock';
import { stockOversell } from './stock-oversell';
import { cacheBreakdown } from './cache-breakdown';
import { cachePenetration } from './cache-penetration';
import { cacheAvalanche } from './cache-avalanche';
import { retryAndBackoff } from './retry-and-backoff';
import { scriptCache } from './script-cache';
import { longScript } from './long-script';
import { subSecondLease } from './sub-second-lease';
import { leaseSizing } from './lease-sizing';
import { releaseResult } from './release-result';
import { failoverBeforeReplication } from './failover-before-replication';
import { redlockClockJump } from './redlock-clock-jump';
import { redlockHappyPath } from './redlock-happy-path';
import { redlockGcPause } from './redlock-gc-pause';
import { redlockSplitVote } from './redlock-split-vote';
import { redlockRestartWithoutFsync } from './redlock-restart';
import { clusterHashSlots } from './cluster-hash-slots';
import { countingSemaphore } from './counting-semaphore';
import { fairLock } from './fair-lock';
import { readWriteLock } from './read-write-lock';

/** Every scenario, in teaching order. Adding one is writing a data file and listing it here. */
export const SCENARIOS: readonly Scenario[] = [setnxNoTtl, setnxThenExpire, subSecondLease, plainDel, getThenDel, leaseExpiresMidWork, leaseSizing, releaseResult, watchdogScenario, reentrant, redissonLock, stockOversell, cacheBreakdown, cachePenetration, cacheAvalanche, retryAndBackoff, countingSemaphore, fairLock, readWriteLock, scriptCache, longScript, clusterHashSlots, failoverBeforeReplication, redlockHappyPath, redlockClockJump, redlockRestartWithoutFsync, redlockGcPause, redlockSplitVote];

export function findScenario(id: string): Scenario {
  const scenario = SCENARIOS.find((s) => s.id === id);
  if (!scenario) throw new ScenarioError(`unknown scenario "${id}"; scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  return scenario;
}
