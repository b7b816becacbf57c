/**
 * The texts of the workbench's Import / export panel, in every language. A catalog of its own
 * because the panel loads on demand: these texts stay out of the first screen's JavaScript (the
 * main catalog, en.ts, is in it). Every language has every key (the type says so) and the same
 * parameters (tests/unit/io-file.test.ts).
 */
import { formatNumber, type Lang } from './translate';

const en = {
  ioExportHeading: 'Export',
  ioExportFile: 'Download as a JSON file',
  ioExportFileHelp: 'The scenario on screen with its variant, seed and schedule: import it here or in another browser (its "definition" is what the CLI and the Node API read).',
  ioExportVitest: 'Download a Vitest test',
  ioExportPlaywright: 'Download a Playwright spec',
  ioExportTestHelp: 'The run on screen as a regression test for your project (with the lockstep package installed): it replays the run and expects the same violations at the same steps.',
  ioExportUnavailable: 'This scenario cannot be exported: one of its clients runs code outside the engine.',
  ioLinkBuiltin: 'Copy link names this lesson: anyone with Lockstep can open it.',
  ioLinkEncoding: 'Preparing the link…',
  ioLinkReady: 'Copy link carries this whole scenario ({chars} characters of at most {max}).',
  ioLinkTooLong: 'This scenario is too large for a link ({chars} characters; at most {max}): share the JSON file instead.',
  ioImportHeading: 'Import',
  ioImportChoose: 'Import a file…',
  ioImportChecking: 'Checking {file}…',
  ioImportInvalid: '{file} was not imported. Nothing changed. Problems:',
  ioImportTooBig: 'the file is {size} bytes; at most {max} are read',
  ioImportNotText: 'the file could not be read as text',
  ioImportClash: 'My scenarios already has “{name}”. Replace it with the file, keep both, or cancel?',
  ioImportReplace: 'Replace',
  ioImportKeepBoth: 'Keep both',
  ioImportCancel: 'Cancel',
  ioImported: 'Imported “{name}” into My scenarios and opened it.',
  ioWholeFile: '(the file)',
  ioImportDrop: 'or drop a scenario file (.json, at most {max} bytes) or a recorded history (.jsonl or MONITOR text, at most {historyMax} bytes) here',
  historyTitle: 'History: {file}',
  historyChecking: 'Checking the history {file}…',
  historyTooBig: '{file} is {size} bytes; the page checks histories of at most {max} bytes. Check it with the CLI: npx lockstep check {file}',
  historyFailed: '{file} could not be checked: {message}',
  historyReadOnly: 'Read-only: a recorded history, checked for lock violations. The run on screen is unchanged.',
  historySummary: '{lines} lines, {commands} commands, {marks} marks, {clients} clients; lock key: {key}',
  historyNoLockKey: '(none found)',
  historyFormatMonitor: 'MONITOR text: commands only, their replies worked out on the simulated Redis.',
  historyVerdictNone: 'No violation found.',
  historyVerdictSome: '{count} violation(s):',
  historyNotListed: '… and {count} more not listed.',
  historyCertain: 'certain',
  historyPossible: 'possible',
  historyKind_foreign_release: 'Foreign release',
  historyKind_mutual_exclusion: 'Mutual exclusion',
  historyKind_stale_write: 'Stale write',
  historyKind_lock_never_released: 'Lock never released',
  historyKind_lock_held_too_long: 'Lock held too long',
  historyEvidence: 'Evidence (line: client: event):',
  historyProblems: 'Problems in the file:',
  historyUnknowns: 'What the recording cannot tell:',
  historyLanes: 'Timeline: one lane per client, the lock key\'s commands on the Redis row; red: a violation\'s evidence.',
  historyRedisRow: 'Redis (lock key)',
  historyEventsNotShown: 'The first {shown} events are drawn; {count} more are not (the verdict covers them all).',
  historyClose: 'Close',
} as const;

export type IoTextKey = keyof typeof en;

const zh: { readonly [K in IoTextKey]: string } = {
  ioExportHeading: '导出',
  ioExportFile: '下载为 JSON 文件',
  ioExportFileHelp: '屏幕上的场景及其变体、种子和调度：可以在这里或其他浏览器里导入（其中的 "definition" 可以交给命令行和 Node API）。',
  ioExportVitest: '下载 Vitest 测试',
  ioExportPlaywright: '下载 Playwright 测试',
  ioExportTestHelp: '把屏幕上的运行导出为你项目里的回归测试（需安装 lockstep 包）：它重放这次运行，并期望在同样的步骤出现同样的违规。',
  ioExportUnavailable: '这个场景无法导出：它的某个客户端运行的是引擎之外的代码。',
  ioLinkBuiltin: '“复制链接”指向这一课：任何有 Lockstep 的人都能打开。',
  ioLinkEncoding: '正在生成链接…',
  ioLinkReady: '“复制链接”携带整个场景（{chars} 个字符，最多 {max} 个）。',
  ioLinkTooLong: '这个场景太大，放不进链接（{chars} 个字符；最多 {max} 个）：请改为分享 JSON 文件。',
  ioImportHeading: '导入',
  ioImportChoose: '导入文件…',
  ioImportChecking: '正在检查 {file}…',
  ioImportInvalid: '{file} 没有导入，什么都没有改变。问题：',
  ioImportTooBig: '文件有 {size} 字节；最多读取 {max} 字节',
  ioImportNotText: '无法把文件读成文本',
  ioImportClash: '“我的场景”里已有“{name}”。用文件替换它、两个都保留，还是取消？',
  ioImportReplace: '替换',
  ioImportKeepBoth: '都保留',
  ioImportCancel: '取消',
  ioImported: '已把“{name}”导入“我的场景”并打开。',
  ioWholeFile: '（整个文件）',
  ioImportDrop: '或把场景文件（.json，最多 {max} 字节）或录制的历史（.jsonl 或 MONITOR 文本，最多 {historyMax} 字节）拖放到这里',
  historyTitle: '历史：{file}',
  historyChecking: '正在检查历史 {file}…',
  historyTooBig: '{file} 有 {size} 字节；页面只检查最多 {max} 字节的历史。请用命令行检查：npx lockstep check {file}',
  historyFailed: '无法检查 {file}：{message}',
  historyReadOnly: '只读：一段录制的历史，已检查锁的违规。屏幕上的运行没有改变。',
  historySummary: '{lines} 行，{commands} 条命令，{marks} 个标记，{clients} 个客户端；锁的键：{key}',
  historyNoLockKey: '（未找到）',
  historyFormatMonitor: 'MONITOR 文本：只有命令，回复是在模拟的 Redis 上推算出来的。',
  historyVerdictNone: '没有发现违规。',
  historyVerdictSome: '{count} 个违规：',
  historyNotListed: '……另有 {count} 个未列出。',
  historyCertain: '确定',
  historyPossible: '可能',
  historyKind_foreign_release: '释放了别人的锁',
  historyKind_mutual_exclusion: '互斥被破坏',
  historyKind_stale_write: '过期写入',
  historyKind_lock_never_released: '锁从未释放',
  historyKind_lock_held_too_long: '锁持有过久',
  historyEvidence: '证据（行：客户端：事件）：',
  historyProblems: '文件中的问题：',
  historyUnknowns: '录制无法说明的：',
  historyLanes: '时间线：每个客户端一条泳道，锁的键上的命令在 Redis 行；红色：违规的证据。',
  historyRedisRow: 'Redis（锁的键）',
  historyEventsNotShown: '只画出了前 {shown} 个事件；另有 {count} 个没有画出（结论涵盖全部事件）。',
  historyClose: '关闭',
};

export const IO_TEXTS: Readonly<Record<Lang, { readonly [K in IoTextKey]: string }>> = { en, zh };

/** A panel text in `lang`, `{name}` replaced (numbers formatted for the language). */
export function ioText(lang: Lang, key: IoTextKey, params: Readonly<Record<string, string | number>> = {}): string {
  return IO_TEXTS[lang][key].replace(/\{([a-zA-Z]+)\}/g, (match, name: string) => {
    const value = params[name];
    if (value === undefined) return match;
    return typeof value === 'number' ? formatNumber(value, lang) : value;
  });
}
