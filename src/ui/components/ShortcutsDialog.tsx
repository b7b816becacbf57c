import { useSimStore, useSimStoreApi, useT } from '../store/context';
import { useModalDialog } from './useModalDialog';
import { selectShortcutsOpen } from '../store/selectors';

/** The `?` dialog: a native modal <dialog> (focus trap, Escape and inert background for free). */
export function ShortcutsDialog() {
  const t = useT();
  const store = useSimStoreApi();
  const open = useSimStore(selectShortcutsOpen);
  const ref = useModalDialog(open);
  const rows: [string, string][] = [
    [t('kbKeySpace'), t('kbPlay')],
    ['←', t('kbBack')],
    ['→', t('kbForward')],
    ['1 … 9', t('kbClient')],
    ['A', t('kbAdvance')],
    ['E', t('kbExpiry')],
    ['P', t('kbPauseClient')],
    ['X', t('kbCrashClient')],
    ['V / ⇧V', t('kbVariant')],
    ['Q', t('kbPredict')],
    ['?', t('kbHelp')],
    [t('kbKeyEscape'), t('kbEscape')],
  ];
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="shortcuts-title" onClose={() => store.getState().setShortcutsOpen(false)} data-testid="shortcuts-dialog">
      <h2 id="shortcuts-title" className="dialog__title">
        {t('shortcutsTitle')}
      </h2>
      <table className="shortcuts">
        <tbody>
          {rows.map(([key, what]) => (
            <tr key={key}>
              <th scope="row">
                <kbd className="kbd">{key}</kbd>
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="dialog__note">{t('kbFocusedNote')}</p>
      <form method="dialog" className="dialog__actions">
        <button type="submit" className="button button--primary" autoFocus>
          {t('close')}
        </button>
      </form>
    </dialog>
  );
}
