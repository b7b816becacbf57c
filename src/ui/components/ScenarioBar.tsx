import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { localized, violationKindLabel, type Lang, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { ExploreButton, ExploreVerdict } from './ExploreDialog';
import { WorkbenchButton } from './WorkbenchButton';
import { NodesButton } from './NodesButton';
import { RedlockDebateButton } from './RedlockDebate';
import type { VariantOutcome } from '../store/store-types';
import { selectLang, selectOutcomes, selectRunInfo, selectScenarioId } from '../store/selectors';
import type { SimState } from '../store/store-types';
import { Landing } from './Landing';
import { LearnStrip } from './LearnStrip';

const selectLanding = (s: SimState) => s.landing;

/**
 * The scenario's title, its lesson on demand, and the variant toggle, on one line. The one-line
 * lesson opens the narration at step 0 (and the scenario menu lists it).
 */
export function ScenarioBar() {
  const lang = useSimStore(selectLang);
  const scenario = useSimStore(selectRunInfo);
  const t = useT();
  const [lessonOpen, setLessonOpen] = useState(false);
  const lessonId = useId();
  const landing = useSimStore(selectLanding);
  return (
    <section className="scenario-bar" aria-labelledby="scenario-title">
      <div className="scenario-bar__text">
        <h1 id="scenario-title" className="scenario-bar__title" data-testid="scenario-title" title={localized(scenario.title, lang)}>
          {localized(scenario.title, lang)}
        </h1>
        <span className="lesson" data-testid="lesson">
          <button
            type="button"
            className="lesson__toggle"
            aria-expanded={lessonOpen}
            aria-controls={lessonId}
            title={t('showLesson')}
            onClick={() => setLessonOpen(!lessonOpen)}
          >
            {t('lesson')} {lessonOpen ? '▾' : '▸'}
          </button>
        </span>
        <LessonNumber />
        <ExploreButton />
        <WorkbenchButton />
        <NodesButton />
        {/* First visit: where to start; afterwards the lesson's challenges. Both on this row, so neither adds one. */}
        {landing ? <Landing /> : <LearnStrip />}
      </div>
      {/* In the flow, under the title: the lesson pushes the page down and covers nothing. */}
      {lessonOpen && (
        <div className="lesson__body" id={lessonId} data-testid="lesson.body">
          <p className="lesson__summary">{localized(scenario.summary, lang)}</p>
          <p>{localized(scenario.lesson, lang)}</p>
          <RedlockDebateButton />
        </div>
      )}
      <VariantToggle />
      <ExploreVerdict />
    </section>
  );
}

const selectLessonNumber = (s: SimState) => {
  const at = s.lessons.findIndex((l) => l.id === s.scenarioId);
  return at === -1 ? null : { n: at + 1, total: s.lessons.length };
};

/** "Lesson 5 of 14": where this lesson is on the path. */
function LessonNumber() {
  const t = useT();
  const place = useSimStore(useShallow(selectLessonNumber));
  if (!place) return null;
  return (
    <span className="scenario-bar__number" data-testid="lesson-number">
      {t('lessonOf', place)}
    </span>
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
export function VariantToggle() {
  const t = useT();
  const store = useSimStoreApi();
  const scenarioId = useSimStore(selectScenarioId);
  const { variants } = useSimStore(selectRunInfo);
  const { outcomes, pending, variantId, lang, predict } = useSimStore(useShallow(selectOutcomes));
  const { variantLabel } = useSimStore(selectRunInfo);
  const baseId = useId();
  const current = outcomes && outcomes.scenarioId === scenarioId ? outcomes : null;
  return (
    <fieldset className="variant-toggle" data-testid="variant-toggle">
      <legend>{localized(variantLabel, lang)}</legend>
      {variants.map((variant) => {
        // Predict mode: a variant's outcome tells how the run ends, which is what the learner is asked.
        const outcome = predict ? undefined : current?.outcomes.find((o) => o.variantId === variant.id);
        const checked = variant.id === variantId;
        const bad = outcome !== undefined && outcome.violations.length > 0;
        const [result, note] = predict ? [t('predictOutcomeHidden'), ''] : outcomeLines(outcome, t, lang);
        return (
          <label key={variant.id} className={`variant-option${checked ? ' is-checked' : ''}`} data-testid={`variant.${variant.id}`}>
            <input
              type="radio"
              name={`variant-${scenarioId}`}
              value={variant.id}
              checked={checked}
              aria-labelledby={`${baseId}-${variant.id}-title`}
              aria-describedby={`${baseId}-${variant.id}-outcome`}
              onChange={() => store.getState().selectVariant(variant.id)}
            />
            <span className="variant-option__title" id={`${baseId}-${variant.id}-title`} title={localized(variant.title, lang)}>
              {localized(variant.title, lang)}
            </span>
            <span
              className={`variant-option__outcome${bad ? ' is-bad' : outcome ? ' is-good' : ''}`}
              id={`${baseId}-${variant.id}-outcome`}
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
