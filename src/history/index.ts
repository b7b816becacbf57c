/** The history checker's door (docs/HISTORIES.md): the format, the checker, MONITOR import, the verdict. */
export { HistoryChecker, checkHistoryText } from './checker';
export type { CheckOptions } from './checker';
export { HISTORY_LINE_BYTES_MAX, commandLine, headerLine, markLine, parseHistoryLine } from './format';
export type { HistoryCommand, HistoryReply } from './format';
export { MonitorImport } from './monitor';
export { HISTORY_VIOLATION_KINDS, checkExitCode } from './verdict';
export type { Certainty, ClientLane, EvidenceEvent, HistoryProblem, HistoryVerdict, HistoryViolation, HistoryViolationKind } from './verdict';
