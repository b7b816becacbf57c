import { memo, useState } from 'react';
import type { ExportFormat, ExportTarget } from './export';
import { translator, type Lang } from '../../i18n';
import type { RunViewProps } from './types';

export interface ExportButtonsProps {
  readonly target: ExportTarget;
  /** File names: `<fileBase>-timeline.svg`, e.g. fileBase `lockstep-get-then-del-lua`. */
  readonly fileBase: string;
  readonly lang?: Lang;
  /**
   * The whole run, to export everything (preferred): the views on screen draw only what is near
   * the viewport. A getter called at click time; without it, `getSvg` is exported as drawn.
   */
  readonly getRun?: () => RunViewProps;
  /** The view's <svg> (e.g. from the view's `svgRef`), when `getRun` is not given. */
  readonly getSvg?: () => SVGSVGElement | null;
}

/** "Export timeline as SVG" / "… as PNG": downloads a standalone file of the view. */
export const ExportButtons = memo(function ExportButtons(props: ExportButtonsProps) {
  const { target, fileBase, getRun, getSvg } = props;
  const lang = props.lang ?? 'en';
  const t = translator(lang);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const what = t(target === 'timeline' ? 'exportWhatTimeline' : 'exportWhatSequence');

  const run = async (format: ExportFormat) => {
    setError(null);
    setBusy(true);
    try {
      // Export is not first-screen work: its code (and the sequence diagram's) loads on the first click.
      const { exportView } = await import('./export');
      await exportView({ target, format, fileBase, run: getRun?.(), getSvg });
    } catch (e) {
      setError(t('exportFailed', { reason: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="lsv-export" role="group" aria-label={t('exportGroup', { what })} data-testid={`export.${target}`}>
      <button type="button" onClick={() => run('svg')} disabled={busy} aria-label={t('exportSvg', { what })} data-testid={`export.${target}.svg`}>
        SVG
      </button>
      <button type="button" onClick={() => run('png')} disabled={busy} aria-label={t('exportPng', { what })} data-testid={`export.${target}.png`}>
        PNG
      </button>
      {error && (
        <span className="lsv-export-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
});
