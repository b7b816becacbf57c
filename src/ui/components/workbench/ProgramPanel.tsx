import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { ProgramEdit, SimState } from '../../store/store-types';
import { ClientsEditor } from './ClientsEditor';
import { InsertStepForm } from './InsertStepForm';

const selectProgram = (s: SimState) => ({
  clientIds: s.clientIds,
  programs: s.runInfo.programs,
  scripts: s.workbench.scripts,
  params: s.workbench.params,
  checking: s.workbench.status === 'checking',
});

/**
 * Each client's program as lines with move, remove and "call a script" per step, a step to insert
 * anywhere, the clients (add, remove), and the scenario's parameters (the lease, the key). Every change replays the current schedule at once.
 */
export function ProgramPanel() {
  const t = useT();
  const store = useSimStoreApi();
  const { clientIds, programs, scripts, params, checking } = useSimStore(useShallow(selectProgram));
  const [chosen, setChosen] = useState<string | null>(null);
  const [sameForAll, setSameForAll] = useState(true);
  const clientId = chosen !== null && clientIds.includes(chosen) ? chosen : (clientIds[0] ?? null);
  const lines = clientId === null ? [] : (programs[clientId] ?? []);
  const edit = (change: ProgramEdit) => void store.getState().applyProgramEdit(change, sameForAll);

  return (
    <div className="workbench-program">
      <div className="workbench__row">
        <label className="field">
          <span className="field__label">{t('workbenchClient')}</span>
          <select className="input" value={clientId ?? ''} data-testid="workbench.client-select" onChange={(e) => setChosen(e.target.value)}>
            {clientIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <label className="workbench__check">
          <input type="checkbox" checked={sameForAll} onChange={(e) => setSameForAll(e.target.checked)} data-testid="workbench.same-for-all" />
          {t('workbenchSameForAll')}
        </label>
      </div>
      <ol className="workbench-steps" data-testid="workbench.steps">
        {clientId !== null &&
          lines.map((line) => {
            const n = line.pc + 1;
            const id = `workbench.step.${clientId}.${line.pc}`;
            return (
              <li key={line.pc} className="workbench-step" data-testid={id}>
                <code className="workbench-step__code">
                  <span className="workbench-step__pc">{n}</span>
                  {line.label !== undefined ? `${line.label}: ` : ''}
                  {line.code}
                </code>
                <span className="workbench-step__actions">
                  <button type="button" className="button button--small" disabled={checking || line.pc === 0} aria-label={t('workbenchMoveUp', { pc: n })} onClick={() => edit({ kind: 'move', clientId, pc: line.pc, by: -1 })}>
                    ↑
                  </button>
                  <button type="button" className="button button--small" disabled={checking || line.pc === lines.length - 1} aria-label={t('workbenchMoveDown', { pc: n })} onClick={() => edit({ kind: 'move', clientId, pc: line.pc, by: 1 })}>
                    ↓
                  </button>
                  <button type="button" className="button button--small" disabled={checking} aria-label={t('workbenchRemove', { pc: n })} data-testid={`${id}.remove`} onClick={() => edit({ kind: 'remove', clientId, pc: line.pc })}>
                    ✕
                  </button>
                  {line.redis && scripts.length > 0 && (
                    <select
                      className="input input--small"
                      aria-label={t('workbenchCallScript', { pc: n })}
                      data-testid={`${id}.call-script`}
                      value=""
                      disabled={checking}
                      onChange={(e) => e.target.value !== '' && edit({ kind: 'callScript', clientId, pc: line.pc, script: e.target.value })}
                    >
                      <option value="">{t('workbenchCallScriptPick')}</option>
                      {scripts.map((s) => (
                        <option key={s.name} value={s.name}>
                          {s.name}
                        </option>
                      ))}
                    </select>
                  )}
                </span>
              </li>
            );
          })}
      </ol>
      {clientId !== null && (
        <button type="button" className="button button--small" disabled={checking} onClick={() => edit({ kind: 'insertWork', clientId, pc: lines.length, durationMs: 1000 })}>
          {t('workbenchAddWork')}
        </button>
      )}
      {clientId !== null && <InsertStepForm clientId={clientId} stepCount={lines.length} sameForAll={sameForAll} />}
      <ClientsEditor />
      <h3>{t('workbenchParams')}</h3>
      <div className="workbench-params">
        {params.map((p) => (
          <ParamField key={`${p.name}=${p.value}`} name={p.name} value={p.value} disabled={checking} onApply={(value) => void store.getState().applyParam(p.name, value)} />
        ))}
      </div>
    </div>
  );
}

function ParamField({ name, value, disabled, onApply }: { name: string; value: string; disabled: boolean; onApply: (value: string) => void }) {
  const t = useT();
  const [text, setText] = useState(value);
  return (
    <form
      className="field workbench-param"
      onSubmit={(event) => {
        event.preventDefault();
        if (text !== value) onApply(text);
      }}
    >
      <label className="field__label" htmlFor={`workbench-param-${name}`}>
        {name}
      </label>
      <input id={`workbench-param-${name}`} className="input" value={text} disabled={disabled} data-testid={`workbench.param.${name}`} onChange={(e) => setText(e.target.value)} />
      <button type="submit" className="button button--small" disabled={disabled || text === value}>
        {t('workbenchParamApply', { name })}
      </button>
    </form>
  );
}
