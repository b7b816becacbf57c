import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { propertiesTabText, propertyVerdictView, type PropertiesTabKey } from '../../../i18n/properties-tab';
import { useSimStore, useSimStoreApi } from '../../store/context';
import type { PropertyDraft, SimState } from '../../store/store-types';

const selectProperties = (s: SimState) => ({ properties: s.workbench.properties, editStatus: s.workbench.status, lang: s.lang });

const blank: PropertyDraft = { name: '', kind: 'always', expression: '' };

/**
 * The scenario's own properties (docs/EXPLORER.md, "Your own properties"): listed, added, edited
 * and removed as edits of the definition (a bad expression is refused with its path, as any edit),
 * and judged by "Check properties" in the engine worker: each verdict with its shortest schedule
 * to load, or how far the search went and whether it was exhaustive.
 */
export function PropertiesPanel() {
  const store = useSimStoreApi();
  const { properties, editStatus, lang } = useSimStore(useShallow(selectProperties));
  const text = (key: PropertiesTabKey, params?: Readonly<Record<string, string | number>>) => propertiesTabText(lang, key, params);
  const [draft, setDraft] = useState<PropertyDraft>(blank);
  /** The index of the property being edited, or null while adding one. */
  const [editing, setEditing] = useState<number | null>(null);
  const problem = draft.expression === '' ? null : store.getState().propertyExpressionProblem(draft.expression);
  const canSubmit = draft.name.trim() !== '' && draft.expression.trim() !== '' && problem === null && editStatus !== 'checking';

  const submit = async () => {
    await store.getState().applyPropertyEdit({ kind: 'put', at: editing, property: { ...draft, name: draft.name.trim() } });
    // Applied: the form empties; refused: it keeps the text, and the status above says why (by path).
    if (store.getState().workbench.status === 'idle') {
      setDraft(blank);
      setEditing(null);
    }
  };

  return (
    <div className="workbench-properties" data-testid="properties">
      <p className="workbench__hint">{text('intro')}</p>
      {properties.length === 0 ? (
        <div className="workbench-properties__empty" data-testid="properties.empty">
          <p>{text('empty')}</p>
          <pre className="workbench__line">{`{ "name": "one-inside", "always": "${text('exampleAlways').replaceAll('"', '\\"')}" }`}</pre>
          <button type="button" className="button button--small" data-testid="properties.use-example" onClick={() => (setDraft({ name: 'one-inside', kind: 'always', expression: text('exampleAlways') }), setEditing(null))}>
            {text('useExample')}
          </button>
          <p className="workbench__hint">{text('emptyMore')}</p>
        </div>
      ) : (
        <ul className="workbench-properties__list" aria-label={text('list')} data-testid="properties.list">
          {properties.map((p, i) => (
            <li key={p.name} className="workbench-properties__item" data-testid={`properties.row.${p.name}`}>
              <div className="workbench-properties__head">
                <strong>{p.name}</strong>
                <span className="workbench-properties__badge" data-testid={`properties.kind.${p.name}`}>
                  {text(p.kind === 'always' ? 'kindAlways' : 'kindReachable')}
                </span>
                <span className="workbench-step__actions">
                  <button type="button" className="button button--small" aria-label={text('editNamed', { name: p.name })} data-testid={`properties.edit.${p.name}`} onClick={() => (setDraft(p), setEditing(i))}>
                    {text('edit')}
                  </button>
                  <button type="button" className="button button--small" data-testid={`properties.remove.${p.name}`} disabled={editStatus === 'checking'} aria-label={text('removeNamed', { name: p.name })} onClick={() => void store.getState().applyPropertyEdit({ kind: 'remove', at: i })}>
                    {text('remove')}
                  </button>
                </span>
              </div>
              <code className="workbench-properties__expr">{p.expression}</code>
            </li>
          ))}
        </ul>
      )}
      <form
        className="workbench-properties__form"
        aria-label={editing === null ? text('formAdd') : text('formEdit', { name: properties[editing]?.name ?? '' })}
        data-testid="properties.form"
        onSubmit={(event) => {
          event.preventDefault();
          if (canSubmit) void submit();
        }}
      >
        <h3>{editing === null ? text('formAdd') : text('formEdit', { name: properties[editing]?.name ?? '' })}</h3>
        <div className="workbench__row">
          <label className="field">
            <span className="field__label">{text('name')}</span>
            <input className="input" value={draft.name} spellCheck={false} title={text('nameHelp')} data-testid="properties.name" onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">{text('kind')}</span>
            <select className="input" value={draft.kind} data-testid="properties.kind" onChange={(e) => setDraft({ ...draft, kind: e.target.value === 'reachable' ? 'reachable' : 'always' })}>
              <option value="always">{text('kindAlwaysLong')}</option>
              <option value="reachable">{text('kindReachableLong')}</option>
            </select>
          </label>
        </div>
        <label className="field field--column">
          <span className="field__label">{text('expression')}</span>
          <textarea className="input workbench-properties__text" rows={2} spellCheck={false} value={draft.expression} data-testid="properties.expression" onChange={(e) => setDraft({ ...draft, expression: e.target.value })} />
        </label>
        {draft.expression !== '' && (
          <p className={`workbench__line${problem ? ' workbench__error' : ''}`} data-testid="properties.expression-problem" data-ok={problem === null} data-column={problem?.column ?? ''}>
            {problem ? text('problemAt', { column: problem.column, message: problem.message }) : text('parses')}
          </p>
        )}
        <div className="workbench__row">
          <button type="submit" className="button button--small" disabled={!canSubmit} data-testid="properties.submit">
            {editing === null ? text('add') : text('save')}
          </button>
          {editing !== null && (
            <button type="button" className="button button--small" data-testid="properties.cancel-edit" onClick={() => (setDraft(blank), setEditing(null))}>
              {text('cancelEdit')}
            </button>
          )}
        </div>
      </form>
      <CheckSection text={text} />
    </div>
  );
}

const selectCheck = (s: SimState) => ({ check: s.propertyCheck, count: s.workbench.properties.length, editStatus: s.workbench.status, lang: s.lang });

/** "Check properties", its progress and each property's verdict. */
function CheckSection({ text }: { readonly text: (key: PropertiesTabKey, params?: Readonly<Record<string, string | number>>) => string }) {
  const store = useSimStoreApi();
  const { check, count, editStatus, lang } = useSimStore(useShallow(selectCheck));
  const running = check.status === 'running';
  return (
    <section className="workbench-properties__check" aria-label={text('verdicts')}>
      <div className="workbench__row">
        <button type="button" className="button button--primary button--small" disabled={count === 0 || running || editStatus === 'checking'} data-testid="properties.check" onClick={() => store.getState().checkProperties()}>
          {text('check')}
        </button>
        {running && (
          <button type="button" className="button button--small" data-testid="properties.stop" onClick={() => store.getState().cancelPropertyCheck()}>
            {text('stop')}
          </button>
        )}
      </div>
      <p className="workbench__hint">{text('stale')}</p>
      {running && check.progress !== null && (
        <p className="workbench__line" role="status" data-testid="properties.progress">
          {text('checking', { index: Math.min(check.progress.index + 1, check.progress.count), count: check.progress.count, states: check.progress.statesExplored })}
        </p>
      )}
      {check.status === 'error' && (
        <p className="workbench__line workbench__error" data-testid="properties.error">
          {text('checkError', { message: check.error ?? '' })}
        </p>
      )}
      {check.status === 'done' && check.bounds !== null && (
        <ul className="workbench-properties__verdicts" data-testid="properties.verdicts">
          {check.verdicts.map((verdict) => {
            const view = propertyVerdictView(verdict, check.bounds!, lang);
            return (
              <li key={verdict.name} className="workbench-properties__verdict" data-testid={`properties.verdict.${verdict.name}`} data-status={verdict.status} data-exhaustive={verdict.exhaustive}>
                <div className="workbench-properties__head">
                  <strong>{verdict.name}</strong>
                  <span className={`workbench-properties__badge workbench-properties__status is-${verdict.status}`} data-testid={`properties.status.${verdict.name}`}>
                    {view.label}
                  </span>
                </div>
                <p className="workbench__line">{view.sentence}</p>
                {view.reach !== null && <p className="workbench__hint">{view.reach}</p>}
                <p className="workbench__hint">{view.scope}</p>
                {view.schedule !== null && (
                  <button type="button" className="button button--small" title={text('loadTitle')} data-testid={`properties.load.${verdict.name}`} onClick={() => store.getState().loadPropertyRun(verdict.name)}>
                    {text('load')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
