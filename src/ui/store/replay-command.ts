/**
 * The CLI command that replays a run on a real Redis (docs/REPLAY.md): the scenario, variant and
 * seed, and the schedule up to the step shown, in canonical form. Canonical schedule tokens are
 * letters, digits, `_`, `+`, `!` and `~` only, so double quotes keep them one word in any POSIX
 * shell and in PowerShell.
 */
export const replayServerUrlExample = 'redis://127.0.0.1:6379';

/** Where the replay runs: one server, one private server per node, or a Redis Cluster. */
export type ReplayServers = 'one' | 'nodes' | 'cluster';

/** A Redis Cluster node to name in the command (any node of the cluster will do). */
export const replayClusterUrlExample = 'redis://127.0.0.1:7001';

/**
 * With several Redis nodes the command starts one private server per node (--start-server): the
 * replay causes node faults only on servers it started, and one --redis would not do. A scenario
 * whose simulated Redis is a cluster replays only on a cluster (--cluster).
 */
export function replayCommandText(scenarioId: string, variantId: string, seed: number, scheduleText: string, cursor: number, servers: ReplayServers = 'one'): string {
  const tokens = scheduleText === '' ? [] : scheduleText.split(' ');
  const shown = tokens.slice(0, cursor).join(' ');
  const server = servers === 'nodes' ? '--start-server' : servers === 'cluster' ? `--cluster --redis ${replayClusterUrlExample}` : `--redis ${replayServerUrlExample}`;
  return `npm run sim -- replay ${scenarioId} --variant ${variantId} --seed ${seed} --schedule "${shown}" ${server}`;
}
