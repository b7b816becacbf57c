import { useShallow } from 'zustand/react/shallow';
import { violationKindLabel, violationText } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { Icon } from './Icon';

const selectBanner = (s: SimState) => ({ violations: s.violations, lang: s.lang, cursor: s.cursor });

/**
 * The violations so far, in plain words, each linking to its step. The slot keeps its height
 * whether or not there is a violation, so stepping never moves the layout.
 */
export function ViolationBanner() {
  const t = useT();
  const store = useSimStoreApi();
  const { violations, lang, cursor } = useSimStore(useShallow(selectBanner));
  const first = violations[0];
  return (
    <section className="violation-slot" aria-label={t('violations')} aria-live="polite">
      {first ? (
        <div className="violation-banner" data-testid="violation-banner" role="alert">
          <Icon name="warning" />
          <div className="violation-banner__text">
            <strong className="violation-banner__message">{violationText(first.violation, first.message, lang)}</strong>
            <span className="violation-banner__meta">
              {violationKindLabel(first.violation, lang)} · {t('violationAt', { step: first.step + 1 })}
              {violations.length > 1 && ` · ${t('moreViolations', { n: violations.length - 1 })}`}
            </span>
          </div>
          <button
            type="button"
            className="button button--danger"
            aria-current={cursor === first.step + 1 ? 'step' : undefined}
            onClick={() => store.getState().seek(first.step + 1)}
          >
            {t('goToStep', { step: first.step + 1 })}
          </button>
        </div>
      ) : (
        <div className="violation-none" data-testid="violation-none">
          <Icon name="check" />
          <span>{t('noViolations')}</span>
        </div>
      )}
    </section>
  );
}
