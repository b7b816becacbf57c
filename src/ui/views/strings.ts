import type { ViolationKind } from '../../engine/trace';
import type { BlockReason, PointKind, ViolationMarker } from './timeline-model';
import { partsText, type TextPart } from './text-parts';
import type { ViewLang } from './types';

/** The words of the timeline and sequence views, in both languages. `{x}` is a parameter. */
const en = {
  timeline: 'Timeline',
  timelineLabel: 'Timeline of the run: one row per client and one for Redis',
  sequence: 'Sequence diagram',
  sequenceLabel: 'Sequence diagram of the run: clients and Redis as columns, commands as arrows',
  client: 'Client {id}',
  redis: 'Redis',
  redisKey: 'key {key}',
  believes: '{id} believes it holds the lock',
  believesShort: 'believes it holds the lock',
  stale: 'but Redis says {holder}',
  staleFree: 'but the lock is gone',
  redisHolds: 'Redis: {id} holds the lock',
  redisHoldsNobody: 'Redis: lock held (no client)',
  lease: 'lease to t={ms}',
  leaseNoExpiry: 'no expiry',
  leaseDeleted: 'deleted by {id}',
  leaseOverwritten: 'overwritten by {id}',
  leaseRenewed: 'renewed',
  expires: 'expires t={ms}',
  wouldExpire: 'would expire t={ms}',
  expired: 'expired',
  runEnd: 'end of run',
  now: 't = {ms} ms',
  tokenOf: "<{id}'s token>",
  script: '‹Lua script›',
  stepMark: 'Step {step}, {id}: {command} → {reply}',
  stepMarkFuture: '(not yet)',
  violationMark: 'Violation at step {step}: {message}',
  clockMark: 'Step {step}: clock advances {ms} ms to t={to}',
  clockJump: 't = {ms} ms',
  clockAdvance: '+{ms} ms',
  wakes: '{id} wakes up',
  criticalSection: 'in critical section',
  enter: 'enters critical section',
  leave: 'leaves critical section',
  legendBelief: 'client believes it holds the lock',
  legendTruth: 'Redis says this client holds the lock',
  legendStale: 'belief Redis does not share',
  legendLease: 'lease (TTL)',
  legendViolation: 'violation',
  legendFuture: 'after the cursor: not yet happened',
  exportSvg: 'Export {what} as SVG',
  exportPng: 'Export {what} as PNG',
  exportFailed: 'Export failed: {reason}',
  empty: 'Nothing has happened yet.',
} as const;

export type ViewStringKey = keyof typeof en;

const zh: Record<ViewStringKey, string> = {
  timeline: '时间线',
  timelineLabel: '运行时间线：每个客户端一行，Redis 一行',
  sequence: '时序图',
  sequenceLabel: '运行时序图：客户端和 Redis 为列，命令为箭头',
  client: '客户端 {id}',
  redis: 'Redis',
  redisKey: '键 {key}',
  believes: '{id} 认为自己持有锁',
  believesShort: '认为自己持有锁',
  stale: '但 Redis 说是 {holder}',
  staleFree: '但锁已不存在',
  redisHolds: 'Redis：{id} 持有锁',
  redisHoldsNobody: 'Redis：锁被占用（非客户端）',
  lease: '租期至 t={ms}',
  leaseNoExpiry: '无过期时间',
  leaseDeleted: '被 {id} 删除',
  leaseOverwritten: '被 {id} 覆盖',
  leaseRenewed: '已续期',
  expires: 't={ms} 过期',
  wouldExpire: '本应在 t={ms} 过期',
  expired: '已过期',
  runEnd: '运行结束',
  now: 't = {ms} 毫秒',
  tokenOf: '<{id} 的 token>',
  script: '‹Lua 脚本›',
  stepMark: '第 {step} 步，{id}：{command} → {reply}',
  stepMarkFuture: '（尚未发生）',
  violationMark: '第 {step} 步违规：{message}',
  clockMark: '第 {step} 步：时钟前进 {ms} 毫秒，到 t={to}',
  clockJump: 't = {ms} 毫秒',
  clockAdvance: '+{ms} 毫秒',
  wakes: '{id} 醒来',
  criticalSection: '在临界区内',
  enter: '进入临界区',
  leave: '离开临界区',
  legendBelief: '客户端认为自己持有锁',
  legendTruth: 'Redis 认为该客户端持有锁',
  legendStale: 'Redis 并不认同的“持有”',
  legendLease: '租期（TTL）',
  legendViolation: '违规',
  legendFuture: '光标之后：尚未发生',
  exportSvg: '将{what}导出为 SVG',
  exportPng: '将{what}导出为 PNG',
  exportFailed: '导出失败：{reason}',
  empty: '还什么都没有发生。',
};

const TABLES: Record<ViewLang, Record<ViewStringKey, string>> = { en, zh };

export type ViewT = (key: ViewStringKey, params?: Readonly<Record<string, string | number>>) => string;

export function viewT(lang: ViewLang): ViewT {
  const table = TABLES[lang] ?? en;
  return (key, params) => {
    const template = table[key];
    if (!params) return template;
    return template.replace(/\{([a-zA-Z]+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
  };
}

const BLOCK_WORDS: Record<ViewLang, Record<BlockReason, string>> = {
  en: { work: 'work', sleep: 'sleep', retry: 'retry wait', hang: 'hung: no reply', reply: 'awaiting reply', busy: 'Redis busy', stall: 'process paused' },
  zh: { work: '业务处理', sleep: '休眠', retry: '等待重试', hang: '卡住：无响应', reply: '等待回复', busy: 'Redis 忙', stall: '进程暂停' },
};

export function blockLabel(reason: BlockReason, durationMs: number | null, lang: ViewLang): string {
  return durationMs === null ? BLOCK_WORDS[lang][reason] : `${BLOCK_WORDS[lang][reason]} ${formatDuration(durationMs, lang)}`;
}

const POINT_WORDS: Record<ViewLang, Record<PointKind, string>> = {
  en: { enter: 'enters', leave: 'leaves', end: 'done', crash: 'crashed', 'give-up': 'gave up', write: 'writes', mark: 'sale' },
  zh: { enter: '进入', leave: '离开', end: '结束', crash: '崩溃', 'give-up': '放弃', write: '写入', mark: '销售' },
};

export function pointLabel(kind: PointKind, lang: ViewLang): string {
  return POINT_WORDS[lang][kind];
}

/** "6000 ms" reads better as "6 s" on a projector once it is a whole number of seconds. */
export function formatDuration(ms: number, lang: ViewLang): string {
  const unit = lang === 'zh' ? { s: ' 秒', ms: ' 毫秒' } : { s: ' s', ms: ' ms' };
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000}${unit.s}`;
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)}${unit.s}`;
  return `${ms}${unit.ms}`;
}

/** Parts as plain text in `lang` (accessible names, titles, export). */
export function textOf(parts: readonly TextPart[], lang: ViewLang): string {
  const t = viewT(lang);
  return partsText(
    parts,
    (owner) => t('tokenOf', { id: owner }),
    () => t('script'),
  );
}

const VIOLATION_ZH: Partial<Record<ViolationKind, (v: ViolationMarker) => string>> = {
  'foreign-release': (v) => `${v.clients[0]} ${v.deleted ? '删除' : '覆盖'}了 ${v.clients[1] ?? '?'} 的锁`,
  'mutual-exclusion': (v) => `${v.clients[0]} 进入临界区时 ${v.clients[1] ?? '?'} 仍在其中`,
  'lock-never-released': (v) => `${v.clients[0]} 持有一把没有过期时间的锁就停止了：再也没人能加锁`,
  oversell: () => '超卖：卖出的数量超过了库存',
  'stale-write': (v) =>
    v.clients.length > 1 ? `${v.clients[0]} 在租约已转给 ${v.clients[1]} 之后写入了受保护资源` : `${v.clients[0]} 在租约过期之后写入了受保护资源`,
};

/** The violation in plain words: the checker's English message, or Chinese written from its kind. */
export function violationText(v: ViolationMarker, lang: ViewLang): string {
  if (lang === 'en') return v.message;
  const zhText = VIOLATION_ZH[v.kind];
  return zhText ? zhText(v) : v.message;
}
