/**
 * The scenario definition format, version 1: a scenario as JSON data (docs/SCENARIO-DEFINITIONS.md).
 * One valibot schema is the source of truth: it validates files, links, `lockstep.load` and the
 * Node API, gives the TypeScript type, and generates the published JSON Schema
 * (docs/scenario-definition.schema.json). Cross-references (labels, scripts, clients, params) are
 * checked after it, in semantics.ts.
 */
import * as v from 'valibot';
import { EXPRESSION_LENGTH_MAX_CHARS } from '../engine/properties/limits';
import { VIOLATION_KINDS } from '../engine/trace';
import { definitionBounds as B } from './bounds';

/** The format's version. A reader refuses a newer one rather than guessing. */
export const DEFINITION_VERSION = 1;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Client ids are what schedules name (docs/SCHEDULES.md): a letter, then letters, digits or `_`. */
const CLIENT_ID = /^[A-Za-z][A-Za-z0-9_]*$/;
/** Scenario and variant ids appear in links and test ids: lower case, digits and `-`. */
const ID = /^[a-z0-9][a-z0-9-]*$/;

const name = v.pipe(
  v.string(),
  v.regex(NAME, 'a name: letters, digits and _, not starting with a digit'),
  v.maxLength(B.nameCharsMax, `at most ${B.nameCharsMax} characters`),
);
const clientId = v.pipe(
  v.string(),
  v.regex(CLIENT_ID, 'a client id: a letter, then letters, digits or _ (what schedules name, e.g. A)'),
  v.maxLength(B.nameCharsMax, `at most ${B.nameCharsMax} characters`),
);
const id = v.pipe(
  v.string(),
  v.regex(ID, 'an id: lower-case letters, digits and -, e.g. my-lock'),
  v.maxLength(B.nameCharsMax, `at most ${B.nameCharsMax} characters`),
);
const value = v.pipe(v.string(), v.maxLength(B.valueCharsMax, `at most ${B.valueCharsMax} characters`));
const args = v.pipe(v.array(value), v.maxLength(B.argCountMax, `at most ${B.argCountMax} arguments`));

/** Text shown to people: one string for every language, or `{ en, zh }` (zh falls back to en). */
const textString = v.pipe(v.string(), v.maxLength(B.textCharsMax, `at most ${B.textCharsMax} characters`));
export const textSchema = v.union([textString, v.strictObject({ en: textString, zh: v.optional(textString) })], 'a text: a string, or { "en": ..., "zh": ... }');

const durationMs = v.pipe(
  v.number(),
  v.integer('a whole number of milliseconds'),
  v.minValue(0, 'at least 0 ms'),
  v.maxValue(B.durationMsMax, `at most ${B.durationMsMax} ms (one day)`),
);
const positiveDurationMs = v.pipe(
  v.number(),
  v.integer('a whole number of milliseconds'),
  v.minValue(1, 'at least 1 ms'),
  v.maxValue(B.durationMsMax, `at most ${B.durationMsMax} ms (one day)`),
);
const integer = v.pipe(
  v.number(),
  v.integer('an integer'),
  v.minValue(-B.integerMax, `at least -${B.integerMax}`),
  v.maxValue(B.integerMax, `at most ${B.integerMax}`),
);
const count = (max: number, what: string) =>
  v.pipe(v.number(), v.integer(`a whole number of ${what}`), v.minValue(0, `at least 0 ${what}`), v.maxValue(max, `at most ${max} ${what}`));

const violationKind = v.picklist(VIOLATION_KINDS, `a violation kind: ${VIOLATION_KINDS.join(', ')}`);

/** Fields every program step may have. */
const stepBase = {
  /** A name other steps can jump to (`if`, `goto`, `retry`). */
  label: v.optional(name),
  /** What this line is for, shown beside it like a code comment. */
  note: v.optional(textSchema),
};

export const conditionSchema = v.variant(
  'test',
  [
    v.strictObject({ test: v.picklist(['nil', 'notNil', 'error', 'notError']), reply: name }),
    v.strictObject({ test: v.picklist(['eq', 'ne', 'lt', 'le', 'gt', 'ge']), left: value, right: value }),
  ],
  'a condition: { "test": "nil" | "notNil" | "error" | "notError", "reply": name } or { "test": "eq" | "ne" | "lt" | "le" | "gt" | "ge", "left": ..., "right": ... }',
);

/** Every op of src/engine/program.ts `Step`, field for field. */
/** Several nodes: where a command goes (a template, e.g. r${i}) and the client's own timeout for it. */
const routing = {
  node: v.optional(value),
  timeoutMs: v.optional(positiveDurationMs),
};

export const stepSchema = v.variant(
  'op',
  [
    v.strictObject({
      op: v.literal('command'),
      ...stepBase,
      argv: v.pipe(args, v.minLength(1, 'a command needs its name')),
      saveAs: v.optional(name),
      releases: v.optional(v.boolean()),
      ...routing,
      connection: v.optional(name),
    }),
    v.strictObject({
      op: v.literal('transaction'),
      ...stepBase,
      commands: v.pipe(
        v.array(v.pipe(args, v.minLength(1, 'a command needs its name'))),
        v.minLength(1, 'a transaction needs at least one command'),
        v.maxLength(B.argCountMax, `at most ${B.argCountMax} commands`),
      ),
      saveAs: v.optional(name),
    }),
    v.strictObject({
      op: v.literal('waitMessage'),
      ...stepBase,
      channel: v.optional(value),
      timeoutMs: v.union([durationMs, value], 'a timeout: milliseconds, or a template such as "${ttl}"'),
      saveAs: v.optional(name),
    }),
    v.strictObject({
      op: v.literal('eval'),
      ...stepBase,
      script: name,
      keys: args,
      args,
      saveAs: v.optional(name),
      releases: v.optional(v.boolean()),
      bySha: v.optional(v.boolean()),
      ...routing,
    }),
    v.strictObject({ op: v.literal('clock'), ...stepBase, saveAs: name }),
    v.strictObject({ op: v.literal('if'), ...stepBase, when: conditionSchema, goto: name }),
    v.strictObject({ op: v.literal('goto'), ...stepBase, goto: name }),
    v.strictObject({
      op: v.literal('set'),
      ...stepBase,
      var: name,
      value,
      add: v.optional(integer),
      jitterMax: v.optional(count(B.integerMax, 'units')),
      subtract: v.optional(args),
    }),
    v.strictObject({
      op: v.literal('work'),
      ...stepBase,
      durationMs,
      samplesMs: v.optional(v.pipe(v.array(durationMs), v.minLength(1, 'at least one sample'), v.maxLength(B.sampleCountMax, `at most ${B.sampleCountMax} samples`))),
    }),
    v.strictObject({ op: v.literal('sleep'), ...stepBase, durationMs }),
    v.strictObject({ op: v.literal('hang'), ...stepBase }),
    v.strictObject({ op: v.literal('start'), ...stepBase, client: clientId, delayMs: v.optional(durationMs) }),
    v.strictObject({
      op: v.literal('retry'),
      ...stepBase,
      goto: name,
      afterMs: durationMs,
      jitterMs: v.optional(durationMs),
      attemptCountMax: count(B.attemptCountMax, 'attempts'),
      backoffFactor: v.optional(v.pipe(v.number(), v.minValue(1, 'at least 1'), v.maxValue(B.backoffFactorMax, `at most ${B.backoffFactorMax}`))),
      deadlineMs: v.optional(durationMs),
    }),
    v.strictObject({ op: v.literal('enter'), ...stepBase }),
    v.strictObject({ op: v.literal('leave'), ...stepBase }),
    v.strictObject({ op: v.literal('write'), ...stepBase, resource: name, value, fencingToken: v.optional(value) }),
    v.strictObject({ op: v.literal('mark'), ...stepBase, counter: name }),
    v.strictObject({ op: v.literal('end'), ...stepBase }),
  ],
  'a step: { "op": "command" | "transaction" | "waitMessage" | "eval" | "clock" | "if" | "goto" | "set" | "work" | "sleep" | "hang" | "start" | "retry" | "enter" | "leave" | "write" | "mark" | "end", ... }',
);

const driftPpm = v.pipe(v.number(), v.integer('whole parts per million'), v.minValue(-500_000, 'at least -500000 ppm'), v.maxValue(500_000, 'at most 500000 ppm'));

/** Redis nodes (docs/SCHEDULES.md, "Many nodes"); absent: one node. */
const nodes = v.pipe(
  v.array(
    v.strictObject({
      id: clientId,
      role: v.picklist(['primary', 'replica']),
      replicaOf: v.optional(clientId),
      replicationDelayMs: v.optional(durationMs),
      clockDriftPpm: v.optional(driftPpm),
      persistence: v.optional(v.picklist(['fsync', 'none'])),
      restartDelayMs: v.optional(durationMs),
    }),
  ),
  v.minLength(1, 'at least one node'),
  v.maxLength(B.clientCountMax, `at most ${B.clientCountMax} nodes`),
);

const links = v.strictObject({
  delayMs: v.optional(durationMs),
  overrides: v.optional(v.pipe(v.array(v.strictObject({ client: clientId, node: clientId, delayMs: durationMs })), v.maxLength(B.argCountMax))),
});

const program = v.pipe(v.array(stepSchema), v.maxLength(B.programStepCountMax, `at most ${B.programStepCountMax} steps`));

export const clientSchema = v.strictObject({
  id: clientId,
  program,
  /** Extra starting variables (besides `token` and `clientId`). */
  vars: v.optional(v.pipe(v.record(name, value), v.maxEntries(B.paramCountMax, `at most ${B.paramCountMax} variables`))),
  /** Start with this client's token (a helper acting for its owner, e.g. a watchdog). */
  tokenFrom: v.optional(clientId),
  /** The process it runs in (default: its own id): stalls and crashes hit a whole process. */
  process: v.optional(name),
  /** The client whose `start` step starts this one; absent: the schedule starts it. */
  startedBy: v.optional(clientId),
  /** Its clock's drift (parts per million) against virtual time (several nodes). */
  clockDriftPpm: v.optional(driftPpm),
});

export const scriptSchema = v.strictObject({
  source: v.pipe(v.string(), v.minLength(1, 'an empty script'), v.maxLength(B.scriptSourceCharsMax, `at most ${B.scriptSourceCharsMax} characters`)),
  title: v.optional(textSchema),
});
const scripts = v.pipe(v.record(name, scriptSchema), v.maxEntries(B.scriptCountMax, `at most ${B.scriptCountMax} scripts`));

const paramValue = v.union(
  [value, v.pipe(v.number(), v.integer('an integer'), v.minValue(-B.integerMax), v.maxValue(B.integerMax))],
  'a parameter value: a string or an integer',
);
const params = v.pipe(v.record(name, paramValue), v.maxEntries(B.paramCountMax, `at most ${B.paramCountMax} parameters`));

const resources = v.pipe(
  v.array(v.strictObject({ id: name, fencing: v.boolean() })),
  v.maxLength(B.counterCountMax, `at most ${B.counterCountMax} resources`),
);

const counters = v.pipe(
  v.array(
    v.strictObject({
      id: name,
      key: value,
      initial: integer,
      kind: v.optional(v.picklist(['sale', 'rebuild', 'db-read'])),
      burstMax: v.optional(count(B.integerMax, 'queries')),
      burstWindowMs: v.optional(positiveDurationMs),
    }),
  ),
  v.maxLength(B.counterCountMax, `at most ${B.counterCountMax} counters`),
);

const narration = v.pipe(
  v.array(v.strictObject({ step: count(B.scheduleChoiceCountMax - 1, 'steps'), text: textSchema })),
  v.maxLength(B.narrationCountMax, `at most ${B.narrationCountMax} lines`),
);

const kinds = v.pipe(v.array(violationKind), v.maxLength(VIOLATION_KINDS.length * 2, 'too many kinds'));

export const variantSchema = v.strictObject({
  id,
  title: v.optional(textSchema),
  summary: v.optional(textSchema),
  clients: v.pipe(v.array(clientSchema), v.minLength(1, 'at least one client'), v.maxLength(B.clientCountMax, `at most ${B.clientCountMax} clients`)),
  /** Scripts added to (or replacing) the scenario's. */
  scripts: v.optional(scripts),
  /** Protected resources replacing the scenario's. */
  resources: v.optional(resources),
  /** Redis nodes replacing the scenario's. */
  nodes: v.optional(nodes),
  /** Params merged over the scenario's (a shorter lease, another interval). */
  params: v.optional(params),
  /** Redis version this variant needs when newer than 7.0 (e.g. "8.4"). */
  /** This variant's lock key, when it differs from the scenario's (e.g. with a hash tag). */
  lockKey: v.optional(value),
  requiresRedis: v.optional(v.pipe(v.string(), v.regex(/^[0-9]{1,2}\.[0-9]{1,2}$/, 'a version such as "8.4"'))),
  narration: v.optional(narration),
  /** The verdict expected under the default schedule: kinds that appear, and kinds that must not. */
  expect: v.optional(v.strictObject({ violations: v.optional(kinds), absent: v.optional(kinds) })),
});

/** A property expression (docs/SCENARIO-DEFINITIONS.md, "Properties"); semantics.ts parses it. */
const expression = v.pipe(v.string(), v.minLength(1, 'an expression'), v.maxLength(EXPRESSION_LENGTH_MAX_CHARS, `at most ${EXPRESSION_LENGTH_MAX_CHARS} characters`));
/** Your own property: an invariant every event must keep (`always`), or a goal some schedule must reach (`reachable`). */
export const propertySchema = v.union(
  [v.strictObject({ name: id, always: expression }), v.strictObject({ name: id, reachable: expression })],
  'a property: { "name": ..., "always": "<expression>" } or { "name": ..., "reachable": "<expression>" }',
);
const properties = v.pipe(v.array(propertySchema), v.maxLength(B.propertyCountMax, `at most ${B.propertyCountMax} properties`));

export const definitionSchema = v.strictObject({
  /** A JSON Schema reference for editors; ignored. */
  $schema: v.optional(v.pipe(v.string(), v.maxLength(B.valueCharsMax))),
  version: v.literal(DEFINITION_VERSION, `version must be ${DEFINITION_VERSION}`),
  id,
  title: v.optional(textSchema),
  summary: v.optional(textSchema),
  lesson: v.optional(textSchema),
  /** Values programs refer to as `${name}` (lockKey, ttlMs...). */
  params: v.optional(params),
  /** The key the checkers and the timeline treat as the lock (default: the lockKey param, else "lock"). */
  lockKey: v.optional(value),
  /** Longest a critical section should keep the lock (ms): held longer is lock-held-too-long. */
  lockHoldMsMax: v.optional(durationMs),
  /** Most clients inside the critical section at once (a counting semaphore's limit): more is over-limit. */
  holderCountMax: v.optional(v.pipe(count(B.clientCountMax, 'clients'), v.minValue(1, 'at least 1 client'))),
  /** Longest a client should wait to get in for the first time (ms): waiting longer is starvation. */
  waitMsMax: v.optional(durationMs),
  /** Most times others may get in while a client still waits to get in for the first time: one more is starvation. */
  acquisitionsWhileWaitingMax: v.optional(count(B.acquisitionsWhileWaitingMax, 'acquisitions')),
  /** Keys where several clients hold the lock at once by their tokens (a string's value, a sorted set's members, a hash's fields). */
  holderKeys: v.optional(v.pipe(v.array(value), v.minLength(1, 'at least 1 key'), v.maxLength(8, 'at most 8 keys'))),
  /** How fast Lua runs on the virtual clock, and when others get BUSY. */
  scriptTiming: v.optional(
    v.strictObject({
      nsPerInstruction: v.pipe(v.number(), v.minValue(0, 'at least 0 ns'), v.maxValue(B.nsPerInstructionMax, `at most ${B.nsPerInstructionMax} ns`)),
      busyReplyThresholdMs: positiveDurationMs,
    }),
  ),
  /** The simulated Redis is a Redis Cluster: keys of one command or script must share a hash slot. */
  redisCluster: v.optional(v.boolean()),
  /** Commands run at time 0 before any client, e.g. [["SET", "stock", "1"]]. */
  setup: v.optional(
    v.pipe(
      v.array(v.pipe(args, v.minLength(1, 'a command needs its name'))),
      v.maxLength(B.setupCommandCountMax, `at most ${B.setupCommandCountMax} commands`),
    ),
  ),
  scripts: v.optional(scripts),
  counters: v.optional(counters),
  resources: v.optional(resources),
  /** Several Redis nodes and the client-node links (default: one node). */
  nodes: v.optional(nodes),
  links: v.optional(links),
  /** The checkers that watch the run (default: every one). */
  checkers: v.optional(kinds),
  /** Your own invariants and reachability goals, in the property expression language. */
  properties: v.optional(properties),
  /** In the schedule grammar of docs/SCHEDULES.md (default: empty). */
  defaultSchedule: v.optional(v.pipe(v.string(), v.maxLength(B.scheduleCharsMax, `at most ${B.scheduleCharsMax} characters`))),
  narration: v.optional(narration),
  variants: v.pipe(v.array(variantSchema), v.minLength(1, 'at least one variant'), v.maxLength(B.variantCountMax, `at most ${B.variantCountMax} variants`)),
  /** The variant shown first (default: the first). */
  defaultVariant: v.optional(id),
});

/** A scenario definition as JSON data (version 1), as a file or a link carries it. */
export type ScenarioDefinition = v.InferOutput<typeof definitionSchema>;
export type DefinitionVariant = ScenarioDefinition['variants'][number];
export type DefinitionClient = DefinitionVariant['clients'][number];
export type DefinitionStep = DefinitionClient['program'][number];
export type DefinitionText = v.InferOutput<typeof textSchema>;
