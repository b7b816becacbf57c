import { useEffect, useRef, type RefObject } from 'react';

/**
 * A native modal <dialog> that follows a store flag: shown with showModal() (focus trap, Escape
 * and an inert background for free) while `open`, closed when it turns false.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}
