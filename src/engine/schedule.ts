/**
 * Schedules: who runs next, as data and as compact text (grammar in docs/SCHEDULES.md).
 *
 *   A        step client A once
 *   +6000    advance the virtual clock 6000 ms (also +6000ms, +6s)
 *   !A       crash client A
 *   A~6000   stall client A for 6000 ms (GC pause or network stall, injected from outside)
 *   A·1      step activity 1 of A (a timer's callback in A's process; async clients only)
 *
 *   $SET|k|v a command typed into the console (its words joined by |, each byte outside
 *            printable ASCII and every % , | written %HH): see console-choice.ts
 *
 * Tokens are separated by spaces and/or commas. Scenarios with several Redis nodes add node
 * faults (nodes are written `@r1`):
 *
 *   !@r1     crash node r1            ^@r1     restart r1 (with its data only if it fsyncs)
 *   @r2^     promote replica r2       A/@r1    partition A from r1      A|@r1   heal it
 *   A-@r1    lose A's next request to r1          @r1-A   lose r1's next reply to A
 *   @r3+2000 r3's clock jumps 2 s ahead (@r3-2000: back)   A@+2000   A's clock jumps
 *   @r2~5000 r2 now applies its primary's writes 5000 ms after they were made
 */
import { traceRef } from '../i18n';
import { activityOwner } from './activity';
import { consoleShapeProblem } from './console-choice';
import { decodeBytes, encodeString } from './redis/commands/bytes';

export type Choice =
  | { readonly kind: 'step'; readonly clientId: string }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'crash'; readonly clientId: string }
  | { readonly kind: 'stall'; readonly clientId: string; readonly ms: number }
  /** A command typed into the console, run on its own connection at the current instant. */
  | {
      readonly kind: 'console';
      readonly argv: readonly string[];
      /** In a scenario with several nodes, the node the console is connected to (`$@r1|GET|lock`). */
      readonly nodeId?: string;
    }
  | NodeChoice;

/** A fault on a node, a client-node link or a clock (scenarios with several nodes). */
export type NodeChoice =
  | { readonly kind: 'node-crash'; readonly nodeId: string }
  | { readonly kind: 'node-restart'; readonly nodeId: string }
  | { readonly kind: 'promote'; readonly nodeId: string }
  | { readonly kind: 'partition'; readonly clientId: string; readonly nodeId: string }
  | { readonly kind: 'heal'; readonly clientId: string; readonly nodeId: string }
  | { readonly kind: 'lose'; readonly clientId: string; readonly nodeId: string; readonly direction: 'request' | 'reply' }
  | { readonly kind: 'node-clock'; readonly nodeId: string; readonly ms: number }
  | { readonly kind: 'client-clock'; readonly clientId: string; readonly ms: number }
  | { readonly kind: 'replication-delay'; readonly nodeId: string; readonly ms: number };

const NODE_CHOICE_KINDS: ReadonlySet<Choice['kind']> = new Set(['node-crash', 'node-restart', 'promote', 'partition', 'heal', 'lose', 'node-clock', 'client-clock', 'replication-delay']);

export function isNodeChoice(choice: Choice): choice is NodeChoice {
  return NODE_CHOICE_KINDS.has(choice.kind);
}

/** Largest single clock move or stall: a day of virtual time. */
export const advanceMsMax = 86_400_000;
/** Longest schedule accepted from text (share links, CLI). */
export const scheduleChoiceCountMax = 10_000;

export class ScheduleSyntaxError extends Error {
  override name = 'ScheduleSyntaxError';
  constructor(
    message: string,
    readonly text: string,
    readonly offset: number,
    readonly token: string,
  ) {
    super(message);
  }
  /** The text with a caret under the bad token, for terminals. */
  pointer(): string {
    return `${this.text}\n${' '.repeat(this.offset)}${'^'.repeat(Math.max(1, this.token.length))}`;
  }
}

/** A client, or an activity of one (`A·1`: a timer's callback in A's process; engine/activity.ts). */
const CLIENT_ID = '[A-Za-z][A-Za-z0-9_]*(?:\u00B7[1-9][0-9]*)?';
const STEP = new RegExp(`^${CLIENT_ID}$`);
const CRASH = new RegExp(`^!(${CLIENT_ID})$`);
const STALL = new RegExp(`^(${CLIENT_ID})~([0-9]+)(ms|s)?$`);
const ADVANCE = /^\+([0-9]+)(ms|s)?$/;
const NODE = '@([A-Za-z][A-Za-z0-9_]*)';
const NODE_CRASH = new RegExp(`^!${NODE}$`);
const NODE_RESTART = new RegExp(`^\\^${NODE}$`);
const PROMOTE = new RegExp(`^${NODE}\\^$`);
const LINK = new RegExp(`^(${CLIENT_ID})([/|-])${NODE}$`);
const LOSE_REPLY = new RegExp(`^${NODE}-(${CLIENT_ID})$`);
const NODE_CLOCK = new RegExp(`^${NODE}([+-])([0-9]+)(ms|s)?$`);
const CLIENT_CLOCK = new RegExp(`^(${CLIENT_ID})@([+-])([0-9]+)(ms|s)?$`);
const REPLICATION_DELAY = new RegExp(`^${NODE}~([0-9]+)(ms|s)?$`);
const NODE_TOKEN_HELP = 'expected a node fault: !@r1 (crash), ^@r1 (restart), @r1^ (promote), A/@r1 (partition), A|@r1 (heal), A-@r1 or @r1-A (lose a message), @r1+ms or A@+ms (clock jump), @r1~ms (replication delay)';

function toMs(amount: string, unit: string | undefined): number {
  const n = Number(amount);
  return unit === 's' ? n * 1000 : n;
}

/**
 * Parses schedule text. `clientIds`, when given, must contain every client the schedule names.
 * Throws ScheduleSyntaxError pointing at the first bad token.
 */
export function parseSchedule(text: string, clientIds?: readonly string[], nodeIds?: readonly string[]): Choice[] {
  const choices: Choice[] = [];
  const tokenPattern = /[^\s,]+/g;
  let match: RegExpExecArray | null;
  const fail = (message: string, token: string, offset: number): never => {
    throw new ScheduleSyntaxError(`${message} at position ${offset + 1}: "${token}"`, text, offset, token);
  };
  while ((match = tokenPattern.exec(text)) !== null) {
    const token = match[0];
    const offset = match.index;
    if (choices.length >= scheduleChoiceCountMax) fail(`schedule longer than ${scheduleChoiceCountMax} choices`, token, offset);
    const checkClient = (id: string) => {
      // An activity (`A·2`) exists once A's code creates it: its owner must be a client.
      if (clientIds && !clientIds.includes(id) && !clientIds.includes(activityOwner(id))) {
        fail(`unknown client "${id}" (clients: ${clientIds.join(', ')})`, token, offset);
      }
    };
    const checkMs = (ms: number) => {
      if (!Number.isSafeInteger(ms) || ms <= 0 || ms > advanceMsMax) {
        fail(`duration must be between 1 and ${advanceMsMax} ms`, token, offset);
      }
    };
    if (token.startsWith('$')) {
      const choice = parseConsoleToken(token, (message) => fail(message, token, offset));
      if (choice.nodeId !== undefined && nodeIds && !nodeIds.includes(choice.nodeId)) {
        fail(nodeIds.length === 0 ? 'this scenario has one Redis node: the console is aimed at no node' : `unknown node "@${choice.nodeId}" (nodes: ${nodeIds.map((n) => `@${n}`).join(', ')})`, token, offset);
      }
      choices.push(choice);
      continue;
    }
    if (token.includes('@')) {
      choices.push(parseNodeToken(token, (message) => fail(message, token, offset), checkClient, nodeIds));
      continue;
    }
    let m: RegExpMatchArray | null;
    if ((m = token.match(ADVANCE))) {
      const ms = toMs(m[1], m[2]);
      checkMs(ms);
      choices.push({ kind: 'advance', ms });
    } else if ((m = token.match(CRASH))) {
      checkClient(m[1]);
      choices.push({ kind: 'crash', clientId: m[1] });
    } else if ((m = token.match(STALL))) {
      checkClient(m[1]);
      const ms = toMs(m[2], m[3]);
      checkMs(ms);
      choices.push({ kind: 'stall', clientId: m[1], ms });
    } else if (STEP.test(token)) {
      checkClient(token);
      choices.push({ kind: 'step', clientId: token });
    } else {
      fail('expected a client id (A), +ms (advance), !A (crash), A~ms (stall) or $CMD|arg (console)', token, offset);
    }
  }
  return choices;
}

/** Bytes a console word writes as themselves in canonical text (printable ASCII but % , |). */
const isPlainByte = (b: number) => b > 0x20 && b < 0x7f && b !== 0x25 && b !== 0x2c && b !== 0x7c;

/**
 * One console token: `$` then words separated by `|`, with %HH for any byte; with several nodes,
 * the first word is the node it is aimed at (`$@r1|GET|lock`; a command's own leading @ is %40).
 */
function parseConsoleToken(token: string, fail: (message: string) => never): Extract<Choice, { kind: 'console' }> {
  const aimed = /^\$@([A-Za-z0-9_-]+)\|/.exec(token);
  const argv = token
    .slice(aimed === null ? 1 : aimed[0].length)
    .split('|')
    .map((word) => {
      const bytes: number[] = [];
      for (let i = 0; i < word.length; ) {
        if (word[i] === '%') {
          const hex = word.slice(i + 1, i + 3);
          if (!/^[0-9A-Fa-f]{2}$/.test(hex)) fail('a console word writes % as %25 (and any byte as %HH)');
          bytes.push(parseInt(hex, 16));
          i += 3;
          continue;
        }
        const next = word.indexOf('%', i);
        const end = next < 0 ? word.length : next;
        for (const b of encodeString(word.slice(i, end))) bytes.push(b);
        i = end;
      }
      return decodeBytes(Uint8Array.from(bytes));
    });
  const problem = consoleShapeProblem(argv);
  if (problem !== null) fail(traceRef(problem));
  return aimed === null ? { kind: 'console', argv } : { kind: 'console', argv, nodeId: aimed[1] };
}

/** A console command as one token: `$SET|k|hello%20world`, `$@r1|GET|lock`. */
function formatConsoleToken(argv: readonly string[], nodeId: string | undefined): string {
  const words = argv.map((word, w) => {
    let out = '';
    for (const b of encodeString(word)) {
      // A command's own leading @ must not read as a node.
      const plain = isPlainByte(b) && !(w === 0 && out === '' && b === 0x40);
      out += plain ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    return out;
  });
  return `$${nodeId === undefined ? '' : `@${nodeId}|`}${words.join('|')}`;
}

/** One node-fault token (it has an `@`). */
function parseNodeToken(token: string, fail: (message: string) => never, checkClient: (id: string) => void, nodeIds: readonly string[] | undefined): NodeChoice {
  const checkNode = (id: string) => {
    if (nodeIds && !nodeIds.includes(id)) fail(nodeIds.length === 0 ? `this scenario has one Redis node and no node faults` : `unknown node "@${id}" (nodes: ${nodeIds.map((n) => `@${n}`).join(', ')})`);
    return id;
  };
  const ms = (amount: string, unit: string | undefined, minMs: number) => {
    const value = toMs(amount, unit);
    if (!Number.isSafeInteger(value) || value < minMs || value > advanceMsMax) fail(`duration must be between ${minMs} and ${advanceMsMax} ms`);
    return value;
  };
  let m: RegExpMatchArray | null;
  if ((m = token.match(NODE_CRASH))) return { kind: 'node-crash', nodeId: checkNode(m[1]) };
  if ((m = token.match(NODE_RESTART))) return { kind: 'node-restart', nodeId: checkNode(m[1]) };
  if ((m = token.match(PROMOTE))) return { kind: 'promote', nodeId: checkNode(m[1]) };
  if ((m = token.match(LINK))) {
    checkClient(m[1]);
    const link = { clientId: m[1], nodeId: checkNode(m[3]) };
    return m[2] === '/' ? { kind: 'partition', ...link } : m[2] === '|' ? { kind: 'heal', ...link } : { kind: 'lose', ...link, direction: 'request' };
  }
  if ((m = token.match(LOSE_REPLY))) {
    checkClient(m[2]);
    return { kind: 'lose', clientId: m[2], nodeId: checkNode(m[1]), direction: 'reply' };
  }
  if ((m = token.match(NODE_CLOCK))) return { kind: 'node-clock', nodeId: checkNode(m[1]), ms: (m[2] === '-' ? -1 : 1) * ms(m[3], m[4], 1) };
  if ((m = token.match(CLIENT_CLOCK))) {
    checkClient(m[1]);
    return { kind: 'client-clock', clientId: m[1], ms: (m[2] === '-' ? -1 : 1) * ms(m[3], m[4], 1) };
  }
  if ((m = token.match(REPLICATION_DELAY))) return { kind: 'replication-delay', nodeId: checkNode(m[1]), ms: ms(m[2], m[3], 0) };
  return fail(NODE_TOKEN_HELP);
}

const signed = (ms: number) => (ms < 0 ? `-${-ms}` : `+${ms}`);

export function formatChoice(choice: Choice): string {
  switch (choice.kind) {
    case 'node-crash':
      return `!@${choice.nodeId}`;
    case 'node-restart':
      return `^@${choice.nodeId}`;
    case 'promote':
      return `@${choice.nodeId}^`;
    case 'partition':
      return `${choice.clientId}/@${choice.nodeId}`;
    case 'heal':
      return `${choice.clientId}|@${choice.nodeId}`;
    case 'lose':
      return choice.direction === 'request' ? `${choice.clientId}-@${choice.nodeId}` : `@${choice.nodeId}-${choice.clientId}`;
    case 'node-clock':
      return `@${choice.nodeId}${signed(choice.ms)}`;
    case 'client-clock':
      return `${choice.clientId}@${signed(choice.ms)}`;
    case 'replication-delay':
      return `@${choice.nodeId}~${choice.ms}`;
    case 'step':
      return choice.clientId;
    case 'advance':
      return `+${choice.ms}`;
    case 'crash':
      return `!${choice.clientId}`;
    case 'stall':
      return `${choice.clientId}~${choice.ms}`;
    case 'console':
      return formatConsoleToken(choice.argv, choice.nodeId);
  }
}

/** The canonical text form: tokens separated by single spaces. parse(format(c)) deep-equals c. */
export function formatSchedule(choices: readonly Choice[]): string {
  return choices.map(formatChoice).join(' ');
}
