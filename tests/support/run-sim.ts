import { spawn } from 'node:child_process';

/** Runs `npm run sim -- <args>` as a child process (through tsx, as npm would) and collects its output. */
export function runSim(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'src/cli/main.ts', ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
