import { useSimStore, useT } from '../store/context';
import { selectReplayCommand } from '../store/selectors';
import { Icon } from './Icon';
import { useCopyText } from './useCopyText';

/** The CLI command that replays the run shown on a real Redis server, with a copy button (docs/REPLAY.md). */
export function ReplayCommand() {
  const t = useT();
  const command = useSimStore(selectReplayCommand);
  const { state, copy } = useCopyText();
  return (
    <section className="replay-command" aria-labelledby="replay-command-title" data-testid="replay.command">
      <h2 id="replay-command-title" className="replay-command__title">
        {t('replayTitle')}
      </h2>
      <p className="replay-command__hint">{t('replayHint')}</p>
      <div className="replay-command__row">
        <code className="replay-command__text" data-testid="replay.command.text">
          {command}
        </code>
        <span className="copy-link">
          <button type="button" className="button button--ghost button--icon-text" onClick={() => void copy(command)} data-testid="replay.command.copy">
            <Icon name={state === 'copied' ? 'check' : 'link'} />
            <span>{t('copyCommand')}</span>
          </button>
          <span className="copy-link__status" role="status" data-testid="replay.command.status">
            {state === 'copied' ? t('commandCopied') : state === 'failed' ? t('commandCopyFailed') : ''}
          </span>
        </span>
      </div>
    </section>
  );
}
