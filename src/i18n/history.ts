/**
 * The history checker's words (src/history), in every language: its violations, the input
 * problems it finds and what a recording cannot tell. The checker keeps each as a reference (a key
 * and its parameters) and words it in English with plain numbers for the CLI and the Node API
 * (`historyEnglish`); the page's history dialog words the same reference in the reader's language
 * (`historyText`), so the two cannot drift. A catalog of its own, like io.ts: the checker runs in a
 * worker and the dialog loads on demand, so these texts stay out of the first screen's JavaScript.
 * Terms follow zh-CN.ts: token and fencing token stay in English, the critical section is 临界区.
 */
import type { ParamName } from './catalog';
import { formatNumber, type Lang } from './translate';

export const historyEn = {
  // Violations
  hForeignOverwrote: "{client} overwrote {owner}'s lock",
  hForeignDeleted: "{client} deleted {owners}'s lock",
  hForeignWithToken: "{client} released {owner}'s lock with its token (two clients share one token?)",
  hForeignDelMayFollow: "{remover}'s DEL may have run after {client} acquired the lock",
  hMutexAcquired: "{second} acquired the lock while {first} still believed it held it (from {first}'s acquisition to its release)",
  hMutexEntered: '{second} entered the critical section while {first} was in it',
  hStaleLease: '{client} wrote {resource} with token {token} after {other} acquired the lock',
  hStaleFenced: '{client} wrote {resource} with fencing token {token} after {other} wrote it with {otherToken}',
  hNeverReleased: "{client}'s lock has no expiry and was never released: nobody else can acquire it",
  hHeldTooLong: '{client} held the lock {heldMs} ms longer than {limitMs} ms',
  hHeldPossiblyTooLong: '{client} held the lock possibly longer than {limitMs} ms',
  // Input problems
  hLineTooLong: 'a line of {size} characters, longer than the checker reads ({max}): skipped',
  hConnBackwards: "connection {conn}: endMs {endMs} is before the previous reply's {lastEndMs} on the same connection (a clock running backwards, or lines out of order)",
  hClockStepped: 'the wall clock moved {ms} ms away from its monotonic clock (stepped by NTP or by hand?): orders across it are less certain than they look',
  hNamedClockStepped: 'the wall clock of {clock} moved {ms} ms away from its monotonic clock (stepped by NTP or by hand?): orders across it are less certain than they look',
  hLate: 'starts before events the checker already passed (further out of order than its reorder buffer): checked in arrival order',
  hTooManyVersions: 'more than {max} versions of the lock could be live at once; forgot the one from line {line}',
  hDisplacedUnexplained: "{client}'s acquisition succeeded while {owner}'s lock (line {line}) should still have been there: a command the recording does not have removed it (an unrecorded client?)",
  hReleaseFoundNone: "{client}'s release found no lock with its token, yet line {line}'s lock should still have been there (an unrecorded client?)",
  hDelFoundNone: "{client}'s DEL found no key, yet line {line}'s lock should still have been there (an unrecorded client?)",
  hOwnRemovedAfter: '{client} removed its own lock (line {line}) after {other} acquired it (line {otherLine}): the replies contradict each other',
  // What the recording cannot tell
  hNoReplies: 'The recording has no replies (MONITOR): whether each command succeeded is worked out from the commands and the server clock, and what each client was told is unknown.',
  hEffectUnknown: 'Line {line} ({client}): {why}: its effect on the lock key is unknown, so who owned the lock after it is uncertain.',
  hWhyNamesKey: '{command} names the lock key',
  hWhyOnKey: '{command} on the lock key',
  hWhySetExpiry: 'SET ... {option} (an expiry the checker does not follow)',
  hWhyScriptUnseen: 'EVALSHA {sha}…: a script whose source the recording never showed (no EVAL or SCRIPT LOAD of it)',
  hWhyScriptShape: 'a script of a shape the checker does not recognise',
  hOrphanRemoved: 'Line {line}: {client} removed a lock value the recording never showed being written (written before the recording started, or by an unrecorded client).',
  hOrphanExtended: 'Line {line}: {client} extended a lock value the recording never showed being written (written before the recording started, or by an unrecorded client).',
  hNeverLetGo: '{client} (line {line}) never let go in the recording, and {other} went ahead at line {otherLine}: mutual exclusion if {client} was still running then; the recording cannot tell whether it had stopped.',
  hTooManyResources: 'More than {max} resources written: fencing order checked for the first {max} only.',
  hRepliesMissing: '{missing} of {total} commands have no reply: their success is inferred, and violations that depend on them are at most possible.',
  hNoLockKey: 'No SET ... NX in the history: no lock key found (give --lock-key).',
} as const;

export type HistoryMessageKey = keyof typeof historyEn;

/** The same sentences in Simplified Chinese, with the same parameters (tests/unit/i18n-history.test.ts). */
export const historyZh: { readonly [K in HistoryMessageKey]: string } = {
  hForeignOverwrote: '{client} 覆盖了 {owner} 的锁',
  hForeignDeleted: '{client} 删除了 {owners} 的锁',
  hForeignWithToken: '{client} 用 {owner} 的锁的 token 释放了这把锁（两个客户端共用一个 token？）',
  hForeignDelMayFollow: '{remover} 的 DEL 可能是在 {client} 拿到锁之后才执行的',
  hMutexAcquired: '{first} 仍以为自己持有锁时（从它拿到锁到它释放锁之间），{second} 拿到了锁',
  hMutexEntered: '{first} 仍在临界区内时，{second} 也进入了临界区',
  hStaleLease: '{other} 拿到锁之后，{client} 仍用 token {token} 写入了 {resource}',
  hStaleFenced: '{other} 已用 fencing token {otherToken} 写入 {resource} 之后，{client} 又用更小的 fencing token {token} 写入了它',
  hNeverReleased: '{client} 的锁没有过期时间，也从未释放：其他人再也拿不到这把锁',
  hHeldTooLong: '{client} 持有锁 {heldMs} 毫秒，超过了 {limitMs} 毫秒的上限',
  hHeldPossiblyTooLong: '{client} 持有锁的时间可能超过了 {limitMs} 毫秒的上限',
  hLineTooLong: '这一行有 {size} 个字符，超过了检查器能读取的长度（{max}）：已跳过',
  hConnBackwards: '连接 {conn}：endMs {endMs} 早于同一连接上前一个回复的 {lastEndMs}（时钟倒退了，或行的顺序乱了）',
  hClockStepped: '墙上时钟与它的单调时钟偏离了 {ms} 毫秒（被 NTP 或手动调整过？）：跨越这一刻的先后顺序没有看上去那么确定',
  hNamedClockStepped: '{clock} 的墙上时钟与它的单调时钟偏离了 {ms} 毫秒（被 NTP 或手动调整过？）：跨越这一刻的先后顺序没有看上去那么确定',
  hLate: '它开始于检查器已经处理过的事件之前（乱序超出了重排缓冲区的容量）：按到达顺序检查',
  hTooManyVersions: '可能同时存在的锁版本超过了 {max} 个；已丢弃第 {line} 行的那个',
  hDisplacedUnexplained: '{client} 拿到了锁，而 {owner} 的锁（第 {line} 行）此时本应还在：录制中没有的某条命令删除了它（有未录制的客户端？）',
  hReleaseFoundNone: '{client} 释放时没有找到带它 token 的锁，但第 {line} 行的锁此时本应还在（有未录制的客户端？）',
  hDelFoundNone: '{client} 的 DEL 没有找到这个键，但第 {line} 行的锁此时本应还在（有未录制的客户端？）',
  hOwnRemovedAfter: '{client} 在 {other} 拿到锁（第 {otherLine} 行）之后删除了自己的锁（第 {line} 行）：回复相互矛盾',
  hNoReplies: '录制中没有回复（MONITOR）：每条命令是否成功是根据命令和服务器时钟推算出来的，每个客户端当时收到了什么则无从得知。',
  hEffectUnknown: '第 {line} 行（{client}）：{why}：它对锁的键的影响未知，因此之后谁持有锁并不确定。',
  hWhyNamesKey: '{command} 涉及锁的键',
  hWhyOnKey: '对锁的键执行了 {command}',
  hWhySetExpiry: 'SET ... {option}（检查器不跟踪这种过期方式）',
  hWhyScriptUnseen: 'EVALSHA {sha}…：录制中从未出现过这个脚本的源码（没有它的 EVAL 或 SCRIPT LOAD）',
  hWhyScriptShape: '一个检查器认不出形态的脚本',
  hOrphanRemoved: '第 {line} 行：{client} 删除了一个录制中从未见到写入的锁值（在录制开始前写入，或由未录制的客户端写入）。',
  hOrphanExtended: '第 {line} 行：{client} 延长了一个录制中从未见到写入的锁值（在录制开始前写入，或由未录制的客户端写入）。',
  hNeverLetGo: '{client}（第 {line} 行）在录制中一直没有释放锁，而 {other} 在第 {otherLine} 行拿到了锁：如果那时 {client} 仍在运行，互斥就被破坏了；录制无法说明它是否已经停止。',
  hTooManyResources: '写入的资源超过 {max} 个：只检查了前 {max} 个资源的 fencing token 顺序。',
  hRepliesMissing: '{total} 条命令中有 {missing} 条没有回复：它们是否成功是推断出来的，依赖它们的违规最多只是“可能”。',
  hNoLockKey: '历史中没有 SET ... NX：找不到锁的键（请用 --lock-key 指定）。',
};

/** One of several clients (the owners a DEL may have removed): "A or B" in English, "A或B" in Chinese. */
export interface HistoryAlternatives {
  readonly anyOf: readonly string[];
}

/** A parameter: a name or token as it is, a number formatted per language, one of several, or a sentence inside the sentence. */
export type HistoryParam = string | number | HistoryAlternatives | HistoryMessageRef;

/** A checker sentence kept for later: its key and every parameter its English names. */
export type HistoryMessageRef = {
  [K in HistoryMessageKey]: [ParamName<(typeof historyEn)[K]>] extends [never]
    ? { readonly key: K; readonly params?: undefined }
    : { readonly key: K; readonly params: { readonly [P in ParamName<(typeof historyEn)[K]>]: HistoryParam } };
}[HistoryMessageKey];

const TEXTS: Readonly<Record<Lang, { readonly [K in HistoryMessageKey]: string }>> = { en: historyEn, zh: historyZh };
const ZH_OR = new Intl.ListFormat('zh-CN', { type: 'disjunction' });

/** English with plain numbers: the checker's `message`, what the CLI and the Node API print. */
export function historyEnglish(ref: HistoryMessageRef): string {
  return render(ref, 'en', true);
}

/** A checker sentence in `lang`, numbers formatted for the reader (the page's history dialog). */
export function historyText(ref: HistoryMessageRef, lang: Lang): string {
  return render(ref, lang, false);
}

function render(ref: HistoryMessageRef, lang: Lang, plainNumbers: boolean): string {
  const params: Readonly<Record<string, HistoryParam>> | undefined = ref.params;
  // An unknown parameter stays visible as `{name}`: a wrong call shows rather than vanishing.
  return TEXTS[lang][ref.key].replace(/\{([a-zA-Z]+)\}/g, (match, name: string) => {
    const value = params?.[name];
    if (value === undefined) return match;
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return plainNumbers ? String(value) : formatNumber(value, lang);
    // English joins with " or " whatever the count, as the checker always has; Chinese by Intl ("A、B或C").
    if ('anyOf' in value) return lang === 'en' ? value.anyOf.join(' or ') : ZH_OR.format(value.anyOf);
    return render(value, lang, plainNumbers);
  });
}
