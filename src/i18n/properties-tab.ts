/**
 * Texts of the workbench's Properties tab, in both languages, and its verdicts in words. Only the
 * workbench (loaded on demand) imports this file, so none of it is first-screen code. A verdict's
 * sentence is the explorer's own (explore.ts: the CLI prints the same words); this file adds
 * what the tab shows beside it: its status, the bounds searched and what cut the search.
 * The shapes are the engine's (engine/explore/properties.ts), restated so the catalog imports nothing.
 */
import { boundsText, searchCutText, type BoundsInput } from './explore';
import { translator, type Lang } from './translate';

const en = {
  tab: 'Properties',
  intro:
    'Your own properties, in a small expression language over one event at a time: "always" must hold at every event (the run reports a property violation where it does not), "reachable" is a goal some schedule must reach. Check properties searches the schedules within the scenario\'s bounds, one search per property.',
  empty: 'This scenario states no properties yet. Add one below, for example an invariant named one-inside:',
  exampleAlways: 'not (clients.A.inside and clients.B.inside)',
  useExample: 'Fill in this example',
  emptyMore: 'Paths: event.kind, event.client, event.command, event.args[0], event.reply, lock.before, lock.after, lock.holder, lock.pttlMs, clients.<id>.inside, clients.<id>.status; operators: == != < <= > >=, and, or, not.',
  list: 'Properties of this scenario',
  kindAlways: 'always',
  kindReachable: 'reachable',
  edit: 'Edit',
  remove: 'Remove',
  editNamed: 'Edit {name}',
  removeNamed: 'Remove {name}',
  formAdd: 'Add a property',
  formEdit: 'Edit property {name}',
  name: 'Name',
  nameHelp: 'Letters, digits, - and _.',
  kind: 'Kind',
  kindAlwaysLong: 'always: an invariant at every event',
  kindReachableLong: 'reachable: a goal some schedule reaches',
  expression: 'Expression',
  parses: 'Parses.',
  problemAt: 'Column {column}: {message}',
  add: 'Add property',
  save: 'Save property',
  cancelEdit: 'Cancel',
  check: 'Check properties',
  stop: 'Stop',
  checking: 'Searching property {index} of {count}: {states} states so far…',
  checkError: 'The check could not run: {message}',
  stale: 'Check properties searches this scenario, variant and seed; an edit or another run clears the verdicts.',
  verdicts: 'Verdicts',
  statusViolated: 'violated',
  statusHeld: 'held',
  statusReached: 'reached',
  statusNotReached: 'not reached',
  load: 'Load this run',
  loadTitle: 'Load the shortest schedule into the run, at step 0',
  within: 'Searched: {bounds}.',
  exhaustive: 'Exhaustive: every state within these bounds was searched.',
  cutBy: 'Not exhaustive, cut by: {cuts}.',
  notExhaustive: 'Not exhaustive.',
} as const;

export type PropertiesTabKey = keyof typeof en;

const zh: { readonly [K in PropertiesTabKey]: string } = {
  tab: '性质',
  intro:
    '你自己的性质，用一门小小的表达式语言写成，每次只看一个事件：“always”必须在每个事件处成立（不成立之处，运行会报告性质违反），“reachable”是某个调度必须到达的目标。“检查性质”会在场景的界限内搜索调度，每个性质各搜索一次。',
  empty: '这个场景还没有声明性质。在下面添加一个，例如名为 one-inside 的不变式：',
  exampleAlways: 'not (clients.A.inside and clients.B.inside)',
  useExample: '填入这个示例',
  emptyMore: '路径：event.kind、event.client、event.command、event.args[0]、event.reply、lock.before、lock.after、lock.holder、lock.pttlMs、clients.<id>.inside、clients.<id>.status；运算符：== != < <= > >=、and、or、not。',
  list: '本场景的性质',
  kindAlways: 'always',
  kindReachable: 'reachable',
  edit: '编辑',
  remove: '删除',
  editNamed: '编辑 {name}',
  removeNamed: '删除 {name}',
  formAdd: '添加性质',
  formEdit: '编辑性质 {name}',
  name: '名称',
  nameHelp: '字母、数字、- 和 _。',
  kind: '类型',
  kindAlwaysLong: 'always：每个事件处都成立的不变式',
  kindReachableLong: 'reachable：某个调度能到达的目标',
  expression: '表达式',
  parses: '可以解析。',
  problemAt: '第 {column} 列：{message}',
  add: '添加性质',
  save: '保存性质',
  cancelEdit: '取消',
  check: '检查性质',
  stop: '停止',
  checking: '正在搜索第 {index} 个性质（共 {count} 个）：已有 {states} 个状态…',
  checkError: '无法检查：{message}',
  stale: '“检查性质”针对当前场景、变体和种子；一次编辑或换一次运行都会清除结论。',
  verdicts: '结论',
  statusViolated: '被违反',
  statusHeld: '成立',
  statusReached: '已到达',
  statusNotReached: '未到达',
  load: '载入这次运行',
  loadTitle: '把最短调度载入运行，停在第 0 步',
  within: '搜索范围：{bounds}。',
  exhaustive: '已穷尽：这些界限内的每个状态都搜索过了。',
  cutBy: '未穷尽，原因：{cuts}。',
  notExhaustive: '未穷尽。',
};

const CATALOGS: Readonly<Record<Lang, { readonly [K in PropertiesTabKey]: string }>> = { en, zh };

/** One text, `{name}` parameters filled in as given. */
export function propertiesTabText(lang: Lang, key: PropertiesTabKey, params: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** A property's verdict, as the engine gives it. */
export interface PropertyVerdictInput {
  readonly name: string;
  readonly kind: 'always' | 'reachable';
  readonly status: 'violated' | 'held' | 'reached' | 'not-reached';
  readonly found: { readonly steps: number; readonly schedule: string } | null;
  readonly exhaustive: boolean;
  readonly statesExplored: number;
  readonly cut: Parameters<typeof searchCutText>[0];
}

/** A verdict as the tab shows it. */
export interface PropertyVerdictView {
  /** The status in a word (violated, held, reached, not reached). */
  readonly label: string;
  /** The explorer's sentence: with the shortest schedule when found, else the states searched. */
  readonly sentence: string;
  /** The bounds searched. */
  readonly scope: string;
  /** For "held" and "not reached": exhaustive, or what cut the search; null when something was found. */
  readonly reach: string | null;
  /** The shortest schedule to load, or null. */
  readonly schedule: string | null;
}

const STATUS_KEY = { violated: 'statusViolated', held: 'statusHeld', reached: 'statusReached', 'not-reached': 'statusNotReached' } as const;

/** A verdict in words, never claiming more than was searched: an absence says how far and whether it was exhaustive. */
export function propertyVerdictView(verdict: PropertyVerdictInput, bounds: BoundsInput, lang: Lang): PropertyVerdictView {
  const t = translator(lang);
  const params = { name: verdict.name, states: verdict.statesExplored };
  const label = propertiesTabText(lang, STATUS_KEY[verdict.status]);
  const scope = propertiesTabText(lang, 'within', { bounds: boundsText(bounds, lang) });
  if (verdict.found !== null) {
    const key = verdict.status === 'violated' ? 'explorePropertyViolated' : 'explorePropertyReached';
    return { label, sentence: t(key, { ...params, n: verdict.found.steps, schedule: verdict.found.schedule }), scope, reach: null, schedule: verdict.found.schedule };
  }
  const sentence =
    verdict.status === 'held'
      ? t(verdict.exhaustive ? 'explorePropertyHeld' : 'explorePropertyHeldCut', params)
      : t(verdict.exhaustive ? 'explorePropertyNotReached' : 'explorePropertyNotReachedCut', params);
  const cuts = searchCutText(verdict.cut, bounds.stateCountMax, lang);
  const reach = verdict.exhaustive ? propertiesTabText(lang, 'exhaustive') : cuts === '' ? propertiesTabText(lang, 'notExhaustive') : propertiesTabText(lang, 'cutBy', { cuts });
  return { label, sentence, scope, reach, schedule: null };
}
