import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { localized } from '../../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { MyScenarioSummary, SimState } from '../../store/store-types';

const selectMine = (s: SimState) => ({ list: s.myScenarios, undo: s.myScenarioUndo, current: s.myScenarioId, title: s.runInfo.title, lang: s.lang });

/** Save the scenario on screen as one of the user's own; open, rename, duplicate, delete (with undo). */
export function MinePanel() {
  const t = useT();
  const store = useSimStoreApi();
  const { list, undo, current, title, lang } = useSimStore(useShallow(selectMine));
  const [name, setName] = useState(() => localized(title, lang));
  return (
    <div className="workbench-mine">
      <form
        className="workbench-param"
        onSubmit={(event) => {
          event.preventDefault();
          store.getState().saveAsMyScenario(name);
        }}
      >
        <label className="field__label" htmlFor="my-scenario-name">
          {t('myScenarioSaveName')}
        </label>
        <input id="my-scenario-name" className="input" value={name} maxLength={200} data-testid="my-scenario-name" onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="button button--primary button--small" disabled={name.trim() === ''} data-testid="my-scenario-save">
          {t('myScenarioSave')}
        </button>
      </form>
      {undo && (
        <p className="workbench__row" data-testid="my-scenario-undo">
          {t('myScenarioDeleted', { name: undo.name })}
          <button type="button" className="button button--small" onClick={() => store.getState().undoDeleteMyScenario()}>
            {t('myScenarioUndo')}
          </button>
        </p>
      )}
      <h3>{t('myScenarios')}</h3>
      {list.length === 0 ? (
        <p>{t('myScenariosNone')}</p>
      ) : (
        <ul className="workbench-steps" data-testid="my-scenarios">
          {list.map((entry) => (
            <MineRow key={`${entry.id}=${entry.name}`} entry={entry} current={entry.id === current} />
          ))}
        </ul>
      )}
    </div>
  );
}

function MineRow({ entry, current }: { entry: MyScenarioSummary; current: boolean }) {
  const t = useT();
  const store = useSimStoreApi();
  const [name, setName] = useState(entry.name);
  return (
    <li className="workbench-step" data-testid={`my-scenario-row.${entry.id}`} aria-current={current ? 'true' : undefined}>
      <form
        className="workbench-param"
        onSubmit={(event) => {
          event.preventDefault();
          store.getState().renameMyScenario(entry.id, name);
        }}
      >
        <input className="input" aria-label={t('myScenarioRename')} value={name} maxLength={200} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="button button--small" disabled={name.trim() === '' || name === entry.name}>
          {t('myScenarioRename')}
        </button>
      </form>
      <span className="workbench-step__actions">
        <button type="button" className="button button--small" onClick={() => store.getState().openMyScenario(entry.id)}>
          {t('myScenarioOpen')}
        </button>
        <button type="button" className="button button--small" onClick={() => store.getState().duplicateMyScenario(entry.id)}>
          {t('myScenarioDuplicate')}
        </button>
        <button type="button" className="button button--small button--danger" onClick={() => store.getState().deleteMyScenario(entry.id)}>
          {t('myScenarioDelete')}
        </button>
      </span>
    </li>
  );
}
