/**
 * `--file <definition.json>`: a scenario definition read from disk and validated like every other
 * definition (src/definition). A file that is missing, too big, not JSON or not a valid definition
 * is a DefinitionFileError whose message lists every problem with its path.
 */
import { readFileSync, statSync } from 'node:fs';
import { definitionBounds, formatProblems, parseDefinitionText, type ScenarioDefinition } from '../definition';
import type { Scenario } from '../engine/scenario';

export class DefinitionFileError extends Error {}

/** Largest file read (bytes): four bytes per character of the longest definition accepted. */
const fileBytesMax = definitionBounds.definitionCharsMax * 4;

export function readDefinitionFile(path: string): { readonly scenario: Scenario; readonly definition: ScenarioDefinition } {
  let text: string;
  try {
    const size = statSync(path).size;
    if (size > fileBytesMax) throw new DefinitionFileError(`${path}: the file is ${size} bytes; a definition is at most ${definitionBounds.definitionCharsMax} characters`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof DefinitionFileError) throw error;
    throw new DefinitionFileError(`${path}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const result = parseDefinitionText(text);
  if (!result.ok) {
    const indented = formatProblems(result.problems).split('\n').map((line) => `  ${line}`).join('\n');
    throw new DefinitionFileError(`${path}: not a valid scenario definition:\n${indented}`);
  }
  return { scenario: result.scenario, definition: result.definition };
}
