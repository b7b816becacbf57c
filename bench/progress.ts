/** One line on stderr saying what a long part is doing now (the tables go to stdout). */
export function progress(text: string): void {
  process.stderr.write(`  [${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}
