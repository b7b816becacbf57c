import type { LocalizedText } from '../engine/program';
import type { Scenario } from '../engine/scenario';

/**
 * What the page knows of a scenario before its body loads: enough for the picker, the lesson
 * numbers and the "next lesson" button, and to know whether its runs need the Lua engine.
 */
export interface ScenarioEntry {
  readonly id: string;
  readonly title: LocalizedText;
  /** The one-line lesson (the picker's second line). */
  readonly summary: LocalizedText;
  /** Its variants' ids and titles (lessons that link to a variant name it). */
  readonly variants: readonly { readonly id: string; readonly title: LocalizedText }[];
  /** A run of it may evaluate Lua (engine/uses-scripts.ts): the page loads the Lua engine first. */
  readonly usesScripts: boolean;
  /** Its body (programs, scripts, narration, variants), as its own chunk of the page. */
  readonly load: () => Promise<Scenario>;
}
