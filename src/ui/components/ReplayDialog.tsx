import { useModalDialog } from './useModalDialog';
import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { selectReplayCommand, selectReplayOpen } from '../store/selectors';
import { Icon } from './Icon';
import { useCopyText } from './useCopyText';

/**
 * "Replay on a real Redis": the CLI command that replays the run shown (docs/REPLAY.md), with a
 * copy button. A native modal <dialog> opened from the header, so it adds no row to the page.
 */
export function ReplayDialog() {
  const t = useT();
  const store = useSimStoreApi();
  const open = useSimStore(selectReplayOpen);
  const command = useSimStore(selectReplayCommand);
  const { state, copy } = useCopyText();
  const ref = useModalDialog(open);
  return (
    <dialog ref={ref} className="dialog replay-dialog" aria-labelledby="replay-title" onClose={() => store.getState().setReplayOpen(false)} data-testid="replay.command">
      <h2 id="replay-title" className="dialog__title">
        {t('replayTitle')}
      </h2>
      <p className="replay-dialog__hint">{t('replayHint')}</p>
      <code className="replay-dialog__text" data-testid="replay.command.text">
        {command}
      </code>
      <div className="dialog__actions replay-dialog__actions">
        <span className="replay-dialog__status" role="status" data-testid="replay.command.status">
          {state === 'copied' ? t('commandCopied') : state === 'failed' ? t('commandCopyFailed') : ''}
        </span>
        <button type="button" className="button button--primary button--icon-text" onClick={() => void copy(command)} data-testid="replay.command.copy" autoFocus>
          <Icon name={state === 'copied' ? 'check' : 'link'} />
          <span>{t('copyCommand')}</span>
        </button>
        <form method="dialog">
          <button type="submit" className="button button--ghost">
            {t('close')}
          </button>
        </form>
      </div>
    </dialog>
  );
}
