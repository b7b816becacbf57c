/**
 * The trace in words, in any language of the catalog: the page's event log and narration, and the
 * CLI's timeline. Values read like a lesson: a client's token is `<A's token>`, a script body is
 * its name.
 */
import { translator, violationText, type Lang, type Translate } from '../i18n';
import { displayBytes, quoteForDisplay } from './redis/commands/bytes';
import { formatReplyShort } from './redis/reply';
import type { Scenario, VariantSpec } from './scenario';
import type { TraceEvent } from './trace';

/** Script source -> script name, so `EVAL <20 lines of Lua>` reads `EVAL compareAndDelete`. */
export type ScriptNames = Readonly<Record<string, string>>;

export function scriptNamesOf(scenario: Scenario, variant: VariantSpec): ScriptNames {
  const names: Record<string, string> = {};
  for (const [name, spec] of Object.entries({ ...(scenario.scripts ?? {}), ...(variant.scripts ?? {}) })) names[spec.source] = name;
  return names;
}

export interface DescribeOptions {
  readonly lang: Lang;
  /** clientId -> token: each token in a value reads as that client's token. */
  readonly tokens?: Readonly<Record<string, string>>;
  readonly scripts?: ScriptNames;
}

/** Replaces each client's token with `<A's token>` (`<A 的 token>`). */
export function tokenNamer(tokens: Readonly<Record<string, string>>, lang: Lang): (text: string) => string {
  const t = translator(lang);
  const entries = Object.entries(tokens).filter(([, token]) => token.length > 0);
  if (entries.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const [clientId, token] of entries) out = out.split(token).join(t('tokenNamed', { id: clientId }));
    return out;
  };
}

const scriptBodyShownMax = 48;

/** A command line as redis-cli would echo it; a script body is its name, or its first line cut short. */
export function commandText(argv: readonly string[], scripts: ScriptNames = {}): string {
  const isScript = /^eval(_ro)?$/i.test(argv[0] ?? '');
  return argv
    .map((arg, i) => {
      let text = arg;
      if (isScript && i === 1) {
        if (Object.hasOwn(scripts, arg)) return scripts[arg];
        if (text.includes('\n') || text.length > scriptBodyShownMax) text = `${text.split('\n')[0].slice(0, scriptBodyShownMax)}…`;
      }
      return /\s/.test(text) || text === '' ? quoteForDisplay(text) : displayBytes(text);
    })
    .join(' ');
}

/** A function that says one event in words; build it once per run and language. */
export function eventDescriber(options: DescribeOptions): (event: TraceEvent) => string {
  const { lang } = options;
  const t = translator(lang);
  const name = tokenNamer(options.tokens ?? {}, lang);
  const scripts = options.scripts ?? {};
  return (event) => describe(event, t, name, scripts, lang);
}

const BLOCK_KEYS = {
  work: 'evBlockWork',
  sleep: 'evBlockSleep',
  retry: 'evBlockRetry',
  hang: 'evBlockHang',
  reply: 'evBlockReply',
  busy: 'evBlockBusy',
  message: 'evBlockMessage',
  network: 'evBlockNetwork',
  await: 'evBlockAwait',
  pop: 'evBlockPop',
} as const;
const WAKE_KEYS = {
  work: 'evWakeWork',
  sleep: 'evWakeSleep',
  retry: 'evWakeRetry',
  hang: 'evWakeSleep',
  reply: 'evWakeReply',
  busy: 'evWakeBusy',
  network: 'evWakeNetwork',
  await: 'evWakeAwait',
  pop: 'evWakePop',
  stall: 'evWakeStall',
  message: 'evWakeMessage',
  timeout: 'evWakeTimeout',
} as const;

const DROP_CAUSES = { partition: 'causePartition', loss: 'causeLoss', 'node-down': 'causeNodeDown', 'not-serving': 'causeNotServing', late: 'causeLate', 'client-gone': 'causeClientGone' } as const;

/** A list of keys, or "none". */
function keyList(keys: readonly string[], t: Translate, name: (text: string) => string): string {
  return keys.length === 0 ? t('evNone') : keys.map((k) => name(displayBytes(k))).join(', ');
}

/** Events of the network, the nodes and replication (scenarios with several nodes). */
function describeNodeEvent(event: Extract<TraceEvent, { kind: 'send' | 'drop' | 'replicate' | 'fault' }>, t: Translate, name: (text: string) => string, scripts: ScriptNames): string {
  switch (event.kind) {
    case 'send': {
      const command = name(commandText(event.argv, scripts));
      return event.arriveAtMs === null ? t('evSendLost', { command, node: event.node }) : t('evSend', { command, node: event.node, arriveAtMs: event.arriveAtMs });
    }
    case 'drop': {
      const params = { command: name(commandText(event.argv, scripts)), node: event.node, cause: t(DROP_CAUSES[event.cause]) };
      return event.message === 'request' ? t('evDropRequest', params) : t('evDropReply', params);
    }
    case 'replicate': {
      const params = { node: event.node, from: event.from, offset: event.offset, keys: keyList(event.keys, t, name) };
      return event.full ? t('evReplicateFull', params) : t('evReplicate', params);
    }
    case 'fault': {
      const node = event.node ?? '';
      const keys = keyList(event.lostKeys ?? [], t, name);
      const lost = (event.lostKeys ?? []).length > 0;
      switch (event.fault) {
        case 'node-crash':
          return lost ? t('evNodeCrashLost', { node, keys }) : t('evNodeCrash', { node });
        case 'node-restart':
          return (
            (event.withData ? t('evNodeRestartData', { node }) : t('evNodeRestartEmpty', { node, keys })) +
            (event.servingFromMs === undefined ? '' : t('evNodeServingFrom', { ms: event.servingFromMs }))
          );
        case 'promote':
          return lost ? t('evPromoteLost', { node, previous: event.previous ?? '', keys }) : t('evPromote', { node, previous: event.previous ?? '' });
        case 'partition':
          return t('evPartition', { node });
        case 'heal':
          return t('evHeal', { node });
        case 'lose-next':
          return event.direction === 'reply' ? t('evLoseNextReply', { node }) : t('evLoseNextRequest', { node });
        case 'clock-jump': {
          const ms = `${(event.ms ?? 0) >= 0 ? '+' : ''}${event.ms ?? 0}`;
          return event.node === null ? t('evClientClockJump', { ms }) : t('evNodeClockJump', { node, ms });
        }
        case 'replication-delay':
          return t('evReplicationDelay', { node, ms: event.ms ?? 0 });
      }
    }
  }
}

function describe(event: TraceEvent, t: Translate, name: (text: string) => string, scripts: ScriptNames, lang: Lang): string {
  const text = describeOnNode(event, t, name, scripts, lang);
  // A command, reply or expiry on a node says which (several nodes only).
  return 'node' in event && event.node !== undefined && event.node !== null && (event.kind === 'command' || event.kind === 'reply' || event.kind === 'expire') ? t('evAtNode', { node: event.node, text }) : text;
}

function describeOnNode(event: TraceEvent, t: Translate, name: (text: string) => string, scripts: ScriptNames, lang: Lang): string {
  switch (event.kind) {
    case 'send':
    case 'drop':
    case 'replicate':
    case 'fault':
      return describeNodeEvent(event, t, name, scripts);
    case 'command':
      return event.reply === null
        ? t('evCommandPending', { command: name(commandText(event.argv, scripts)), replyAtMs: event.replyAtMs ?? event.atMs })
        : t('evCommand', { command: name(commandText(event.argv, scripts)), reply: name(formatReplyShort(event.reply)) });
    case 'reply':
      return event.timeout ? t('evReplyTimeout') : t('evReply', { reply: name(formatReplyShort(event.reply)) });
    case 'start':
      return event.by === null ? t('evStart') : t('evStartBy', { by: event.by });
    case 'clock':
      return event.reason === 'advance' ? t('evClockAdvance', { ms: event.toMs - event.fromMs, toMs: event.toMs }) : t('evClockWake', { toMs: event.toMs });
    case 'enter':
      return t('evEnter');
    case 'leave':
      return t('evLeave');
    case 'end':
      return t('evEnd');
    case 'branch':
      return event.taken ? t('evBranchTaken', { label: event.goto }) : t('evBranchNotTaken');
    case 'set':
      return t('evSet', { name: event.var, value: name(event.value) });
    case 'block':
      if (event.untilMs === null) return event.reason === 'network' ? t('evBlockNetworkForever') : event.reason === 'await' ? t('evBlockAwait') : event.reason === 'pop' ? t('evBlockPopForever') : t('evBlockHang');
      return t(BLOCK_KEYS[event.reason], { ms: event.durationMs ?? 0, untilMs: event.untilMs });
    case 'wake': {
      const what = t(WAKE_KEYS[event.reason]);
      return event.lateMs > 0 ? t('evWakeLate', { what, ms: event.lateMs }) : what;
    }
    case 'stall':
      return event.clients.length > 1
        ? t('evStallProcess', { process: event.process, ms: event.durationMs, untilMs: event.untilMs, clients: event.clients.join(', ') })
        : t('evStall', { ms: event.durationMs, untilMs: event.untilMs });
    case 'expire':
      return t('evExpire', { key: name(event.key) });
    case 'message':
      return t('evMessage', { payload: name(quoteForDisplay(event.payload)), channel: name(displayBytes(event.channel)), connection: event.connection });
    case 'give-up':
      return event.reason === 'deadline' ? t('evGiveUpDeadline', { n: event.attempts }) : t('evGiveUp', { n: event.attempts });
    case 'crash':
      return t('evCrash');
    case 'write': {
      const verdict = event.accepted ? t('evWriteAccepted') : t('evWriteRejected');
      const value = name(event.value);
      return event.fencingToken
        ? t('evWriteFenced', { value, resource: event.resource, fencingToken: event.fencingToken, verdict })
        : t('evWrite', { value, resource: event.resource, verdict });
    }
    case 'mark':
      return t('evMark', { counter: event.counter, count: event.count });
    case 'violation':
      return t('evViolation', { message: violationText(event.violation, event.message, lang) });
  }
}
