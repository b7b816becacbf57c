import { useShallow } from 'zustand/react/shallow';
import { localized, violationKindLabel, type Lang, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { ExploreButton, ExploreVerdict } from './ExploreDialog';
import { NodesButton } from './NodesButton';
import type { VariantOutcome } from '../store/createSimStore';
import { selectLang, selectOutcomes, selectRunInfo, selectScenarioId } from '../store/selectors';

/**
 * The scenario's title, its lesson on demand, and the variant toggle, on one line. The one-line
 * lesson opens the narration at step 0 (and the scenario menu lists it).
 */
export function ScenarioBar() {
  const lang = useSimStore(selectLang);
  const scenario = useSimStore(selectRunInfo);
  const t = useT();
  return (
    <section className="scenario-bar" aria-labelledby="scenario-title">
      <div className="scenario-bar__text">
        <h1 id="scenario-title" className="scenario-bar__title" data-testid="scenario-title" title={localized(scenario.title, lang)}>
          {localized(scenario.title, lang)}
        </h1>
        <details className="lesson" data-testid="lesson">
          <summary title={t('showLesson')}>{t('lesson')}</summary>
          <div className="lesson__body">
            <p className="lesson__summary">{localized(scenario.summary, lang)}</p>
            <p>{localized(scenario.lesson, lang)}</p>
          </div>
        </details>
        <ExploreButton />
        <NodesButton />
      </div>
      <VariantToggle />
      <ExploreVerdict />
    </section>
  );
}

function outcomeLines(outcome: VariantOutcome | undefined, t: Translate, lang: Lang): [string, string] {
  if (!outcome) return [t('outcomeComputing'), ''];
  const first = outcome.violations[0];
  const result = first ? t('outcomeViolation', { kind: violationKindLabel(first.kind, lang), step: first.step + 1 }) : t('outcomeClean');
  const notes: string[] = [];
  if (outcome.firstDivergentStep !== null) notes.push(t('outcomeDivergesAt', { step: outcome.firstDivergentStep + 1 }));
  if (outcome.stopReason !== null) notes.push(t('outcomeStopsAt', { step: outcome.stepsApplied + 1 }));
  return [result, notes.join(' · ')];
}

/**
 * Variants as a radio group. Each option says what that variant does under the current schedule
 * (computed in the worker), so the toggle itself shows where outcomes diverge.
 */
function VariantToggle() {
  const t = useT();
  const store = useSimStoreApi();
  const scenarioId = useSimStore(selectScenarioId);
  const { variants } = useSimStore(selectRunInfo);
  const { outcomes, pending, variantId, lang } = useSimStore(useShallow(selectOutcomes));
  const current = outcomes && outcomes.scenarioId === scenarioId ? outcomes : null;
  return (
    <fieldset className="variant-toggle" data-testid="variant-toggle">
      <legend>{t('variant')}</legend>
      {variants.map((variant) => {
        const outcome = current?.outcomes.find((o) => o.variantId === variant.id);
        const checked = variant.id === variantId;
        const bad = outcome !== undefined && outcome.violations.length > 0;
        const [result, note] = outcomeLines(outcome, t, lang);
        return (
          <label key={variant.id} className={`variant-option${checked ? ' is-checked' : ''}`} data-testid={`variant.${variant.id}`}>
            <input
              type="radio"
              name={`variant-${scenarioId}`}
              value={variant.id}
              checked={checked}
              onChange={() => store.getState().selectVariant(variant.id)}
            />
            <span className="variant-option__title" title={localized(variant.title, lang)}>
              {localized(variant.title, lang)}
            </span>
            <span
              className={`variant-option__outcome${bad ? ' is-bad' : outcome ? ' is-good' : ''}`}
              data-testid={`variant.${variant.id}.outcome`}
              title={note ? `${result} · ${note}` : result}
            >
              {bad ? '⚠ ' : outcome ? '✓ ' : ''}
              {result}
              {pending && outcome ? ' …' : ''}
              {note && <span className="variant-option__note"> · {note}</span>}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
