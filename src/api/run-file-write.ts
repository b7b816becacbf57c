/** `writeRunFile`: runFileOf's scenario file written to disk, for the page's Import (Node only). */
import { writeFile } from 'node:fs/promises';
import { formatScenarioFile, type ScenarioFile } from '../definition/file';
import { runFileOf } from './run-file';
import type { SimulateResult } from './simulate';

/** Writes the run's scenario file to `path` (the format the workbench exports) and returns it. */
export async function writeRunFile(path: string, result: SimulateResult): Promise<ScenarioFile> {
  const file = runFileOf(result);
  await writeFile(path, formatScenarioFile(file), 'utf8');
  return file;
}
