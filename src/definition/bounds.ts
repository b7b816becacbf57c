/**
 * The bounds of a scenario definition, named with their units. A definition is untrusted input (a
 * file, a link, an engineer's test): every number and list has a ceiling, so no definition can make
 * Lockstep spend unbounded memory or time before a single step runs. The JSON Schema
 * (docs/scenario-definition.schema.json) carries the same numbers.
 */
import { advanceMsMax, scheduleChoiceCountMax } from '../engine/schedule';

export const definitionBounds = {
  /** Longest definition accepted as JSON text (UTF-16 code units, about bytes for ASCII). */
  definitionCharsMax: 1_048_576,
  /** Variants in one scenario. */
  variantCountMax: 16,
  /** Clients in one variant (the page's lanes, the schedule's letters). */
  clientCountMax: 16,
  /** Steps in one client's program. */
  programStepCountMax: 256,
  /** Named Lua scripts per scenario, and per variant. */
  scriptCountMax: 32,
  /** Characters in one Lua script's source. */
  scriptSourceCharsMax: 65_536,
  /** Parameters per scenario or variant, and starting variables per client. */
  paramCountMax: 64,
  /** Commands run before any client. */
  setupCommandCountMax: 256,
  /** Arguments of one Redis command (name included), keys or args of one EVAL. */
  argCountMax: 64,
  /** Characters of one argument, parameter value, variable value or written value. */
  valueCharsMax: 4_096,
  /** Characters of a title, summary, lesson, note or narration line. */
  textCharsMax: 8_192,
  /** Characters of an id, a label, a variable or parameter name. */
  nameCharsMax: 64,
  /** Characters of the default schedule text. */
  scheduleCharsMax: 131_072,
  /** Choices in the default schedule (the schedule grammar's own bound). */
  scheduleChoiceCountMax,
  /** Narration lines per scenario or variant. */
  narrationCountMax: 1_000,
  /** Counters and protected resources per scenario or variant. */
  counterCountMax: 16,
  /** Properties (always / reachable) per scenario. */
  propertyCountMax: 32,
  /** Any duration in a program or a checker bound: work, sleep, retry waits and deadlines (one day, as a schedule's advance). */
  durationMsMax: advanceMsMax,
  /** Acquisitions by others a waiting client may see before it starves (acquisitionsWhileWaitingMax). */
  acquisitionsWhileWaitingMax: 10_000,
  /** Retry attempts of one retry step. */
  attemptCountMax: 10_000,
  /** Latency samples of one work step. */
  sampleCountMax: 256,
  /** Multiplier of an exponential backoff per attempt. */
  backoffFactorMax: 16,
  /** Largest integer a `set` step adds, a counter starts at, or a burst allows (exact in a double). */
  integerMax: Number.MAX_SAFE_INTEGER,
  /** Virtual nanoseconds one Lua instruction may take (one second). */
  nsPerInstructionMax: 1_000_000_000,
} as const;

/**
 * Longest definition a share link carries, as its payload (base64url characters of the compressed
 * JSON, src/definition/link-codec.ts): about 24 kB compressed, four times the largest lesson's.
 * A longer one is offered as a JSON file instead.
 */
export const definitionLinkCharsMax = 32_000;

/** Largest scenario file read (bytes): a definition's 1,048,576 characters plus the run, pretty-printed. */
export const scenarioFileBytesMax = 2_097_152;
