import { onDemand, ShowOnDemand } from './OnDemand';
import { exploreVerdictLines, formatNumber, localized, violationKindLabel, type Lang, type Translate } from '../../i18n';
import { useModalDialog } from './useModalDialog';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { ExploreResult, ExploreState, SimState } from '../store/store-types';
import { selectLang, selectRunInfo } from '../store/selectors';

/** The variant comparison's code loads with the first counterexample (not first-screen work). */
const ComparePanel = onDemand(() => import('./ComparePanel').then((module) => module.ComparePanel));

const selectExplore = (s: SimState) => s.explore;
/** A comparison of the result's own schedule is under way or done (same scenario, variant and seed). */
const selectComparing = (s: SimState) => {
  const r = s.explore.result;
  const c = s.compare;
  return r !== null && c.status !== 'idle' && c.scenarioId === r.scenarioId && c.baseVariantId === r.variantId && c.seed === r.seed;
};
const selectExploreNote = (s: SimState) => s.runInfo.exploreNote;
const selectRunKey = (s: SimState) => `${s.scenarioId}/${s.variantId}/${s.seed}`;

/** The result of the last search when it is about the run on screen (scenario, variant, seed). */
function resultForRun(explore: ExploreState, runKey: string): ExploreResult | null {
  const r = explore.result;
  return r !== null && `${r.scenarioId}/${r.variantId}/${r.seed}` === runKey ? r : null;
}

/** "Find a race": opens the explorer's dialog (one store action). */
export function ExploreButton() {
  const t = useT();
  const store = useSimStoreApi();
  return (
    <button type="button" className="button button--small explore-open" onClick={() => store.getState().openExplore()} data-testid="explore-open">
      {t('exploreButton')}
    </button>
  );
}

/** The last verdict for the run on screen, beside the variant toggle (what was proved, within what). */
export function ExploreVerdict() {
  const lang = useSimStore(selectLang);
  const t = useT();
  const explore = useSimStore(selectExplore);
  const runKey = useSimStore(selectRunKey);
  const result = resultForRun(explore, runKey);
  if (result === null) return null;
  // One line on the scenario bar (the page must not grow a row): cut with …, whole as the tooltip and in the dialog.
  const text = exploreVerdictLines(result, lang).join(' ');
  return (
    <section className="explore-verdict" aria-label={t('exploreVerdictLabel')} data-testid="explore-verdict" title={text}>
      <p>{text}</p>
    </section>
  );
}

function progressText(explore: ExploreState, t: Translate, lang: Lang): string {
  const p = explore.progress;
  if (p === null) return t('exploreRunning');
  const rate = explore.elapsedMs > 0 ? Math.round((p.statesExplored / explore.elapsedMs) * 1000) : 0;
  return t('exploreProgressText', {
    states: formatNumber(p.statesExplored, lang),
    transitions: formatNumber(p.transitionsExplored, lang),
    frontier: formatNumber(p.frontier, lang),
    depth: p.depth,
    rate: formatNumber(rate, lang),
  });
}

/** The explorer's dialog: bounds, a search in the worker with progress and cancel, and its verdict. */
export function ExploreDialog() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const store = useSimStoreApi();
  const explore = useSimStore(selectExplore);
  const runInfo = useSimStore(selectRunInfo);
  const open = explore.dialogOpen;
  const comparing = useSimStore(selectComparing);
  const ref = useModalDialog(open);
  const running = explore.status === 'running';
  const { form } = explore;
  const result = explore.result;
  const setForm = (patch: Partial<ExploreState['form']>) => store.getState().setExploreForm(patch);
  const whole = (text: string) => (/^[0-9]+$/.test(text) ? Number(text) : Number.NaN);
  return (
    <dialog ref={ref} className={`dialog explore-dialog${comparing ? ' explore-dialog--wide' : ''}`} aria-labelledby="explore-title" onClose={() => store.getState().closeExplore()} data-testid="explore-dialog">
      <h2 id="explore-title" className="dialog__title">
        {t('exploreButton')}
      </h2>
      <p className="explore-dialog__intro">{t('exploreIntro')}</p>
      <form
        className="explore-dialog__form"
        onSubmit={(event) => {
          event.preventDefault();
          store.getState().startExplore();
        }}
      >
        <label className="field">
          <span className="field__label">{t('exploreDepth')}</span>
          <input className="input input--count" type="number" min={1} max={200} required value={Number.isNaN(form.depthMax) ? '' : form.depthMax} disabled={running} onChange={(e) => setForm({ depthMax: whole(e.target.value) })} />
        </label>
        <label className="field">
          <span className="field__label">{t('exploreStallCount')}</span>
          <input className="input input--count" type="number" min={0} max={8} required value={Number.isNaN(form.stallCountMax) ? '' : form.stallCountMax} disabled={running} onChange={(e) => setForm({ stallCountMax: whole(e.target.value) })} />
        </label>
        <label className="field">
          <span className="field__label">{t('exploreStallLengths')}</span>
          <input className="input" type="text" inputMode="numeric" value={form.stallLengthsText} disabled={running} onChange={(e) => setForm({ stallLengthsText: e.target.value })} />
        </label>
        <label className="field">
          <span className="field__label">{t('exploreCrashCount')}</span>
          <input className="input input--count" type="number" min={0} max={8} required value={Number.isNaN(form.crashCountMax) ? '' : form.crashCountMax} disabled={running} onChange={(e) => setForm({ crashCountMax: whole(e.target.value) })} />
        </label>
        <div className="explore-dialog__buttons">
          {running ? (
            <button type="button" className="button button--danger" onClick={() => store.getState().cancelExplore()}>
              {t('exploreCancel')}
            </button>
          ) : (
            <button type="submit" className="button button--primary">
              {t('exploreStart')}
            </button>
          )}
        </div>
      </form>
      {(explore.status !== 'idle' || result) && (
        <div className="explore-dialog__status" role="status" data-testid="explore-status" data-status={explore.status}>
          {running && <progress aria-label={t('exploreProgressLabel')} max={Math.max(1, form.depthMax)} value={explore.progress?.depth ?? 0} />}
          {explore.progress && <p data-testid="explore-progress">{progressText(explore, t, lang)}</p>}
          {explore.status === 'error' && explore.error && (
            <p className="explore-dialog__error">{t(explore.error.kind === 'refused' ? 'exploreRefused' : 'exploreFailed', { detail: explore.error.detail })}</p>
          )}
          {explore.status === 'done' && result && (
            <>
              <p>{t('exploreElapsed', { ms: formatNumber(Math.round(explore.elapsedMs), lang) })}</p>
              <div data-testid="explore-result">
                {exploreVerdictLines(result, lang).map((line) => (
                  <p key={line}>{line}</p>
                ))}
              </div>
              {result.violations.length > 0 && (
                <ul className="explore-dialog__found">
                  {result.violations.map((v, index) => (
                    <li key={v.kind}>
                      <button type="button" className="button button--small" onClick={() => store.getState().loadExploreViolation(index)}>
                        {t('exploreLoad', { kind: violationKindLabel(v.kind, lang) })}
                      </button>
                    </li>
                  ))}
                </ul>
              )}
              {runInfo.scenarioId === result.scenarioId && <ScenarioNote />}
              {comparing && (
                <ShowOnDemand part={ComparePanel} props={{}} />
              )}
            </>
          )}
        </div>
      )}
      <form method="dialog" className="dialog__actions">
        <button type="submit" className="button">
          {t('close')}
        </button>
      </form>
    </dialog>
  );
}

/** Why the scenario's declared bounds are what they are (its explore note), when it has one. */
function ScenarioNote() {
  const lang = useSimStore(selectLang);
  const note = useSimStore(selectExploreNote);
  return note ? <p className="explore-dialog__note">{localized(note, lang)}</p> : null;
}
