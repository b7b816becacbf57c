/**
 * A recorded history opened read-only from the Import panel (docs/HISTORIES.md, "On the page"):
 * the file's first lines say whether it is a history (JSON lines or MONITOR text); if so it is
 * checked by src/history in a worker (loaded on first use) and the report is kept for the dialog.
 * The run on screen is never touched.
 */
import { HISTORY_FILE_BYTES_MAX, sniffHistoryFormat, type HistoryCheckService, type HistoryReport } from '../worker/history-check-protocol';

export type { HistoryLaneEvent, HistoryReport } from '../worker/history-check-protocol';
export { HISTORY_FILE_BYTES_MAX as historyFileBytesMax };

/** Characters of the head read to recognise a history. */
const SNIFF_CHARS = 4096;

export interface IoHistoryState {
  /** `too-big`: refused unread (`size`); `failed`: the check threw (`message`). */
  readonly status: 'idle' | 'checking' | 'done' | 'too-big' | 'failed';
  readonly fileName: string;
  readonly size: number;
  readonly message: string;
  readonly report: HistoryReport | null;
}

export const IO_HISTORY_IDLE: IoHistoryState = { status: 'idle', fileName: '', size: 0, message: '', report: null };

/** The file the panel hands over: a Blob with a name (a File). */
export interface HistoryFile {
  readonly name: string;
  readonly size: number;
  slice(start: number, end: number): Blob;
  text(): Promise<string>;
}

export interface IoHistoryActions {
  /** Checks the file as a history when its first lines are one; false: it is not (a scenario file). */
  ioOpenHistory(file: HistoryFile & Blob): Promise<boolean>;
  ioCloseHistory(): void;
}

/** The default service: a worker where there is one, else the calling thread (tests). */
function defaultService(): Promise<HistoryCheckService> {
  return import('../worker/history-check-client').then((m) => (typeof Worker === 'function' ? m.createWorkerHistoryCheckService() : m.createInlineHistoryCheckService()));
}

export function createIoHistoryActions(get: () => { ioHistory: IoHistoryState }, set: (partial: { ioHistory: IoHistoryState }) => void, service: () => Promise<HistoryCheckService> = defaultService): IoHistoryActions {
  let loaded: Promise<HistoryCheckService> | null = null;
  let request = 0;
  return {
    async ioOpenHistory(file) {
      let head: string;
      try {
        head = await file.slice(0, SNIFF_CHARS).text();
      } catch {
        return false; // The scenario import reads it again and says why it cannot.
      }
      const format = sniffHistoryFormat(head);
      if (format === null) return false;
      const id = ++request;
      if (file.size > HISTORY_FILE_BYTES_MAX) {
        set({ ioHistory: { ...IO_HISTORY_IDLE, status: 'too-big', fileName: file.name, size: file.size } });
        return true;
      }
      set({ ioHistory: { ...IO_HISTORY_IDLE, status: 'checking', fileName: file.name, size: file.size } });
      try {
        const report = await (await (loaded ??= service())).check({ file, fileName: file.name, format });
        if (id === request) set({ ioHistory: { ...get().ioHistory, status: 'done', report } });
      } catch (error) {
        if (id === request) set({ ioHistory: { ...get().ioHistory, status: 'failed', message: error instanceof Error ? error.message : String(error) } });
      }
      return true;
    },
    ioCloseHistory() {
      request++;
      set({ ioHistory: IO_HISTORY_IDLE });
    },
  };
}
