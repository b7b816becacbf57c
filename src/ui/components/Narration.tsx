import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../i18n';
import { useSimStore, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import type { TraceEvent } from '../store/published';
import { selectDescribeEvent, selectScriptedNarration } from '../store/selectors';

/** Lines of "what just happened" shown when the run leaves the scripted story. */
const describedEventCountMax = 3;
const NARRATED_KINDS = new Set<TraceEvent['kind']>(['command', 'violation', 'block', 'crash', 'clock', 'give-up', 'write', 'mark']);

const selectNarrationInput = (s: SimState) => ({
  cursor: s.cursor,
  summary: s.runInfo.summary,
  scripted: selectScriptedNarration(s),
  lastStepEvents: s.lastStepEvents,
  lang: s.lang,
  onDefaultPath: s.onDefaultPath,
});

/**
 * What the last step did: the scenario's scripted narration while the run follows its default
 * schedule, otherwise a plain description of the step's events.
 */
export function Narration() {
  const t = useT();
  const { cursor, summary, scripted, lastStepEvents, lang, onDefaultPath } = useSimStore(useShallow(selectNarrationInput));
  const describe = useSimStore(selectDescribeEvent);
  const text = useMemo(() => {
    // At the start: the lesson in one line, then how to begin (a hint, set smaller).
    if (cursor === 0) return { scripted: true, lines: [localized(summary, lang)], hint: t('narrationStart') };
    if (scripted) return { scripted: true, lines: [localized(scripted, lang)], hint: null };
    // What matters first: violations, then Redis commands, then waits; bookkeeping is left out.
    const rank = (e: TraceEvent) => (e.kind === 'violation' ? 0 : e.kind === 'command' ? 1 : 2);
    const lines = lastStepEvents
      .filter((e) => NARRATED_KINDS.has(e.kind) && !(e.kind === 'clock' && e.reason === 'wait'))
      .map((e, order) => ({ e, order }))
      .sort((a, b) => rank(a.e) - rank(b.e) || a.order - b.order)
      .slice(0, describedEventCountMax)
      .sort((a, b) => a.order - b.order)
      .map(({ e }) => t('narrationLine', { who: e.clientId ?? t('redis'), text: describe(e) }));
    return { scripted: false, lines, hint: null };
  }, [cursor, summary, scripted, lastStepEvents, lang, t, describe]);

  return (
    <section className="narration" aria-labelledby="narration-heading" data-testid="narration">
      <h2 id="narration-heading" className="narration__heading">
        {t('narration')}
        {cursor > 0 && <span className="narration__step"> · {t('violationAt', { step: cursor })}</span>}
        {/* The scenario's own schedule, even where it has no narration, is not the learner's. */}
        {!text.scripted && !onDefaultPath && <span className="narration__offscript"> · {t('offScript')}</span>}
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
