import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog, type DialogProps } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  /** The destructive action's label ("Remove Member", "Revoke Key"). */
  confirmLabel: string;
  cancelLabel?: string;
  /** The action is under way: its button spins and Cancel waits. */
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
  size?: DialogProps['size'];
}

/** Every destructive confirmation of the app: a question, Cancel, and a red action button. */
export function ConfirmDialog({ open, title, description, confirmLabel, cancelLabel = 'Cancel', busy, onConfirm, onClose, size = 'sm' }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      size={size}
      actions={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant="destructive" onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    />
  );
}
