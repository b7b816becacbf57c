import { describeEvent } from '../../engine/describe';
import { formatReplyShort } from '../../engine/redis/reply';
import type { Scenario, VariantSpec } from '../../engine/scenario';
import type { TraceEvent, ViolationEvent, ViolationKind } from '../../engine/trace';
import { translator, type Lang, type StringKey } from './index';

/** Replaces each client's token with `<A's token>` (or `<A 的 token>`) so values read like a lesson. */
export function tokenNamerFor(tokens: Readonly<Record<string, string>>, lang: Lang): (text: string) => string {
  const t = translator(lang);
  const entries = Object.entries(tokens).filter(([, token]) => token.length > 0);
  return (text) => {
    let out = text;
    for (const [clientId, token] of entries) out = out.split(token).join(t('tokenNamed', { id: clientId }));
    return out;
  };
}

/** Kinds with a translated label; a kind added to the engine later shows its id until it gets one. */
const KIND_KEYS: Partial<Record<ViolationKind, StringKey>> = {
  'foreign-release': 'kindForeignRelease',
  'mutual-exclusion': 'kindMutualExclusion',
  'lock-never-released': 'kindLockNeverReleased',
  oversell: 'kindOversell',
  'stale-write': 'kindStaleWrite',
  'duplicate-rebuild': 'kindDuplicateRebuild',
  'lock-held-too-long': 'kindLockHeldTooLong',
  'load-spike': 'kindLoadSpike',
};

export function violationKindLabel(kind: ViolationKind, lang: Lang): string {
  const key = KIND_KEYS[kind];
  return key ? translator(lang)(key) : kind;
}

/**
 * A violation in plain words. English is the checker's own message ("A deleted B's lock");
 * Chinese is written from the kind and the clients involved.
 */
export function violationMessage(v: ViolationEvent, lang: Lang): string {
  if (lang === 'en') return v.message;
  const t = translator(lang);
  const [a = '?', b = '?'] = v.clients;
  switch (v.violation) {
    case 'foreign-release':
      return t(v.lockAfter.value === null ? 'vForeignReleaseDeleted' : 'vForeignReleaseOverwrote', { a, b });
    case 'mutual-exclusion':
      return t('vMutualExclusion', { a, b });
    case 'lock-never-released':
      return t('vLockNeverReleased', { a });
    case 'oversell':
      return t('vOversell');
    case 'stale-write':
      return v.clients.length > 1 ? t('vStaleWrite', { a, b }) : t('vStaleWriteNobody', { a });
    case 'duplicate-rebuild':
      return t('vDuplicateRebuild', { a });
    case 'lock-held-too-long':
      return t('vLockHeldTooLong', { a });
    case 'load-spike':
      return t('vLoadSpike', { a });
    default:
      // A kind without a Chinese sentence yet: the checker's English words are better than nothing.
      return v.message;
  }
}

function argvText(argv: readonly string[]): string {
  return argv.map((a) => (/\s/.test(a) || a === '' ? JSON.stringify(a) : a)).join(' ');
}

/** Script source -> script name, so `EVAL <20 lines of Lua>` reads `EVAL compareAndDelete`. */
export type ScriptNames = Readonly<Record<string, string>>;

export function scriptNamesOf(scenario: Scenario, variant: VariantSpec): ScriptNames {
  const names: Record<string, string> = {};
  for (const [name, spec] of Object.entries({ ...(scenario.scripts ?? {}), ...(variant.scripts ?? {}) })) names[spec.source] = name;
  return names;
}

/** Replaces a script body in EVAL's argv with the script's name (lines stay one line). */
export function compactArgv(argv: readonly string[], scripts: ScriptNames): readonly string[] {
  if (argv.length > 1 && /^eval(_ro)?$/i.test(argv[0]) && argv[1] in scripts) return [argv[0], scripts[argv[1]], ...argv.slice(2)];
  return argv;
}

/** One event in the chosen language; tokens named by `name`, scripts by their names. */
export function describeEventIn(event: TraceEvent, lang: Lang, name: (text: string) => string, scripts: ScriptNames = {}): string {
  if (event.kind === 'command') {
    const argv = compactArgv(event.argv, scripts);
    if (argv !== event.argv) event = { ...event, argv };
  }
  if (lang === 'en') {
    if (event.kind === 'violation') return `VIOLATION: ${event.message}`;
    return describeEvent(event, name);
  }
  switch (event.kind) {
    case 'command':
      return event.reply === null
        ? `${name(argvText(event.argv))} → （回复将在 t=${event.replyAtMs} 到达）`
        : `${name(argvText(event.argv))} → ${name(formatReplyShort(event.reply))}`;
    case 'reply':
      return `收到回复：${name(formatReplyShort(event.reply))}`;
    case 'start':
      return event.by === null ? '开始运行' : `由 ${event.by} 启动`;
    case 'stall':
      return `进程 ${event.process} 暂停 ${event.durationMs} 毫秒（至 t=${event.untilMs}）${event.clients.length > 1 ? `：${event.clients.join('、')} 一同冻结` : ''}`;
    case 'expire':
      return `键 ${name(event.key)} 过期`;
    case 'wake': {
      const what = { work: '业务处理完成', sleep: '醒来', retry: '重试', hang: '醒来', reply: '回复到达', busy: 'Redis 开始处理它的命令', stall: '恢复运行' }[event.reason];
      return event.lateMs > 0 ? `${what}，晚了 ${event.lateMs} 毫秒：它的进程被暂停了` : what;
    }
    case 'clock':
      return event.reason === 'advance'
        ? `时钟前进 ${event.toMs - event.fromMs} 毫秒，到 t=${event.toMs}`
        : `时钟走到 t=${event.toMs}（唤醒）`;
    case 'enter':
      return '进入临界区';
    case 'leave':
      return '离开临界区';
    case 'end':
      return '结束';
    case 'branch':
      return event.taken ? `条件成立：跳到 ${event.goto}` : '条件不成立：继续';
    case 'set':
      return `${event.var} = ${name(event.value)}`;
    case 'block': {
      const what = { work: '处理业务', sleep: '休眠', retry: '等待重试', hang: '等待一个永远不会到来的响应', reply: '等待脚本的回复', busy: '等待：Redis 正在执行脚本' }[event.reason];
      return event.untilMs === null ? what : `${what} ${event.durationMs} 毫秒（至 t=${event.untilMs}）`;
    }
    case 'give-up':
      return event.reason === 'deadline' ? `放弃：下一次重试会超过截止时间（已重试 ${event.attempts} 次）` : `重试 ${event.attempts} 次后放弃`;
    case 'crash':
      return '崩溃';
    case 'write':
      return `向 ${event.resource} 写入 ${name(event.value)}${event.fencingToken ? `（防护令牌 ${event.fencingToken}）` : ''}：${
        event.accepted ? '已接受' : '被拒绝（防护令牌过期）'
      }`;
    case 'mark':
      return `在 ${event.counter} 上记一笔销售（累计 ${event.count}）`;
    case 'violation':
      return `违规：${violationMessage(event, 'zh')}`;
  }
}
