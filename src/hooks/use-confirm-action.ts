import { useState } from 'react';

export interface ConfirmActionOptions<T> {
  /** Does the action and tells the user; a throw keeps the dialog open (unless `closeOnError`). */
  run: (target: T) => Promise<unknown>;
  /** Tells the user the action failed. */
  onError: (error: unknown, target: T) => void;
  /** After a success, once the dialog is closing (e.g. refetch the list). */
  onDone?: () => unknown;
  closeOnError?: boolean;
}

/**
 * A destructive action behind a `ConfirmDialog`: `ask(target)` opens it, Confirm runs the action,
 * `dialog` holds the dialog's open/busy/confirm/close props. The target stays set while the dialog
 * closes, so its text does not vanish mid-transition.
 */
export function useConfirmAction<T>({ run, onError, onDone, closeOnError = false }: ConfirmActionOptions<T>) {
  const [target, setTarget] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  async function confirm() {
    if (target === null || busy) return;
    setBusy(true);
    try {
      await run(target);
    } catch (err) {
      onError(err, target);
      if (closeOnError) setOpen(false);
      return;
    } finally {
      setBusy(false);
    }
    setOpen(false);
    await onDone?.();
  }

  return {
    target,
    ask(next: T) {
      setTarget(next);
      setOpen(true);
    },
    dialog: { open, busy, onConfirm: () => void confirm(), onClose: () => setOpen(false) },
  };
}
