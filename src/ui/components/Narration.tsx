import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { findVariant } from '../../engine/scenario';
import { findScenario } from '../../scenarios';
import { localized } from '../i18n';
import type { TraceEvent } from '../../engine/trace';
import { describeEventIn, scriptNamesOf, tokenNamerFor } from '../i18n/describe';
import { narrationFor } from '../store/derive';
import { useSimStore, useT } from '../store/context';
import { selectNarrationInput } from '../store/selectors';

/** Lines of "what just happened" shown when the run leaves the scripted story. */
const describedEventCountMax = 3;
const NARRATED_KINDS = new Set<TraceEvent['kind']>(['command', 'violation', 'block', 'crash', 'clock', 'give-up', 'write', 'mark']);

/**
 * What the last step did: the scenario's scripted narration while the run follows its default
 * schedule, otherwise a plain description of the step's events.
 */
export function Narration() {
  const t = useT();
  const { scenarioId, variantId, cursor, onDefaultPath, lastStepEvents, tokens, lang } = useSimStore(useShallow(selectNarrationInput));
  const text = useMemo(() => {
    const scenario = findScenario(scenarioId);
    // At the start: the lesson in one line, then how to begin (a hint, set smaller).
    if (cursor === 0) return { scripted: true, lines: [localized(scenario.summary, lang)], hint: t('narrationStart') };
    const scripted = onDefaultPath ? narrationFor(scenario, findVariant(scenario, variantId), cursor - 1) : null;
    if (scripted) return { scripted: true, lines: [localized(scripted, lang)], hint: null };
    const name = tokenNamerFor(tokens, lang);
    const scripts = scriptNamesOf(scenario, findVariant(scenario, variantId));
    // What matters first: violations, then Redis commands, then waits; bookkeeping is left out.
    const rank = (e: TraceEvent) => (e.kind === 'violation' ? 0 : e.kind === 'command' ? 1 : 2);
    const lines = lastStepEvents
      .filter((e) => NARRATED_KINDS.has(e.kind) && !(e.kind === 'clock' && e.reason === 'wait'))
      .map((e, order) => ({ e, order }))
      .sort((a, b) => rank(a.e) - rank(b.e) || a.order - b.order)
      .slice(0, describedEventCountMax)
      .sort((a, b) => a.order - b.order)
      .map(({ e }) => `${e.clientId ?? 'Redis'}: ${describeEventIn(e, lang, name, scripts)}`);
    return { scripted: false, lines, hint: null };
  }, [cursor, onDefaultPath, scenarioId, variantId, lastStepEvents, tokens, lang, t]);

  return (
    <section className="narration" aria-labelledby="narration-heading" data-testid="narration">
      <h2 id="narration-heading" className="narration__heading">
        {t('narration')}
        {cursor > 0 && <span className="narration__step"> · {t('violationAt', { step: cursor })}</span>}
        {!text.scripted && <span className="narration__offscript"> · {t('offScript')}</span>}
      </h2>
      <div className="narration__body" aria-live="polite">
        {text.lines.map((line, i) => (
          <p key={i} className="narration__line">
            {line}
          </p>
        ))}
        {text.hint && <p className="narration__hint">{text.hint}</p>}
      </div>
    </section>
  );
}
