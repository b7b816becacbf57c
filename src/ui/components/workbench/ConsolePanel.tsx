/**
 * The Redis console tab: a redis-cli style prompt at the cursor of the run. Each line becomes the
 * console client's choice in the run (store: consoleRun), so the transcript is read back from the
 * run's own events: step back and later commands leave it, reload a link and they return. Lines
 * the run did not take (bad quoting, refused commands) are shown as notes. Everything is text.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { refusalText } from '../../../i18n';
import { workbenchExtraText, type WorkbenchExtraKey } from '../../../i18n/workbench-extra';
import { consoleNodeOf, ConsoleTranscript, type ConsoleEntry } from '../../store/console-line';
import { useSimStore, useSimStoreApi } from '../../store/context';
import type { ConsoleNote, SimState } from '../../store/store-types';

/** The console's lane id (engine/console-choice.ts CONSOLE_ID; components do not import the engine). */
const CONSOLE_ID = 'console';
/** Most transcript entries drawn: the latest ones. */
const shownCountMax = 200;

const selectConsole = (s: SimState) => ({
  runLog: s.runLog,
  cursor: s.cursor,
  length: s.length,
  nowMs: s.nowMs,
  lang: s.lang,
  history: s.consoleHistory,
  notes: s.consoleNotes,
  run: `${s.scenarioId}/${s.variantId}/${s.seed}`,
  nodeIds: s.nodes.map((n) => n.id).join(' '),
  node: consoleNodeOf(s) ?? null,
});

type Row = { readonly kind: 'entry'; readonly entry: ConsoleEntry } | { readonly kind: 'note'; readonly note: ConsoleNote };

export function ConsolePanel() {
  const store = useSimStoreApi();
  const { runLog, cursor, length, nowMs, lang, history, notes, run, nodeIds, node } = useSimStore(useShallow(selectConsole));
  const prompt = (ms: number, at: string | null) => (at === null ? t('prompt', { ms }) : t('promptNode', { node: at, ms }));
  const t = (key: WorkbenchExtraKey, params?: Record<string, string | number>) => workbenchExtraText(lang, key, params);
  const [transcript] = useState(() => new ConsoleTranscript());
  const entries = useMemo(() => transcript.sync(runLog, CONSOLE_ID), [transcript, runLog]);
  const [line, setLine] = useState('');
  /** Position in the history while browsing it with the arrows (null: editing a new line). */
  const [browsing, setBrowsing] = useState<number | null>(null);
  const draft = useRef('');
  const logRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  const rows = useMemo(() => {
    const out: Row[] = [];
    const ownNotes = notes.filter((n) => n.run === run && n.step <= cursor);
    let n = 0;
    for (const entry of entries) {
      if (entry.step >= cursor) break;
      while (n < ownNotes.length && ownNotes[n].step <= entry.step) out.push({ kind: 'note', note: ownNotes[n++] });
      out.push({ kind: 'entry', entry });
    }
    while (n < ownNotes.length) out.push({ kind: 'note', note: ownNotes[n++] });
    return out.slice(-shownCountMax);
  }, [entries, notes, run, cursor]);

  // The newest line in view, as a terminal does.
  useEffect(() => {
    const el = logRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [rows]);
  useEffect(() => inputRef.current?.focus(), []);

  const submit = () => {
    const typed = line;
    setLine('');
    setBrowsing(null);
    draft.current = '';
    void store.getState().consoleRun(typed);
  };

  const browse = (by: -1 | 1) => {
    if (history.length === 0) return;
    const from = browsing ?? history.length;
    const to = Math.max(0, Math.min(history.length, from + by));
    if (browsing === null) draft.current = line;
    if (to === history.length) {
      setBrowsing(null);
      setLine(draft.current);
    } else {
      setBrowsing(to);
      setLine(history[to]);
    }
  };

  return (
    <div className="workbench-console">
      <div className="workbench-console__log" ref={logRef} role="log" aria-label={t('tab')} data-testid="console.transcript" data-count={rows.length}>
        {rows.length === 0 && <p className="workbench__hint">{t('empty')}</p>}
        {rows.map((row) =>
          row.kind === 'entry' ? (
            <div key={`e${row.entry.seq}`} className="workbench-console__entry" data-testid="console.entry" data-kind={row.entry.error ? 'error' : 'reply'} data-step={row.entry.step}>
              <div className="workbench-console__input">
                <span className="workbench-console__prompt">{prompt(row.entry.atMs, row.entry.node)}</span> {row.entry.input}
              </div>
              <pre className="workbench-console__output" data-testid="console.reply">
                {row.entry.output}
              </pre>
            </div>
          ) : (
            <div key={`n${row.note.id}`} className="workbench-console__entry workbench-console__entry--note" data-testid="console.entry" data-kind={row.note.kind} data-step="">
              <div className="workbench-console__input">
                <span className="workbench-console__prompt">{t('noted')} &gt;</span> {row.note.input}
              </div>
              <pre className="workbench-console__output workbench__error" data-testid="console.reply">
                {t(row.note.kind === 'refused' ? 'refused' : 'error', { message: refusalText(row.note.message, lang) })}
              </pre>
            </div>
          ),
        )}
      </div>
      {cursor < length && (
        <p className="workbench__hint" data-testid="console.forks">
          {t('forks', { cursor, length, later: length - cursor })}
        </p>
      )}
      <form
        className="workbench-console__form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {node !== null && (
          <select
            className="select"
            aria-label={t('node')}
            title={t('nodeHelp')}
            value={node}
            data-testid="console.node"
            onChange={(e) => store.getState().setConsoleNode(e.target.value)}
          >
            {nodeIds.split(' ').map((id) => (
              <option key={id} value={id}>
                @{id}
              </option>
            ))}
          </select>
        )}
        <label className="workbench-console__prompt" htmlFor="console-input">
          {prompt(nowMs, node)}
        </label>
        <input
          id="console-input"
          ref={inputRef}
          className="input workbench-console__field"
          value={line}
          maxLength={65_536}
          spellCheck={false}
          autoComplete="off"
          aria-label={t('label')}
          data-testid="console.input"
          onChange={(e) => {
            setLine(e.target.value);
            setBrowsing(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
              e.preventDefault();
              browse(e.key === 'ArrowUp' ? -1 : 1);
            }
          }}
        />
        <button type="submit" className="button button--primary button--small" data-testid="console.run">
          {t('run')}
        </button>
      </form>
      <p className="workbench__hint">{t('help')}</p>
    </div>
  );
}
