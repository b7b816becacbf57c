import { useEffect, useId, useMemo, useRef } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatList, localized, refusalText, violationKindLabel, type Lang, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState, VariantOutcome } from '../store/store-types';
import { compareCursor } from '../store/slices/compare';
import { describerFor, selectLang, selectRunInfo } from '../store/selectors';
import type { TraceEvent } from '../store/published';

const selectCompareView = (s: SimState) => ({ compare: s.compare, tokens: s.tokens });

type Describe = (event: TraceEvent) => string;

/** "A: GET lock -> ..." (the client first, when the event has one). */
function eventLine(event: TraceEvent, describe: Describe): string {
  return event.clientId === null ? describe(event) : `${event.clientId}: ${describe(event)}`;
}

/** Each kind the run broke, at the step of its first violation: "foreign release at step 5". */
function brokenText(outcome: VariantOutcome, t: Translate, lang: Lang): string {
  const first = new Map<string, number>();
  for (const v of outcome.violations) if (!first.has(v.kind)) first.set(v.kind, v.step);
  return formatList(
    [...first].map(([kind, step]) => t('outcomeViolation', { kind: violationKindLabel(kind, lang), step: step + 1 })),
    lang,
  );
}

/**
 * A found schedule replayed against every variant, one row each: what it breaks, whether the
 * variant refuses one of its choices (where and why), and the first event where its run differs
 * from the base's, both shown. A row's button loads that variant at that step (one store action).
 * Its code loads with the explorer's first comparison (not first-screen work).
 */
export function ComparePanel() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const store = useSimStoreApi();
  const runInfo = useSimStore(selectRunInfo);
  const { compare, tokens } = useSimStore(useShallow(selectCompareView));
  const titleId = useId();
  const title = (variantId: string) => localized(runInfo.variants.find((v) => v.id === variantId)?.title, lang) || variantId;
  const describers = useMemo(() => {
    const byVariant = new Map<string, Describe>();
    for (const [id, scripts] of Object.entries(runInfo.variantScriptNames)) byVariant.set(id, describerFor(lang, tokens, scripts));
    return byVariant;
  }, [lang, tokens, runInfo.variantScriptNames]);
  const report = compare.status === 'done' ? compare.report : null;
  const tableRef = useRef<HTMLTableElement>(null);
  // The answer arrives under the verdict: bring it into the dialog's view (the dialog scrolls, not the page).
  useEffect(() => {
    if (report !== null && typeof tableRef.current?.scrollIntoView === 'function') tableRef.current.scrollIntoView({ block: 'nearest' });
  }, [report]);
  if (compare.status === 'idle' || compare.scenarioId !== runInfo.scenarioId) return null;
  const base = compare.baseVariantId;
  const baseOutcome = report?.outcomes.find((o) => o.variantId === base);
  /** Whether a run has no event at `step` because the schedule stopped fitting it there. */
  const stoppedAt = (outcome: VariantOutcome | undefined, step: number) => outcome !== undefined && outcome.stopDetail !== null && step >= outcome.stepsApplied;
  return (
    <section className="compare" aria-labelledby={titleId} data-testid="compare" data-status={compare.status} data-schedule={compare.schedule}>
      <h3 className="compare__title" id={titleId}>
        {t('compareTitle')}: <code className="compare__schedule">{compare.schedule}</code>
      </h3>
      {compare.status === 'running' && <p role="status">{t('compareRunning')}</p>}
      {compare.status === 'unavailable' && <p role="status">{t('compareUnavailable')}</p>}
      {report && (
        <>
          <p className="compare__intro">{t('compareIntro', { variant: title(base) })}</p>
          <table className="compare__table" ref={tableRef}>
            <thead>
              <tr>
                <th scope="col">{t('compareHeadVariant')}</th>
                <th scope="col">{t('compareHeadOutcome')}</th>
                <th scope="col">{t('compareHeadDiverges', { variant: title(base) })}</th>
              </tr>
            </thead>
            <tbody>
              {report.outcomes.map((outcome) => {
                const id = outcome.variantId;
                const broken = outcome.violations.length > 0;
                const cursor = compareCursor(outcome);
                const d = outcome.divergence;
                const side = (event: TraceEvent | null, variantId: string, stopped: boolean) =>
                  event ? eventLine(event, describers.get(variantId) ?? describers.get(base)!) : t(stopped ? 'compareNoEventStopped' : 'compareNoEvent');
                return (
                  <tr key={id} className={id === base ? 'is-base' : undefined} data-testid={`compare.${id}`}>
                    <th scope="row">
                      <button
                        type="button"
                        className="button button--small compare__load"
                        aria-label={t('compareLoad', { variant: title(id), step: cursor })}
                        title={t('compareLoad', { variant: title(id), step: cursor })}
                        onClick={() => store.getState().loadCompareVariant(id)}
                        data-testid={`compare.${id}.load`}
                      >
                        {title(id)}
                      </button>
                    </th>
                    <td>
                      <span className={broken ? 'compare__verdict is-bad' : 'compare__verdict is-good'} data-testid={`compare.${id}.verdict`} data-broken={broken} data-kinds={[...new Set(outcome.violations.map((v) => v.kind))].join(' ')}>
                        {broken ? `⚠ ${brokenText(outcome, t, lang)}` : `✓ ${t('outcomeClean')}`}
                      </span>
                      {outcome.stopDetail !== null && (
                        <span className="compare__refused" data-testid={`compare.${id}.refused`} data-step={outcome.stepsApplied}>
                          {t('compareRefused', { step: outcome.stepsApplied + 1, reason: refusalText(outcome.stopDetail, lang) })}
                        </span>
                      )}
                    </td>
                    <td data-testid={`compare.${id}.divergence`} data-step={d?.step ?? ''}>
                      {id === base ? (
                        <span className="compare__muted">{t('compareFoundOn')}</span>
                      ) : d === null ? (
                        <span className="compare__muted">{t('compareSame')}</span>
                      ) : (
                        <>
                          <strong>{t('compareStep', { step: d.step + 1 })}:</strong>{' '}
                          <span className="compare__event compare__event--base">{side(d.baseEvent, base, stoppedAt(baseOutcome, d.step))}</span>
                          <span className="compare__sep">{' | '}</span>
                          <span className="compare__event">{side(d.event, id, stoppedAt(outcome, d.step))}</span>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
