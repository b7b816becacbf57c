import { executeReplay, prepareReplay, runReplay, type ReplayCommand, type ReplayIo } from '../../src/cli/replay';

function commandOf(options: Partial<ReplayCommand> & Pick<ReplayCommand, 'scenario' | 'redis'>): ReplayCommand {
  return { variant: undefined, schedule: undefined, seed: 1, timeScale: 1, keyPrefix: undefined, allowServerWide: false, json: true, ...options };
}

function capture(onStderr: (text: string) => void = () => undefined, beforeStart?: () => Promise<void>): { io: ReplayIo; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const io: ReplayIo = {
    beforeStart,
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: {
      write: (text: string) => {
        out.stderr += text;
        onStderr(text);
      },
    },
  };
  return { io, out };
}

/**
 * Plans a replay now and returns a function that runs it: tests plan every replay first, so
 * that planning (which runs the simulation, synchronously) never delays a replay already running.
 */
export function prepared(
  options: Partial<ReplayCommand> & Pick<ReplayCommand, 'scenario' | 'redis'>,
  beforeStart?: () => Promise<void>,
): () => Promise<{ code: number; stdout: string; stderr: string }> {
  const command = commandOf(options);
  const { io, out } = capture(undefined, beforeStart);
  const plan = prepareReplay(command, io);
  return async () => {
    const code = plan === null ? 2 : await executeReplay(plan, command.json, io);
    return { code, ...out };
  };
}

/** Runs the replay command in-process with its output captured; `onStderr` sees each stderr write (progress lines). */
export async function replay(
  options: Partial<ReplayCommand> & Pick<ReplayCommand, 'scenario' | 'redis'>,
  onStderr: (text: string) => void = () => undefined,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { io, out } = capture(onStderr);
  const code = await runReplay(commandOf(options), io);
  return { code, ...out };
}

/** The JSON report's fields the tests read. */
export interface JsonReport {
  readonly commands: readonly { readonly n: number; readonly match: string | null; readonly realArgv: readonly string[] }[];
  readonly firstDivergence: number | null;
  readonly verdicts: { readonly simulation: readonly { kind: string }[]; readonly real: { readonly violations: readonly { kind: string }[]; readonly complete: boolean } };
  readonly cleanup: { readonly removed: number; readonly left: readonly string[] } | null;
  readonly error: string | null;
  readonly exitCode: number;
  readonly keyPrefix: string;
}

/**
 * Holds replays at their start until all `count` are connected (or finished without starting),
 * so that no replay's clock runs while the others still open connections.
 */
export function startLine(count: number): { ready: () => Promise<void>; done: () => void } {
  let waiting = count;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (release = resolve));
  const arrive = () => {
    waiting -= 1;
    if (waiting <= 0) release();
  };
  return {
    ready: () => {
      arrive();
      return all;
    },
    done: arrive,
  };
}
