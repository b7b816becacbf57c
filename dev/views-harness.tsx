/**
 * Dev harness for the timeline and sequence views (not part of the app; dev/README.md). Shows a
 * run computed by `npx tsx dev/views-harness-data.ts` (JSON under .screenshots/runs/).
 * Query: ?run=lua&theme=dark&lang=zh&cursor=3&presentation=1&view=timeline|sequence|both.
 * Serve with `npx vite --port 4412` and open /dev/views-harness.html.
 */
import { StrictMode, useCallback, useEffect, useMemo, useState } from 'react';
import type { Lang } from '../src/i18n';
import type { RunViewProps } from '../src/ui/views/types';
import { createRoot } from 'react-dom/client';
import { ExportButtons } from '../src/ui/views/ExportButtons';
import { SequenceView } from '../src/ui/views/SequenceView';
import { TimelineView } from '../src/ui/views/TimelineView';
import type { HarnessRun } from './views-harness-types';
import '../src/ui/styles/theme.css';
import '../src/ui/views/views.css';

const params = new URLSearchParams(location.search);
const runName = params.get('run') ?? 'get-then-del';
const lang: Lang = params.get('lang') === 'zh' ? 'zh' : 'en';
const view = params.get('view') ?? 'both';
/** Height of each view's panel, like the app's tab panel (px); absent: natural height. */
const panelHeightPx = Number(params.get('height') ?? 0);
const panelStyle = panelHeightPx ? { height: panelHeightPx } : undefined;
document.documentElement.dataset.theme = params.get('theme') === 'dark' ? 'dark' : 'light';
if (params.get('presentation') === '1') document.documentElement.dataset.presentation = 'on';
document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';

function Harness({ run }: { run: HarnessRun }) {
  const length = run.nowMsByStep.length - 1;
  const [cursor, setCursor] = useState(() => Math.min(length, Number(params.get('cursor') ?? length)));
  const onJump = useCallback((step: number) => setCursor(Math.max(0, Math.min(length, step))), [length]);
  useEffect(() => {
    (window as unknown as { harness: unknown }).harness = { setCursor, length, eventCount: run.events.length };
  }, [length, run.events.length]);
  const nowMs = run.nowMsByStep[cursor];
  const runProps: RunViewProps = useMemo(
    () => ({ events: run.events, eventCount: run.events.length, generation: 0, clientIds: run.clientIds, cursorStep: cursor, nowMs, lang, tokenOwners: run.tokenOwners, onJump }),
    [run, cursor, nowMs, onJump],
  );
  return (
    <main className="harness">
      <header>
        <strong>
          {run.name}: {run.events.length} events, {length} steps
        </strong>
        <button onClick={() => onJump(cursor - 1)}>◀ back</button>
        <button onClick={() => onJump(cursor + 1)}>forward ▶</button>
        <span data-testid="harness.cursor">
          step {cursor} / {length}, t={nowMs} ms
        </span>
        <ExportButtons target="timeline" fileBase={`lockstep-get-then-del-${run.name}`} lang={lang} getRun={() => runProps} />
        <ExportButtons target="sequence" fileBase={`lockstep-get-then-del-${run.name}`} lang={lang} getRun={() => runProps} />
      </header>
      {view !== 'sequence' && (
        <div className="harness-panel" style={panelStyle}>
          <TimelineView {...runProps} />
        </div>
      )}
      {view !== 'timeline' && (
        <div className="harness-panel" style={panelStyle}>
          <SequenceView {...runProps} />
        </div>
      )}
    </main>
  );
}

const style = document.createElement('style');
style.textContent = `
  body { margin: 0; background: var(--bg, #f5f6f8); color: var(--lsv-fg); font-family: var(--lsv-font); }
  .harness { padding: 16px; display: grid; gap: 16px; }
  .harness header { display: flex; gap: 12px; align-items: center; font-size: 13px; }
  .harness-panel { border: 1px solid var(--lsv-border); border-radius: 10px; overflow: hidden; }
`;
document.head.append(style);

fetch(`/.screenshots/runs/${runName}.json`)
  .then((r) => r.json() as Promise<HarnessRun>)
  .then((run) =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <Harness run={run} />
      </StrictMode>,
    ),
  );
