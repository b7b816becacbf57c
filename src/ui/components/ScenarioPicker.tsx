import { useEffect, useId, useRef, useState } from 'react';
import { localized } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { selectLang, selectScenarioId, selectScenarios } from '../store/selectors';
import type { SimState } from '../store/store-types';
import { Icon } from './Icon';

const selectMyScenarios = (s: SimState) => s.myScenarios;

const selectPath = (s: SimState) => s.lessons;
const selectProgress = (s: SimState) => s.progress;

/** The lessons in teaching order, numbered, the place to start marked, each with its one-line lesson and this browser's progress. */
export function ScenarioPicker() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const scenarioId = useSimStore(selectScenarioId);
  const scenarios = useSimStore(selectScenarios);
  const mine = useSimStore(selectMyScenarios);
  const lessons = useSimStore(selectPath);
  const progress = useSimStore(selectProgress);
  const store = useSimStoreApi();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    rootRef.current?.querySelector<HTMLButtonElement>('[aria-current="true"], .scenario-menu button')?.focus();
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="scenario-picker" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="button button--ghost scenario-picker__button"
        aria-expanded={open}
        aria-controls={menuId}
        data-testid="scenario-picker"
        onClick={() => setOpen(!open)}
      >
        <span>{t('scenarios')}</span>
        <span className="scenario-picker__count" aria-hidden="true">
          {scenarios.length}
        </span>
        <Icon name="chevron" />
      </button>
      {open && (
        <div className="scenario-menu" id={menuId} role="group" aria-label={t('scenarioPickerHint')}>
          <ul>
            {scenarios.map((scenario, i) => {
              const lesson = lessons[i];
              const done = progress.lessons[scenario.id];
              const metCount = done ? Object.keys(done.met).length : 0;
              return (
              <li key={scenario.id} className={lesson?.start ? 'is-start' : undefined}>
                <button
                  type="button"
                  className="scenario-menu__item"
                  aria-current={scenario.id === scenarioId ? 'true' : undefined}
                  data-testid={`scenario.${scenario.id}`}
                  onClick={() => {
                    setOpen(false);
                    buttonRef.current?.focus();
                    store.getState().startLesson(scenario.id);
                  }}
                >
                  <span className="scenario-menu__title">
                    <span className="scenario-menu__number">{i + 1}.</span> {localized(scenario.title, lang)}
                    {lesson?.start && <span className="badge badge--start">{t('startHere')}</span>}
                    {done && (
                      <span className="scenario-menu__progress">
                        <Icon name="check" /> {metCount > 0 ? t('challengeMetMark') : t('lessonVisited')}
                      </span>
                    )}
                  </span>
                  <span className="scenario-menu__summary">{localized(scenario.summary, lang)}</span>
                </button>
              </li>
              );
            })}
          </ul>
          {mine.length > 0 && (
            <>
              <h2 className="scenario-menu__heading">{t('myScenarios')}</h2>
              <ul data-testid="scenario-menu.mine">
                {mine.map((entry) => (
                  <li key={entry.id}>
                    <button
                      type="button"
                      className="scenario-menu__item"
                      aria-current={entry.id === scenarioId ? 'true' : undefined}
                      data-testid={`my-scenario.${entry.id}`}
                      onClick={() => {
                        setOpen(false);
                        buttonRef.current?.focus();
                        store.getState().openMyScenario(entry.id);
                      }}
                    >
                      <span className="scenario-menu__title">{entry.name}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
