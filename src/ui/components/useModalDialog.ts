import { useEffect, useRef } from 'react';

/**
 * A native modal <dialog> (focus trap, Escape and an inert background for free) that follows the
 * store's `open`: shown as a modal when it becomes true, closed when it becomes false.
 */
export function useModalDialog(open: boolean) {
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
