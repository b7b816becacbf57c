/**
 * Inserts a step into one client's program at any position: a Redis command the scenario's
 * programs already send, a call of one of its scripts, work or a sleep of a chosen duration.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { workbenchExtraText, type WorkbenchExtraKey } from '../../../i18n/workbench-extra';
import { useSimStore, useSimStoreApi } from '../../store/context';
import type { SimState, StepOption } from '../../store/store-types';

const selectInsert = (s: SimState) => ({ options: s.workbench.stepOptions, checking: s.workbench.status === 'checking', lang: s.lang });

interface Props {
  readonly clientId: string;
  readonly stepCount: number;
  readonly sameForAll: boolean;
}

function optionLabel(option: StepOption, t: (key: WorkbenchExtraKey, params?: Record<string, string | number>) => string): string {
  switch (option.kind) {
    case 'command':
      return t('kindCommand', { text: option.text });
    case 'script':
      return t('kindScript', { name: option.text });
    case 'work':
      return t('kindWork');
    case 'sleep':
      return t('kindSleep');
  }
}

export function InsertStepForm({ clientId, stepCount, sameForAll }: Props) {
  const store = useSimStoreApi();
  const { options, checking, lang } = useSimStore(useShallow(selectInsert));
  const t = (key: WorkbenchExtraKey, params?: Record<string, string | number>) => workbenchExtraText(lang, key, params);
  const [kind, setKind] = useState<string>('');
  const [at, setAt] = useState<number | null>(null);
  const [ms, setMs] = useState('1000');
  const option = options.find((o) => o.id === kind) ?? options[0];
  const pc = at === null || at > stepCount ? stepCount : at;
  const timed = option?.kind === 'work' || option?.kind === 'sleep';
  const durationMs = Number(ms);
  const durationOk = /^[0-9]{1,8}$/.test(ms) && durationMs >= 1;
  if (option === undefined) return null;
  return (
    <form
      className="workbench-insert"
      aria-label={t('insertStep')}
      data-testid="workbench.insert"
      onSubmit={(event) => {
        event.preventDefault();
        const step = timed ? { ...option.step, durationMs } : option.step;
        void store.getState().applyProgramEdit({ kind: 'insert', clientId, pc, step: step as StepOption['step'] }, sameForAll);
      }}
    >
      <h3>{t('insertStep')}</h3>
      <div className="workbench__row">
        <label className="workbench__check">
          {t('insertKind')}
          <select className="input input--small" value={option.id} data-testid="workbench.insert-kind" onChange={(e) => setKind(e.target.value)}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>
                {optionLabel(o, t)}
              </option>
            ))}
          </select>
        </label>
        {timed && (
          <label className="workbench__check">
            {t('insertMs')}
            <input className="input input--small" inputMode="numeric" value={ms} size={7} data-testid="workbench.insert-ms" aria-invalid={!durationOk} onChange={(e) => setMs(e.target.value)} />
          </label>
        )}
        <label className="workbench__check">
          {t('insertAt')}
          <select className="input input--small" value={pc} data-testid="workbench.insert-at" onChange={(e) => setAt(Number(e.target.value))}>
            {Array.from({ length: stepCount }, (_, i) => (
              <option key={i} value={i}>
                {i + 1}
              </option>
            ))}
            <option value={stepCount}>{t('insertEnd')}</option>
          </select>
        </label>
        <button type="submit" className="button button--small" disabled={checking || (timed && !durationOk)} data-testid="workbench.insert-do">
          {t('insertDo')}
        </button>
      </div>
    </form>
  );
}
