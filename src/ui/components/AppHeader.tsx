import { useShallow } from 'zustand/react/shallow';
import { LANG_LABEL, LANGS, LOCALES } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { selectAppearance, selectRunHash, selectRunInfo } from '../store/selectors';
import { localized } from '../../i18n';
import { Icon } from './Icon';
import { ScenarioPicker } from './ScenarioPicker';
import { useCopyText } from './useCopyText';
import type { SimState } from '../store/store-types';

/** Brand, scenario picker and the page's settings: language, theme, presentation, link, replay on a real Redis, help. */
export function AppHeader() {
  const t = useT();
  const store = useSimStoreApi();
  const { lang, theme, presentation } = useSimStore(useShallow(selectAppearance));
  const headerLoading = useSimStore(selectLoading);
  return (
    <header className="app-header">
      <a className="skip-link" href="#controls">
        {t('skipToControls')}
      </a>
      <div className="brand">
        <span className="brand__mark" aria-hidden="true">
          <Icon name="lock" />
        </span>
        <span className="brand__name">{t('appName')}</span>
        <span className="brand__tagline">{t('appTagline')}</span>
      </div>
      <ScenarioPicker />
      <div className="header-actions">
        <div className="segmented" role="group" aria-label={t('language')}>
          {LANGS.map((code) => (
            <button
              key={code}
              type="button"
              className="segmented__option"
              aria-pressed={lang === code}
              lang={LOCALES[code]}
              onClick={() => store.getState().setLang(code)}
            >
              {LANG_LABEL[code]}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button button--ghost button--icon-text"
          aria-pressed={theme === 'dark'}
          title={t('switchToDark')}
          onClick={() => store.getState().setTheme(theme === 'dark' ? 'light' : 'dark')}
        >
          <Icon name={theme === 'dark' ? 'moon' : 'sun'} />
          <span className="button__label">{t('switchToDark')}</span>
        </button>
        <button
          type="button"
          className="button button--ghost button--icon-text"
          aria-pressed={presentation}
          title={t('presentation')}
          onClick={() => store.getState().togglePresentation()}
        >
          <Icon name="present" />
          <span className="button__label">{t('presentation')}</span>
        </button>
        <CopyLinkButton />
        <CopyEmbedButton />
        <button
          type="button"
          className="button button--ghost button--icon"
          aria-label={t('replayTitle')}
          title={t('replayTitle')}
          disabled={headerLoading}
          onClick={() => store.getState().setReplayOpen(true)}
          data-testid="replay.open"
        >
          <Icon name="terminal" />
        </button>
        <button
          type="button"
          className="button button--ghost button--icon"
          aria-label={t('shortcuts')}
          aria-keyshortcuts="?"
          title={`${t('shortcuts')} (?)`}
          onClick={() => store.getState().setShortcutsOpen(true)}
        >
          <Icon name="help" />
        </button>
      </div>
    </header>
  );
}

/** While a link's scenario loads, the store's run is a stand-in: nothing of it may be copied. */
const selectLoading = (s: SimState) => s.runLoading !== null;

function CopyLinkButton() {
  const t = useT();
  const store = useSimStoreApi();
  const loading = useSimStore(selectLoading);
  const { state, copy } = useCopyText();
  // The run's link from the store: the address bar may lag it by a moment (share/sync.ts).
  const runUrl = () => {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${selectRunHash(store.getState())}`;
  };
  /** An edited or saved scenario's link carries its definition: wait for it, or say it is too large. */
  const copyRun = async () => {
    await store.getState().ioLinkSettled();
    const { ioLink, scenarioId } = store.getState();
    if (ioLink.status === 'too-long' && ioLink.scenarioId === scenarioId) return store.getState().ioLinkRefused();
    await copy(runUrl());
  };
  return (
    <span className="copy-link">
      <button type="button" className="button button--primary button--icon-text" title={t('copyLink')} disabled={loading} onClick={() => void copyRun()} data-testid="copy-link">
        <Icon name={state === 'copied' ? 'check' : 'link'} />
        <span className="button__label">{t('copyLink')}</span>
      </button>
      <span className="copy-link__status" role="status" data-testid="copy-link-status">
        {state === 'copied' ? t('linkCopied') : state === 'failed' ? t('linkCopyFailed') : ''}
      </span>
    </span>
  );
}

/** The iframe snippet for the current run (docs/AUTOMATION.md, "Embed mode"). */
function embedSnippet(href: string, title: string): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<iframe src="${escape(href)}" width="900" height="640" title="${escape(title)}" loading="lazy" style="border:0"></iframe>`;
}

/** "Copy embed code": an iframe of this run in embed mode, for a course page or a slide. */
function CopyEmbedButton() {
  const t = useT();
  const store = useSimStoreApi();
  const { lang } = useSimStore(useShallow(selectAppearance));
  const { title } = useSimStore(selectRunInfo);
  const { state, copy } = useCopyText();
  const loading = useSimStore(selectLoading);
  // Read when pressed, not selected: the link changes with every step and costs the run's length to write.
  const href = () => `${window.location.origin}${window.location.pathname}?embed=1${selectRunHash(store.getState())}`;
  return (
    <span className="copy-link">
      <button
        type="button"
        className="button button--ghost button--icon-text"
        aria-label={t('copyEmbed')}
        title={t('copyEmbed')}
        disabled={loading}
        onClick={() => void copy(embedSnippet(href(), t('embedFrameTitle', { title: localized(title, lang) })))}
        data-testid="copy-embed"
      >
        <Icon name={state === 'copied' ? 'check' : 'code'} />
        <span className="button__label button__label--wide">{t('copyEmbed')}</span>
      </button>
      <span className="copy-link__status" role="status" data-testid="copy-embed-status">
        {state === 'copied' ? t('embedCopied') : state === 'failed' ? t('linkCopyFailed') : ''}
      </span>
    </span>
  );
}
