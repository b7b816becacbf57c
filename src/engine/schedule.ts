/**
 * Schedules: who runs next, as data and as compact text (grammar in docs/SCHEDULES.md).
 *
 *   A        step client A once
 *   +6000    advance the virtual clock 6000 ms (also +6000ms, +6s)
 *   !A       crash client A
 *   A~6000   stall client A for 6000 ms (GC pause or network stall, injected from outside)
 *
 * Tokens are separated by spaces and/or commas.
 */
export type Choice =
  | { readonly kind: 'step'; readonly clientId: string }
  | { readonly kind: 'advance'; readonly ms: number }
  | { readonly kind: 'crash'; readonly clientId: string }
  | { readonly kind: 'stall'; readonly clientId: string; readonly ms: number };

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

const CLIENT_ID = '[A-Za-z][A-Za-z0-9_]*';
const STEP = new RegExp(`^${CLIENT_ID}$`);
const CRASH = new RegExp(`^!(${CLIENT_ID})$`);
const STALL = new RegExp(`^(${CLIENT_ID})~([0-9]+)(ms|s)?$`);
const ADVANCE = /^\+([0-9]+)(ms|s)?$/;

function toMs(amount: string, unit: string | undefined): number {
  const n = Number(amount);
  return unit === 's' ? n * 1000 : n;
}

/**
 * Parses schedule text. `clientIds`, when given, must contain every client the schedule names.
 * Throws ScheduleSyntaxError pointing at the first bad token.
 */
export function parseSchedule(text: string, clientIds?: readonly string[]): Choice[] {
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
      if (clientIds && !clientIds.includes(id)) {
        fail(`unknown client "${id}" (clients: ${clientIds.join(', ')})`, token, offset);
      }
    };
    const checkMs = (ms: number) => {
      if (!Number.isSafeInteger(ms) || ms <= 0 || ms > advanceMsMax) {
        fail(`duration must be between 1 and ${advanceMsMax} ms`, token, offset);
      }
    };
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
      fail('expected a client id (A), +ms (advance), !A (crash) or A~ms (stall)', token, offset);
    }
  }
  return choices;
}

export function formatChoice(choice: Choice): string {
  switch (choice.kind) {
    case 'step':
      return choice.clientId;
    case 'advance':
      return `+${choice.ms}`;
    case 'crash':
      return `!${choice.clientId}`;
    case 'stall':
      return `${choice.clientId}~${choice.ms}`;
  }
}

/** The canonical text form: tokens separated by single spaces. parse(format(c)) deep-equals c. */
export function formatSchedule(choices: readonly Choice[]): string {
  return choices.map(formatChoice).join(' ');
}
