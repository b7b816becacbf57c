import { randomBytes } from 'node:crypto';
import { Simulation } from '../../engine/simulation';
import { findScenario } from '../../scenarios';
import { parseServerUrl, type ServerAddress } from './address';
import { buildPlan, ReplayRefusal, type ReplayPlan } from './plan';
import { exitCodeOf, jsonReport, textReport } from './report';
import { replayOnServer } from './run';

/** `npm run sim -- replay`: a simulated run, replayed on a real Redis and compared reply by reply. */
export interface ReplayCommand {
  readonly scenario: string;
  readonly variant: string | undefined;
  readonly schedule: string | undefined;
  readonly seed: number;
  readonly redis: string;
  readonly timeScale: number;
  readonly keyPrefix: string | undefined;
  readonly allowServerWide: boolean;
  readonly json: boolean;
}

export interface ReplayIo {
  readonly stdout: { write(text: string): unknown };
  /** Progress and errors; `isTTY` makes the progress line rewrite itself. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly signal?: AbortSignal;
  /** Awaited when the server is checked and connected, just before the replay's clock starts. */
  readonly beforeStart?: () => Promise<void>;
}

/** Progress lines on a stream that is not a terminal: at most one per this many ms, and the last. */
const progressEveryMs = 1_000;

export async function runReplay(command: ReplayCommand, io: ReplayIo): Promise<number> {
  const prepared = prepareReplay(command, io);
  return prepared === null ? 2 : await executeReplay(prepared, command.json, io);
}

export interface PreparedReplay {
  readonly plan: ReplayPlan;
  readonly address: ServerAddress;
}

/** The plan (the simulated run and the commands to send), or null after saying why it cannot be replayed. */
export function prepareReplay(command: ReplayCommand, io: ReplayIo): PreparedReplay | null {
  const address = parseServerUrl(command.redis);
  if ('problem' in address) {
    io.stderr.write(`lockstep: ${address.problem}\n`);
    return null;
  }
  const scenario = findScenario(command.scenario);
  const keyPrefix = command.keyPrefix ?? `lockstep:${randomBytes(4).toString('hex')}:`;
  try {
    const plan = buildPlan(scenario, {
      variantId: command.variant,
      seed: command.seed,
      schedule: command.schedule,
      timeScale: command.timeScale,
      keyPrefix,
      allowServerWide: command.allowServerWide,
    });
    return { plan, address };
  } catch (error) {
    if (!(error instanceof ReplayRefusal)) throw error;
    io.stderr.write(`lockstep: cannot replay ${scenario.id}: ${error.message}\n`);
    return null;
  }
}

/** Replays a prepared plan on its server and writes the report; the exit code (report.ts exitCodeOf). */
export async function executeReplay({ plan, address }: PreparedReplay, json: boolean, io: ReplayIo): Promise<number> {
  // Names each client's token in the text report (`<A's token>`), read before any wait starts.
  const tokens = json ? {} : Object.fromEntries(new Simulation(plan.scenario, { variantId: plan.variant.id, seed: plan.seed }).clients.map((c) => [c.id, c.vars.token ?? '']));
  let lastProgressAt = -Infinity;
  const result = await replayOnServer(plan, address, {
    signal: io.signal,
    beforeStart: io.beforeStart,
    onProgress: (done, total, elapsedMs) => {
      const line = `replaying command ${done} of ${total}, ${(elapsedMs / 1000).toFixed(1)} s elapsed`;
      if (io.stderr.isTTY) io.stderr.write(`\r${line}${done === total ? '\n' : ''}`);
      else if (done === total || elapsedMs - lastProgressAt >= progressEveryMs) {
        lastProgressAt = elapsedMs;
        io.stderr.write(`${line}\n`);
      }
    },
  });
  if (io.stderr.isTTY && result.rows.length > 0 && result.rows.length < plan.commands.length) io.stderr.write('\n');
  if (json) io.stdout.write(`${JSON.stringify(jsonReport(plan, result, address.display))}\n`);
  else io.stdout.write(textReport(plan, result, address.display, tokens));
  if (result.error !== null) io.stderr.write(`lockstep: replay failed: ${result.error.message}\n`);
  if (result.cleanup !== null && result.cleanup.left.length > 0) {
    io.stderr.write(`lockstep: keys left on the server: ${result.cleanup.left.join(', ')} (${result.cleanup.problem ?? ''})\n`);
  }
  return exitCodeOf(result);
}
