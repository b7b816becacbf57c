import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { SimState } from '../../store/store-types';

const selectSchedule = (s: SimState) => ({ schedule: s.schedule, problem: s.workbench.scheduleProblem, length: s.length });

/** Wall time between the last keystroke and the replay (UI only: typing a token should not replay each half of it). */
const typingPauseMs = 250;

/**
 * The run's schedule as text, in the CLI's grammar (docs/SCHEDULES.md). Typing replays it; a
 * schedule that does not parse or fit says where (the bad token marked), and the run stays.
 */
export function SchedulePanel() {
  const t = useT();
  const store = useSimStoreApi();
  const { schedule, problem, length } = useSimStore(useShallow(selectSchedule));
  const [text, setText] = useState(schedule);
  const typed = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Steps taken with the buttons show up here, unless the learner is mid-edit.
  useEffect(() => {
    if (!typed.current) setText(schedule);
  }, [schedule]);
  useEffect(() => () => {
    if (timer.current !== null) clearTimeout(timer.current);
  }, []);

  const replay = (next: string) => {
    typed.current = false;
    store.getState().applyScheduleText(next);
  };

  return (
    <div className="workbench-schedule">
      <label className="field field--column">
        <span className="field__label">{t('workbenchScheduleLabel')}</span>
        <textarea
          className="input workbench-schedule__text"
          rows={4}
          spellCheck={false}
          value={text}
          data-testid="workbench.schedule-text"
          onChange={(e) => {
            const next = e.target.value;
            typed.current = true;
            setText(next);
            if (timer.current !== null) clearTimeout(timer.current);
            timer.current = setTimeout(() => replay(next), typingPauseMs);
          }}
        />
      </label>
      <p className="workbench__hint">{t('workbenchScheduleHelp')}</p>
      {problem === null ? (
        <p className="workbench__line" data-testid="workbench.schedule-problem" data-ok="true">
          {t('workbenchScheduleOk', { n: length })}
        </p>
      ) : (
        <div className="workbench__line workbench__error" data-testid="workbench.schedule-problem" data-ok="false" data-offset={problem.offset ?? ''}>
          <p>{problem.offset !== null ? t('workbenchScheduleAt', { position: problem.offset + 1, message: problem.message }) : t('workbenchScheduleProblem', { message: problem.message })}</p>
          {problem.offset !== null && text.length <= 2000 && (
            <pre className="workbench-schedule__pointer">
              {text.slice(0, problem.offset)}
              <mark data-testid="workbench.schedule-bad-token">{text.slice(problem.offset, problem.offset + problem.length)}</mark>
              {text.slice(problem.offset + problem.length)}
            </pre>
          )}
        </div>
      )}
    </div>
  );
}
