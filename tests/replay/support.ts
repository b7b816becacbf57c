import { runReplay, type ReplayCommand } from '../../src/cli/replay';

/** Runs the replay command in-process with its output captured; `onStderr` sees each stderr write (progress lines). */
export async function replay(
  options: Partial<ReplayCommand> & Pick<ReplayCommand, 'scenario' | 'redis'>,
  onStderr: (text: string) => void = () => undefined,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const command: ReplayCommand = {
    variant: undefined,
    schedule: undefined,
    seed: 1,
    timeScale: 1,
    keyPrefix: undefined,
    allowServerWide: false,
    json: true,
    ...options,
  };
  const code = await runReplay(command, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: {
      write: (text: string) => {
        stderr += text;
        onStderr(text);
      },
    },
  });
  return { code, stdout, stderr };
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
