import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../i18n';
import { DEBATE_CLAIMS, DEBATE_SOURCES, REDLOCK_DEBATE, type DebateRun, type DebateSide } from '../../i18n/redlock-debate';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { runLinkOf } from '../store/selectors';
import { useModalDialog } from './useModalDialog';

const selectDialog = (s: SimState) => ({ open: s.debateOpen, lang: s.lang, scenarios: s.scenarios });

const SIDES: readonly DebateSide[] = ['kleppmann', 'antirez', 'both'];

/**
 * The Redlock debate as a lesson: each side's claims in its own words (src/i18n/redlock-debate.ts),
 * each beside links that load the run showing it (a share link: the page opens it like any other).
 */
export function RedlockDebateDialog() {
  const t = useT();
  const store = useSimStoreApi();
  const { open, lang, scenarios } = useSimStore(useShallow(selectDialog));
  const ref = useModalDialog(open);
  const text = REDLOCK_DEBATE[lang];
  const close = () => store.getState().setDebateOpen(false);
  const runName = (run: DebateRun) => {
    const scenario = scenarios.find((s) => s.id === run.scenarioId);
    const variant = scenario?.variants.find((v) => v.id === run.variantId);
    return `${localized(scenario?.title, lang) || run.scenarioId} · ${localized(variant?.title, lang) || run.variantId}`;
  };
  return (
    <dialog ref={ref} className="dialog debate-dialog" aria-labelledby="debate-title" onClose={close} data-testid="debate-dialog">
      <h2 id="debate-title" className="dialog__title">
        {text.title}
      </h2>
      <p className="debate-dialog__intro">{text.intro}</p>
      {SIDES.map((side) => (
        <section key={side} className={`debate-side debate-side--${side}`} aria-labelledby={`debate-side-${side}`} data-testid={`debate.${side}`}>
          <h3 id={`debate-side-${side}`} className="debate-side__title">
            {text.sides[side]}
          </h3>
          <ul className="debate-side__claims">
            {DEBATE_CLAIMS.filter((c) => c.side === side).map((claim) => (
              <li key={claim.id} className="debate-claim" data-testid={`debate.claim.${claim.id}`}>
                <p>{text.claims[claim.id]}</p>
                <p className="debate-claim__runs">
                  {claim.runs.length === 0 ? (
                    <span className="debate-claim__none">{text.noRun}</span>
                  ) : (
                    claim.runs.map((run) => (
                      <a
                        key={`${run.scenarioId}/${run.variantId}`}
                        className="debate-claim__run"
                        href={runLinkOf(run.scenarioId, run.variantId)}
                        onClick={close}
                        data-testid={`debate.run.${run.scenarioId}.${run.variantId}`}
                      >
                        {text.showRun.replace('{run}', runName(run))}
                      </a>
                    ))
                  )}
                </p>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <h3 className="debate-side__title">{text.sources}</h3>
      <ul className="debate-dialog__sources">
        <li>
          <a href={DEBATE_SOURCES.kleppmann} target="_blank" rel="noreferrer">
            {text.kleppmannSource}
          </a>
        </li>
        <li>
          <a href={DEBATE_SOURCES.antirez} target="_blank" rel="noreferrer">
            {text.antirezSource}
          </a>
        </li>
      </ul>
      <form method="dialog" className="dialog__actions">
        <button type="submit" className="button button--primary">
          {t('close')}
        </button>
      </form>
    </dialog>
  );
}
