import { useShallow } from 'zustand/react/shallow';
import { LANG_LABEL, LANGS, LOCALES } from '../../i18n';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { selectAppearance, selectRunHash } from '../store/selectors';
import { Icon } from './Icon';
import { ScenarioPicker } from './ScenarioPicker';
import { useCopyText } from './useCopyText';

/** Brand, scenario picker and the page's settings: language, theme, presentation, link, help. */
export function AppHeader() {
  const t = useT();
  const store = useSimStoreApi();
  const { lang, theme, presentation } = useSimStore(useShallow(selectAppearance));
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
          <span>{t('switchToDark')}</span>
        </button>
        <button
          type="button"
          className="button button--ghost button--icon-text"
          aria-pressed={presentation}
          title={t('presentation')}
          onClick={() => store.getState().togglePresentation()}
        >
          <Icon name="present" />
          <span>{t('presentation')}</span>
        </button>
        <CopyLinkButton />
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

function CopyLinkButton() {
  const t = useT();
  const store = useSimStoreApi();
  const { state, copy } = useCopyText();
  // The run's link from the store: the address bar may lag it by a moment (share/sync.ts).
  const runUrl = () => {
    const { origin, pathname, search } = window.location;
    return `${origin}${pathname}${search}${selectRunHash(store.getState())}`;
  };
  return (
    <span className="copy-link">
      <button type="button" className="button button--primary button--icon-text" title={t('copyLink')} onClick={() => void copy(runUrl())} data-testid="copy-link">
        <Icon name={state === 'copied' ? 'check' : 'link'} />
        <span>{t('copyLink')}</span>
      </button>
      <span className="copy-link__status" role="status" data-testid="copy-link-status">
        {state === 'copied' ? t('linkCopied') : state === 'failed' ? t('linkCopyFailed') : ''}
      </span>
    </span>
  );
}
