/** The history checker's door (docs/HISTORIES.md): the format, the checker, MONITOR import, the verdict. */
export { HistoryChecker, checkHistoryText } from './checker';
export type { CheckOptions } from './checker';
export { HISTORY_LINE_BYTES_MAX, HISTORY_VERSION, commandLine, headerLine, markLine, parseHistoryLine } from './format';
export type { HistoryCommand, HistoryHeader, HistoryMark, HistoryRecord, HistoryReply, LineProblem } from './format';
export { MonitorImport } from './monitor';
export { historyReply } from './engine-reply';
export { HISTORY_VIOLATION_KINDS, checkExitCode } from './verdict';
export type { Certainty, ClientLane, EvidenceEvent, HistoryProblem, HistoryVerdict, HistoryViolation, HistoryViolationKind } from './verdict';
