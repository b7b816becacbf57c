import { useEffect, useState } from 'react';
import { refusalText, translateRef, type Lang, type MessageRef, type Translate } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { linkLengthMax } from '../store/run-link';
import { selectLang, selectLinkError, selectNotice } from '../store/selectors';
import type { LinkError, LinkErrorReason } from '../store/types';
import { Icon } from './Icon';

/** Messages of the refusals whose one parameter is the offending piece of the link. */
const LINK_MESSAGES = {
  'bad-format': 'linkBadFormat',
  'bad-version': 'linkBadVersion',
  'unknown-scenario': 'linkUnknownScenario',
  'unknown-variant': 'linkUnknownVariant',
  'bad-seed': 'linkBadSeed',
  'bad-schedule': 'linkBadSchedule',
  'schedule-does-not-fit': 'linkScheduleDoesNotFit',
  'bad-cursor': 'linkBadCursor',
  'unknown-challenge': 'linkUnknownChallenge',
  'bad-definition': 'linkBadDefinition',
  stopped: 'linkStopped',
} as const satisfies Record<Exclude<LinkErrorReason, 'too-long'>, string>;

function linkErrorText(error: LinkError, t: Translate, lang: Lang): string {
  if (error.reason === 'too-long') return t('linkTooLong', { length: Number(error.detail), max: linkLengthMax });
  if (error.reason === 'bad-format' && error.savedText !== undefined) return t('savedRunUnreadable', { detail: error.detail });
  // A schedule that does not fit carries the engine's refusal, kept in English: worded here.
  return t(LINK_MESSAGES[error.reason], { detail: refusalText(error.detail, lang) });
}

/** A notice in `lang`; an engine refusal among its parameters (`reason`, `detail`) is worded in `lang` too. */
function noticeText(notice: MessageRef, lang: Lang): string {
  const params = notice.params as Record<string, string | number> | undefined;
  if (params === undefined) return translateRef(notice, lang);
  const worded = { ...params };
  for (const name of ['reason', 'detail']) if (typeof params[name] === 'string') worded[name] = refusalText(params[name], lang);
  return translateRef({ ...notice, params: worded } as MessageRef, lang);
}

/**
 * A refused share link or saved run: what was wrong, and that the default scenario loaded
 * instead. A saved run's text is kept (and can be copied): nothing the reader made is lost.
 */
export function LinkErrorNotice() {
  const t = useT();
  const lang = useSimStore(selectLang);
  const store = useSimStoreApi();
  const error = useSimStore(selectLinkError);
  if (!error) return null;
  const saved = error.savedText;
  return (
    <div className="link-error" role="alert" data-testid="link-error">
      <Icon name="warning" />
      <div className="link-error__text">
        <strong>{t(saved === undefined ? 'linkErrorTitle' : 'savedRunErrorTitle')}</strong>
        <span className="link-error__detail" data-testid="link-error.detail">{linkErrorText(error, t, lang)}</span>
        <span className="link-error__after">{t(saved !== undefined ? 'savedRunKept' : error.keptCurrent ? 'linkErrorKeptCurrent' : 'linkErrorLoadedDefault')}</span>
      </div>
      {saved !== undefined && <CopyTextButton text={saved} />}
      <button type="button" className="button" onClick={() => store.getState().dismissLinkError()}>
        {t('dismiss')}
      </button>
    </div>
  );
}

const infoNoticeMs = 5000;

/** A one-line status message (a refused action, autoplay stopped...). Its slot never changes height. */
export function NoticeLine() {
  const t = useT();
  const store = useSimStoreApi();
  const notice = useSimStore(selectNotice);
  const lang = useSimStore(selectLang);
  // Information fades after a while (UI time, not simulation time); warnings stay until dismissed.
  useEffect(() => {
    if (!notice || notice.tone !== 'info') return;
    const timer = setTimeout(() => {
      if (store.getState().notice === notice) store.getState().dismissNotice();
    }, infoNoticeMs);
    return () => clearTimeout(timer);
  }, [notice, store]);
  return (
    <div className={`status-slot notice-line${notice ? ` notice-line--${notice.tone}` : ''}`} role="status" data-testid="notice">
      {notice && (
        <>
          <span className="notice-line__text">{noticeText(notice, lang)}</span>
          <button type="button" className="button button--ghost button--small" onClick={() => store.getState().dismissNotice()}>
            {t('dismiss')}
          </button>
        </>
      )}
    </div>
  );
}

/** Copies the kept text of a saved run that could not be restored, and says whether it worked. */
function CopyTextButton({ text }: { readonly text: string }) {
  const t = useT();
  const [copied, setCopied] = useState<boolean | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <button type="button" className="button" onClick={() => void copy()} data-testid="copy-saved-run">
      {t(copied === null ? 'savedRunCopy' : copied ? 'savedRunCopied' : 'savedRunCopyFailed')}
    </button>
  );
}
