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
  ioImportDrop: 'or drop a scenario file (.json, at most {max} bytes) here',
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
  ioImportDrop: '或把场景文件（.json，最多 {max} 字节）拖放到这里',
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
