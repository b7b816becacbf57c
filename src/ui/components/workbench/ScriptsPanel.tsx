import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSimStore, useSimStoreApi, useT } from '../../store/context';
import type { SimState } from '../../store/store-types';
import { LuaEditor, type LineProblem } from './LuaEditor';

/** The cursor and the run log are read so the panel re-renders when the last call or the run's errors move. */
const selectScripts = (s: SimState) => ({ scripts: s.workbench.scripts, checking: s.workbench.status === 'checking', cursor: s.cursor, runLog: s.runLog });

/**
 * One script at a time in the Lua editor. Syntax errors show at their line as the learner types
 * (the engine's own parser; nothing runs); errors a run's replies carry (`ERR user_script:3: ...`)
 * show at the line they came from; beside the code, the KEYS and ARGV of the last call before the
 * cursor. "Run with this script" applies the edit (checked off the page first).
 */
export function ScriptsPanel() {
  const t = useT();
  const store = useSimStoreApi();
  const { scripts, checking } = useSimStore(useShallow(selectScripts));
  const [chosen, setChosen] = useState<string | null>(null);
  const name = chosen !== null && scripts.some((s) => s.name === chosen) ? chosen : (scripts[0]?.name ?? null);
  const saved = scripts.find((s) => s.name === name)?.source ?? '';
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const text = name === null ? '' : (drafts[name] ?? saved);

  const syntax = useMemo(() => store.getState().checkScript(text), [store, text]);
  // Run-time errors belong to the source that ran: shown while the editor holds that source.
  // Read on each render (the panel re-renders when the run, the cursor or the scripts change).
  const runtime = name === null || text !== saved ? [] : store.getState().scriptRunErrors(name);
  const call = name === null ? null : store.getState().scriptLastCall(name);
  const problems: LineProblem[] = [];
  if (syntax?.line != null) problems.push({ line: syntax.line, message: syntax.message, severity: 'error' });
  for (const p of runtime) if (p.line !== null) problems.push({ line: p.line, message: p.message, severity: 'warning' });

  if (name === null) return <p>{t('workbenchNoCall')}</p>;
  return (
    <div className="workbench-scripts">
      <label className="field">
        <span className="field__label">{t('workbenchScript')}</span>
        <select className="input" value={name} data-testid="workbench.script-select" onChange={(e) => setChosen(e.target.value)}>
          {scripts.map((s) => (
            <option key={s.name} value={s.name}>
              {s.name}
            </option>
          ))}
        </select>
      </label>
      <LuaEditor key={name} label={t('workbenchScriptEditor', { name })} text={text} problems={problems} onChange={(next) => setDrafts((d) => ({ ...d, [name]: next }))} />
      <div className="workbench__line" data-testid="workbench.script-problem" data-line={syntax?.line ?? ''} data-ok={syntax === null ? 'true' : 'false'}>
        {syntax === null ? t('workbenchCompiles') : syntax.line !== null ? t('workbenchSyntaxAt', { line: syntax.line, message: syntax.message }) : t('workbenchSyntax', { message: syntax.message })}
      </div>
      {runtime.map((p) => (
        <div key={p.message} className="workbench__line workbench__error" data-testid="workbench.script-runtime" data-line={p.line ?? ''}>
          {p.line !== null ? t('workbenchRuntimeAt', { line: p.line, message: p.message }) : t('workbenchRuntime', { message: p.message })}
        </div>
      ))}
      <button
        type="button"
        className="button button--primary"
        data-testid="workbench.script-apply"
        disabled={syntax !== null || checking}
        onClick={() => void store.getState().applyScript(name, text)}
      >
        {t('workbenchApplyScript')}
      </button>
      <section className="workbench-call" aria-label={t('workbenchLastCall')} data-testid="workbench.script-call">
        <h3>{t('workbenchLastCall')}</h3>
        {call === null ? (
          <p>{t('workbenchNoCall')}</p>
        ) : (
          <dl>
            <dt>{t('workbenchKeys')}</dt>
            <dd>{call.keys.map((k, i) => `KEYS[${i + 1}] = ${k}`).join('\n') || '-'}</dd>
            <dt>{t('workbenchArgv')}</dt>
            <dd>{call.args.map((a, i) => `ARGV[${i + 1}] = ${a}`).join('\n') || '-'}</dd>
            <dt>{t('workbenchReply')}</dt>
            <dd>{call.reply ?? '…'}</dd>
          </dl>
        )}
      </section>
    </div>
  );
}
