/**
 * Texts of the workbench's Redis console and of its program editor's client and step controls,
 * in both languages. Only the workbench (loaded on demand) imports this file, so none of it is
 * first-screen code. Both languages have every key: the type of `zh` is the keys of `en`.
 */
import type { Lang } from './translate';

const en = {
  tab: 'Console',
  label: 'Redis command',
  run: 'Run',
  prompt: 't={ms} ms>',
  promptNode: '@{node} t={ms} ms>',
  node: 'Connected to',
  nodeHelp: 'With several nodes the console talks to one, directly (no link delay or loss): a write on a primary replicates as a client\'s does; a replica answers READONLY to writes.',
  empty: 'Type a Redis command as in redis-cli, e.g. SET k v, and press Enter. It runs at this step of the run, as the console client: it joins the schedule, the timeline (its own lane) and the link.',
  forks: 'The cursor is at step {cursor} of {length}: a command typed now replaces the {later} later steps, as any step taken here does.',
  help: 'Enter runs · ↑ ↓ history · "double" and \'single\' quotes as in redis-cli. Blocking commands, SUBSCRIBE, SHUTDOWN, DEBUG and CONFIG are refused.',
  refused: '(refused) {message}',
  error: '(error) {message}',
  noted: 'not in the run',
  clients: 'Clients',
  addClient: 'Add a client',
  addClientFrom: 'running the program of',
  removeClient: 'Remove client {id}',
  clientsNote: 'A new client takes the next free letter. Removing a client drops its steps from the schedule (a step the others then cannot take ends the run there, with a notice).',
  insertStep: 'Insert a step',
  insertAt: 'before step',
  insertEnd: 'at the end',
  insertKind: 'step',
  insertDo: 'Insert',
  kindCommand: 'Redis command: {text}',
  kindScript: 'Call script {name}',
  kindWork: 'Work (ms)',
  kindSleep: 'Sleep (ms)',
  insertMs: 'Duration (ms)',
} as const;

export type WorkbenchExtraKey = keyof typeof en;

const zh: { readonly [K in WorkbenchExtraKey]: string } = {
  tab: '控制台',
  label: 'Redis 命令',
  run: '运行',
  prompt: 't={ms} 毫秒>',
  promptNode: '@{node} t={ms} 毫秒>',
  node: '连接到',
  nodeHelp: '有多个节点时，控制台直接与其中一个节点对话（没有链路延迟或丢失）：在主节点上的写入会像客户端的写入一样复制；副本对写入回答 READONLY。',
  empty: '像在 redis-cli 里一样输入 Redis 命令（例如 SET k v）并按回车。它以 console 客户端的身份在运行的当前步执行：进入调度、时间线（单独一行）和链接。',
  forks: '光标在第 {cursor} 步（共 {length} 步）：现在输入的命令会替换后面的 {later} 步，和在这里执行任何一步一样。',
  help: '回车运行 · ↑ ↓ 历史 · 双引号与单引号的用法同 redis-cli。阻塞命令、SUBSCRIBE、SHUTDOWN、DEBUG 和 CONFIG 会被拒绝。',
  refused: '(已拒绝) {message}',
  error: '(error) {message}',
  noted: '未进入运行',
  clients: '客户端',
  addClient: '添加客户端',
  addClientFrom: '运行此客户端的程序：',
  removeClient: '删除客户端 {id}',
  clientsNote: '新客户端使用下一个空闲字母。删除客户端会从调度中去掉它的步骤（若其他客户端因此无法继续，运行在那里结束，并给出提示）。',
  insertStep: '插入一步',
  insertAt: '插在此步之前',
  insertEnd: '在末尾',
  insertKind: '步骤',
  insertDo: '插入',
  kindCommand: 'Redis 命令：{text}',
  kindScript: '调用脚本 {name}',
  kindWork: '业务处理（毫秒）',
  kindSleep: '休眠（毫秒）',
  insertMs: '时长（毫秒）',
};

const CATALOGS: Readonly<Record<Lang, { readonly [K in WorkbenchExtraKey]: string }>> = { en, zh };

/** One text, `{name}` parameters filled in as given. */
export function workbenchExtraText(lang: Lang, key: WorkbenchExtraKey, params: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
