/**
 * Import / export: the scenario on screen as a JSON file or as regression tests (Vitest, Playwright),
 * what its share link carries, and importing a scenario file (a button, or a file dropped on the
 * panel); a recorded history opens read-only in its dialog (HistoryDialog). Every text from the file (its name, the problems) is shown as text, never as markup.
 */
import { useRef, useState, type DragEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ioText, type IoTextKey } from '../../../i18n/io';
import { useSimStore, useSimStoreApi } from '../../store/context';
import { definitionLinkCharsMax as linkCharsMax, historyFileBytesMax, scenarioFileBytesMax as fileBytesMax } from '../../store/limits';
import type { IoDownload, SimState } from '../../store/store-types';
import { HistoryDialog } from './HistoryDialog';

const selectIo = (s: SimState) => ({ lang: s.lang, link: s.ioLink, scenarioId: s.scenarioId, importState: s.ioImport });

function download(file: IoDownload): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: `${file.mime};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function IoPanel() {
  const store = useSimStoreApi();
  const { lang, link, scenarioId, importState } = useSimStore(useShallow(selectIo));
  const t = (key: IoTextKey, params?: Readonly<Record<string, string | number>>) => ioText(lang, key, params);
  const input = useRef<HTMLInputElement>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [dragging, setDragging] = useState(false);

  const exportWith = async (make: () => Promise<IoDownload | null>) => {
    const file = await make();
    setUnavailable(file === null);
    if (file) download(file);
  };

  const importFile = async (file: File | undefined) => {
    if (!file) return;
    // A recorded history (its first lines say so) opens read-only in its own dialog.
    if (await store.getState().ioOpenHistory(file)) return;
    // A file over the bound is never read: its size is enough to refuse it.
    if (file.size > fileBytesMax) return store.getState().ioRefuseFile(file.name, t('ioImportTooBig', { size: file.size, max: fileBytesMax }));
    let text: string;
    try {
      text = await file.text();
    } catch {
      return store.getState().ioRefuseFile(file.name, t('ioImportNotText'));
    }
    await store.getState().ioImportText(text, file.name);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void importFile(event.dataTransfer.files[0]);
  };

  const linkLine =
    link.scenarioId !== scenarioId || link.status === 'builtin'
      ? t('ioLinkBuiltin')
      : link.status === 'encoding'
        ? t('ioLinkEncoding')
        : link.status === 'ready'
          ? t('ioLinkReady', { chars: link.chars, max: linkCharsMax })
          : t('ioLinkTooLong', { chars: link.chars, max: linkCharsMax });

  return (
    <div className={`workbench-io${dragging ? ' is-dragging' : ''}`} data-testid="io" onDragOver={(e) => { e.preventDefault(); setDragging(true); }} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
      <section aria-labelledby="io-export">
        <h3 id="io-export">{t('ioExportHeading')}</h3>
        <div className="workbench__row">
          <button type="button" className="button button--small" data-testid="io.export-file" onClick={() => void exportWith(() => store.getState().ioScenarioFile())}>
            {t('ioExportFile')}
          </button>
          <button type="button" className="button button--small" data-testid="io.export-vitest" onClick={() => void exportWith(() => store.getState().ioRegressionTest('vitest'))}>
            {t('ioExportVitest')}
          </button>
          <button type="button" className="button button--small" data-testid="io.export-playwright" onClick={() => void exportWith(() => store.getState().ioRegressionTest('playwright'))}>
            {t('ioExportPlaywright')}
          </button>
        </div>
        <p className="workbench__help">{t('ioExportFileHelp')}</p>
        <p className="workbench__help">{t('ioExportTestHelp')}</p>
        {unavailable && <p role="alert">{t('ioExportUnavailable')}</p>}
        <p className="workbench__help" data-testid="io.link" data-status={link.scenarioId === scenarioId ? link.status : 'builtin'}>
          {linkLine}
        </p>
      </section>
      <section aria-labelledby="io-import">
        <h3 id="io-import">{t('ioImportHeading')}</h3>
        <div className="workbench__row workbench-io__drop" data-testid="io.import-drop">
          <button type="button" className="button button--small" data-testid="io.import" onClick={() => input.current?.click()}>
            {t('ioImportChoose')}
          </button>
          <span>{t('ioImportDrop', { max: fileBytesMax, historyMax: historyFileBytesMax })}</span>
          <input
            ref={input}
            type="file"
            accept=".json,.jsonl,.txt,.log,application/json"
            hidden
            data-testid="io.import-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              void importFile(file);
            }}
          />
        </div>
        <ImportResult state={importState} t={t} />
      </section>
      <HistoryDialog />
    </div>
  );
}

function ImportResult({ state, t }: { state: SimState['ioImport']; t: (key: IoTextKey, params?: Readonly<Record<string, string | number>>) => string }) {
  const store = useSimStoreApi();
  if (state.status === 'idle') return null;
  if (state.status === 'checking') return <p role="status" data-testid="io.import-result" data-status="checking">{t('ioImportChecking', { file: state.fileName })}</p>;
  if (state.status === 'imported') return <p role="status" data-testid="io.import-result" data-status="imported">{t('ioImported', { name: state.name })}</p>;
  if (state.status === 'clash') {
    return (
      <div role="alertdialog" aria-labelledby="io-clash" className="workbench-io__clash" data-testid="io.import-result" data-status="clash">
        <p id="io-clash">{t('ioImportClash', { name: state.name })}</p>
        <div className="workbench__row">
          <button type="button" className="button button--small button--danger" data-testid="io.clash-replace" onClick={() => void store.getState().ioResolveClash('replace')}>
            {t('ioImportReplace')}
          </button>
          <button type="button" className="button button--small button--primary" data-testid="io.clash-keep" onClick={() => void store.getState().ioResolveClash('keep')}>
            {t('ioImportKeepBoth')}
          </button>
          <button type="button" className="button button--small" data-testid="io.clash-cancel" onClick={() => void store.getState().ioResolveClash('cancel')}>
            {t('ioImportCancel')}
          </button>
        </div>
      </div>
    );
  }
  return (
    <div role="alert" data-testid="io.import-result" data-status="invalid">
      <p>{t('ioImportInvalid', { file: state.fileName })}</p>
      <ul className="workbench-io__problems" data-testid="io.import-problems">
        {state.problems.map((problem, i) => (
          <li key={i}>
            <code>{problem.path === '' ? t('ioWholeFile') : problem.path}</code> {problem.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
