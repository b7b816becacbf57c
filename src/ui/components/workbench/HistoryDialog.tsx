/**
 * A recorded history, read-only (docs/HISTORIES.md, "On the page"): the checker's verdict, each
 * violation certain or possible with its evidence lines, the file's problems and what the
 * recording cannot tell, and a timeline with a lane per client and the lock key's commands on a
 * Redis row, the evidence drawn in red. Texts from the file are shown as text, never as markup.
 * The checker's own sentences come as catalog references and are worded in the page's language;
 * a line the format or MONITOR reader could not read keeps its English.
 */
import { useShallow } from 'zustand/react/shallow';
import type { Lang } from '../../../i18n';
import { historyText } from '../../../i18n/history';
import { ioText, type IoTextKey } from '../../../i18n/io';
import { useSimStore, useSimStoreApi } from '../../store/context';
import { historyFileBytesMax } from '../../store/limits';
import type { HistoryLaneEvent, HistoryReport, SimState } from '../../store/store-types';
import { useModalDialog } from '../useModalDialog';

type T = (key: IoTextKey, params?: Readonly<Record<string, string | number>>) => string;

const selectHistory = (s: SimState) => ({ lang: s.lang, history: s.ioHistory });

export function HistoryDialog() {
  const store = useSimStoreApi();
  const { lang, history } = useSimStore(useShallow(selectHistory));
  const ref = useModalDialog(history.status !== 'idle');
  const t: T = (key, params) => ioText(lang, key, params);
  return (
    <dialog ref={ref} className="dialog history-dialog" aria-labelledby="history-title" data-testid="history" data-status={history.status} onClose={() => store.getState().ioCloseHistory()}>
      <h2 id="history-title" className="dialog__title">
        {t('historyTitle', { file: history.fileName })}
      </h2>
      {history.status === 'checking' && <p role="status">{t('historyChecking', { file: history.fileName })}</p>}
      {history.status === 'too-big' && <p role="alert">{t('historyTooBig', { file: history.fileName, size: history.size, max: historyFileBytesMax })}</p>}
      {history.status === 'failed' && <p role="alert">{t('historyFailed', { file: history.fileName, message: history.message })}</p>}
      {history.status === 'done' && history.report !== null && <HistoryBody report={history.report} t={t} lang={lang} />}
      <form method="dialog" className="dialog__actions">
        <button type="submit" className="button button--primary" data-testid="history.close">
          {t('historyClose')}
        </button>
      </form>
    </dialog>
  );
}

const KIND_KEY = {
  'foreign-release': 'historyKind_foreign_release',
  'mutual-exclusion': 'historyKind_mutual_exclusion',
  'stale-write': 'historyKind_stale_write',
  'lock-never-released': 'historyKind_lock_never_released',
  'lock-held-too-long': 'historyKind_lock_held_too_long',
} as const satisfies Record<HistoryReport['verdict']['violations'][number]['kind'], IoTextKey>;

function HistoryBody({ report, t, lang }: { report: HistoryReport; t: T; lang: Lang }) {
  const { verdict } = report;
  return (
    <div className="history-dialog__body">
      <p className="dialog__note">{t('historyReadOnly')}</p>
      <p data-testid="history.summary">
        {t('historySummary', { lines: verdict.lineCount, commands: verdict.commandCount, marks: verdict.markCount, clients: verdict.clients.length, key: verdict.lockKey ?? t('historyNoLockKey') })}
      </p>
      {report.format === 'monitor' && <p className="dialog__note">{t('historyFormatMonitor')}</p>}
      <section data-testid="history.verdict" data-violations={verdict.violations.length}>
        <p>{verdict.violations.length === 0 ? t('historyVerdictNone') : t('historyVerdictSome', { count: verdict.violations.length })}</p>
        <ol className="history-dialog__violations">
          {verdict.violations.map((v, i) => (
            <li key={i} data-testid="history.violation" data-kind={v.kind} data-certainty={v.certainty}>
              <strong>{t(KIND_KEY[v.kind])}</strong> ({t(v.certainty === 'certain' ? 'historyCertain' : 'historyPossible')}): {historyText(v.ref, lang)}
              <div className="history-dialog__evidence-title">{t('historyEvidence')}</div>
              <ul className="history-dialog__evidence">
                {v.evidence.map((e) => (
                  <li key={e.line} data-testid="history.evidence" data-line={e.line}>
                    <code>
                      {e.line}: {e.client}: {e.text}
                    </code>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
        {verdict.violationsNotListed > 0 && <p>{t('historyNotListed', { count: verdict.violationsNotListed })}</p>}
      </section>
      {verdict.problems.length > 0 && (
        <section data-testid="history.problems">
          <p>{t('historyProblems')}</p>
          <ul>
            {verdict.problems.map((p, i) => (
              <li key={i}>
                <code>{p.line === 0 ? t('ioWholeFile') : p.line}</code> {p.ref === undefined ? p.message : historyText(p.ref, lang)}
              </li>
            ))}
          </ul>
          {verdict.problemsNotListed > 0 && <p>{t('historyNotListed', { count: verdict.problemsNotListed })}</p>}
        </section>
      )}
      {verdict.unknowns.length > 0 && (
        <section data-testid="history.unknowns">
          <p>{t('historyUnknowns')}</p>
          <ul>
            {verdict.unknownRefs.map((u, i) => (
              <li key={i}>{historyText(u, lang)}</li>
            ))}
          </ul>
        </section>
      )}
      <HistoryLanes report={report} t={t} />
    </div>
  );
}

const LABEL_W = 130;
const PLOT_W = 640;
const ROW_H = 26;
const EVENT_W_MIN = 4;

/** One row per client and the Redis row; x is wall-clock time from the first event to the last. */
function HistoryLanes({ report, t }: { report: HistoryReport; t: T }) {
  const { events, verdict } = report;
  const evidence = new Set(verdict.violations.flatMap((v) => v.evidence.map((e) => e.line)));
  const clients = verdict.clients.map((c) => c.client);
  for (const e of events) if (!clients.includes(e.client)) clients.push(e.client);
  const fromMs = Math.min(...events.map((e) => e.startMs));
  const toMs = Math.max(...events.map((e) => e.endMs));
  const spanMs = Math.max(1, toMs - fromMs);
  const x = (ms: number) => LABEL_W + ((ms - fromMs) / spanMs) * PLOT_W;
  const rows: { id: string; label: string; testId: string; events: HistoryLaneEvent[] }[] = [
    ...clients.map((client) => ({ id: client, label: client, testId: `history.lane.${client}`, events: events.filter((e) => e.client === client) })),
    { id: '\u0000redis', label: t('historyRedisRow'), testId: 'history.redis', events: events.filter((e) => e.onLock) },
  ];
  const height = rows.length * ROW_H + 4;
  return (
    <section className="history-dialog__lanes" data-testid="history.lanes">
      <p className="dialog__note">{t('historyLanes')}</p>
      {events.length > 0 && (
        <svg viewBox={`0 0 ${LABEL_W + PLOT_W + 8} ${height}`} role="img" aria-label={t('historyLanes')} className="history-lanes">
          {rows.map((row, r) => (
            <g key={row.id} data-testid={row.testId} data-events={row.events.length} transform={`translate(0 ${r * ROW_H + 2})`}>
              <line className="history-lanes__axis" x1={LABEL_W} x2={LABEL_W + PLOT_W} y1={ROW_H / 2} y2={ROW_H / 2} />
              <text className="history-lanes__label" x={4} y={ROW_H / 2 + 4}>
                {row.label.length > 18 ? `${row.label.slice(0, 18)}…` : row.label}
              </text>
              {row.events.map((e) => {
                const bad = evidence.has(e.line);
                return (
                  <rect
                    key={e.line}
                    data-testid={`history.event.${e.line}`}
                    data-violation={bad ? 'true' : 'false'}
                    className={`history-lanes__event${bad ? ' is-violation' : ''}`}
                    x={x(e.startMs)}
                    width={Math.max(EVENT_W_MIN, x(e.endMs) - x(e.startMs))}
                    y={5}
                    height={ROW_H - 10}
                  >
                    <title>{`${e.line}: ${e.client}: ${e.label}`}</title>
                  </rect>
                );
              })}
            </g>
          ))}
        </svg>
      )}
      {report.eventsNotShown > 0 && <p className="dialog__note">{t('historyEventsNotShown', { shown: events.length, count: report.eventsNotShown })}</p>}
    </section>
  );
}
