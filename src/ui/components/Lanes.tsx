import { DurationInput, isValidDurationMs } from './DurationInput';
import { memo, useCallback, useLayoutEffect, useRef, type CSSProperties } from 'react';
import { localized, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import type { SimState } from '../store/store-types';
import { selectClientIds, selectLang, selectPresentation } from '../store/selectors';
import type { ClientView, ProgramLine } from '../store/types';
import { ClientBadge, clientClass } from './ClientBadge';
import { stallDraftOf } from '../store/slices/drafts';
import { Icon } from './Icon';

/** One lane per client, side by side. */
export function Lanes() {
  const clientIds = useSimStore(selectClientIds);
  const t = useT();
  return (
    <section
      className="lanes"
      aria-label={t('clients')}
      // The count sizes the columns in CSS (layout.css, .lanes): every lane on screen, narrower with more.
      style={{ '--lane-count': Math.max(1, clientIds.length) } as CSSProperties}
    >
      {clientIds.map((id) => (
        <Lane key={id} clientId={id} />
      ))}
    </section>
  );
}

const NO_LINES: readonly ProgramLine[] = [];

function statusText(client: ClientView, t: Translate): string {
  if (client.stalledUntilMs !== null) return t('statusStalled', { untilMs: client.stalledUntilMs });
  const untilMs = client.blockedUntilMs ?? '';
  switch (client.status) {
    case 'idle':
      return t('statusIdle');
    case 'ready':
      return t('statusReady');
    case 'crashed':
      return t('statusCrashed');
    case 'done':
      return t('statusDone');
    case 'blocked':
      switch (client.blockReason) {
        case 'hang':
          return t('statusHung');
        case 'sleep':
          return t('statusSleeping', { untilMs });
        case 'reply':
          return t('statusAwaitingReply', { untilMs });
        case 'busy':
          return t('statusRedisBusy', { untilMs });
        case 'message':
          return t('statusAwaitingMessage', { untilMs });
        case 'pop':
          return untilMs === null ? t('statusAwaitingPopForever') : t('statusAwaitingPop', { untilMs });
        case 'retry':
          return t('statusRetrying', { untilMs });
        default:
          return t('statusWorking', { untilMs });
      }
  }
}

function statusTone(client: ClientView): string {
  if (client.stalledUntilMs !== null) return 'paused';
  if (client.status === 'idle') return 'done';
  if (client.status === 'blocked') return client.blockReason === 'work' ? 'working' : client.blockReason === 'hang' ? 'paused' : 'waiting';
  return client.status;
}

/** A client's program like a debugger: code lines with the next one highlighted, state, and controls. */
const Lane = memo(function Lane({ clientId }: { clientId: string }) {
  const t = useT();
  const lang = useSimStore(selectLang);
  const store = useSimStoreApi();
  const client = useSimStore(useCallback((s: SimState) => s.clients.find((c) => c.id === clientId), [clientId]));
  const lines = useSimStore(useCallback((s: SimState) => s.runInfo.programs[clientId] ?? NO_LINES, [clientId]));
  const presentation = useSimStore(selectPresentation);
  // The stall typed here is kept in the store, so the Pause shortcut applies the same value.
  const stallMs = useSimStore(useCallback((s: SimState) => stallDraftOf(s, clientId), [clientId]));
  const setStallMs = useCallback((ms: number) => store.getState().setStallDraft(clientId, ms), [store, clientId]);
  const listRef = useRef<HTMLOListElement>(null);

  // Keep the next line in view without scrolling the page (scrollIntoView would). Presentation
  // mode's window is a few lines tall, so there the next line is always centred; the list's own
  // resizes (mode switch, window size) re-run it. It reads the layout in the next frame, before
  // its paint, not in React's commit: read there, it would force the whole page's layout (a new
  // run's, hundreds of ms on a busy machine) inside the commit's task.
  const pc = client?.pc;
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const reveal = () => {
      const line = list.querySelector<HTMLElement>('[aria-current="step"]');
      if (!line) return;
      const top = line.offsetTop - list.offsetTop;
      if (presentation) {
        list.scrollTop = Math.max(0, top - Math.max(0, (list.clientHeight - line.offsetHeight) / 2));
      } else if (top < list.scrollTop || top + line.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 3);
      }
    };
    const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(reveal) : (reveal(), null);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(reveal);
    observer?.observe(list);
    return () => {
      if (frame !== null) cancelAnimationFrame(frame);
      observer?.disconnect();
    };
  }, [pc, presentation]);

  if (!client) return null;
  const live = client.live;
  const key = client.index + 1;
  const stallValid = isValidDurationMs(stallMs);
  return (
    <article
      className={`lane ${clientClass(client.index)} lane--${statusTone(client)}`}
      data-testid={`lane.${clientId}`}
      data-client={clientId}
      aria-labelledby={`lane-${clientId}-title`}
    >
      <header className="lane__header">
        <ClientBadge id={clientId} index={client.index} />
        <h2 className="lane__title" id={`lane-${clientId}-title`}>
          {t('client', { id: clientId })}
        </h2>
        <span className={`status-chip status-chip--${statusTone(client)}`} data-testid={`lane.${clientId}.status`} title={statusText(client, t)}>
          {statusText(client, t)}
        </span>
      </header>
      <div className="lane__flags" data-testid={`lane.${clientId}.flags`}>
        <span className={`flag flag--belief${client.believesHoldsLock ? ' is-on' : ''}`} data-testid={`lane.${clientId}.belief`}>
          {client.believesHoldsLock ? t('believesHolds') : t('believesNot')}
        </span>
        {client.inCriticalSection && (
          <span className="flag is-on" data-testid={`lane.${clientId}.critical`}>
            <Icon name="lock" />
            <span className="flag__text--narrow-hidden">{t('inCritical')}</span>
          </span>
        )}
      </div>
      {/* Focusable so a keyboard can scroll a long program. */}
      <ol className="program" ref={listRef} tabIndex={0} aria-label={t('program', { id: clientId })} data-testid={`lane.${clientId}.program`}>
        {lines.map((line) => {
          const current = live && line.pc === client.pc;
          const note = localized(line.note, lang);
          return (
            <li
              key={line.pc}
              className={`program__line${current ? ' is-current' : ''}${line.redis ? ' is-redis' : ''}`}
              aria-current={current ? 'step' : undefined}
              data-testid={current ? `lane.${clientId}.current` : undefined}
            >
              <span className="program__gutter" aria-hidden="true">
                {current ? '▶' : line.pc + 1}
              </span>
              <span className="program__code">
                {line.label && <span className="program__label">{line.label}:</span>}
                <code>{line.code}</code>
                {current && <span className="visually-hidden"> ({t('currentLine')})</span>}
                {note && (
                  <span className="program__note" title={note}>
                    {' '}
                    -- {note}
                  </span>
                )}
                {line.lua && (
                  <pre className="program__lua" aria-label={t('luaSource', { name: line.scriptName ?? '' })}>
                    {line.lua.join('\n')}
                  </pre>
                )}
              </span>
            </li>
          );
        })}
      </ol>
      <div className="lane__controls" role="group" aria-label={t('client', { id: clientId })}>
        <button
          type="button"
          className="button button--primary"
          disabled={!live}
          aria-keyshortcuts={key <= 9 ? String(key) : undefined}
          title={t('stepClientTitle', { id: clientId, n: key })}
          onClick={() => store.getState().stepClient(clientId)}
        >
          <Icon name="step" />
          {t('stepClient', { id: clientId })}
          {key <= 9 && <kbd className="kbd" aria-hidden="true">{key}</kbd>}
        </button>
        <button
          type="button"
          className="button"
          disabled={!live}
          aria-label={t('runToCommand', { id: clientId })}
          title={t('runToCommand', { id: clientId })}
          onClick={() => store.getState().runToNextCommand(clientId)}
        >
          <Icon name="run" className="icon--narrow" />
          <span className="button__label--wide">{t('runToCommandShort')}</span>
        </button>
        <span className="stall-group">
          <DurationInput valueMs={stallMs} label={t('pauseMs', { id: clientId })} disabled={!live} onChange={setStallMs} />
          <button
            type="button"
            className="button"
            aria-label={t('pauseClient', { id: clientId })}
          aria-keyshortcuts="p"
            disabled={!live || !stallValid}
            onClick={() => store.getState().stallClient(clientId, stallMs)}
          >
            <Icon name="pauseClient" className="icon--narrow" />
            <span className="button__label--wide">{t('pauseShort')}</span>
          </button>
        </span>
        <button
          type="button"
          className="button button--danger-quiet"
          aria-label={t('crashClient', { id: clientId })}
          aria-keyshortcuts="x"
          disabled={!live}
          onClick={() => store.getState().crashClient(clientId)}
        >
          <Icon name="crash" className="icon--narrow" />
          <span className="button__label--wide">{t('crashShort')}</span>
        </button>
      </div>
    </article>
  );
});
