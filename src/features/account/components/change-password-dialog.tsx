import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog';
import { DialogForm } from '../../../components/ui/form';
import { PasswordField } from '../../../components/ui/password-input';
import { authClient } from '../../../lib/auth-client';

const MIN = 6;

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  function close() {
    setProblem(null);
    onClose();
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const currentPassword = String(form.get('currentPassword'));
    const newPassword = String(form.get('newPassword'));
    const confirm = String(form.get('confirmPassword'));
    if (newPassword.length < MIN) return setProblem(`The new password needs at least ${MIN} characters.`);
    if (newPassword !== confirm) return setProblem('The two new passwords do not match.');
    if (newPassword === currentPassword) return setProblem('Choose a password different from the current one.');
    setBusy(true);
    const { error } = await authClient.changePassword({ currentPassword, newPassword, revokeOtherSessions: true });
    setBusy(false);
    if (error) {
      const message = error.code === 'INVALID_PASSWORD' ? 'Your current password is not correct.' : error.message || 'Failed to change password';
      setProblem(message);
      toast.error('Error', { description: message });
      return;
    }
    toast.success('Password Changed', { description: 'Your password was updated and your other devices were signed out.' });
    close();
  }

  return (
    <Dialog open={open} onClose={close} title="Change Password" description="Enter your current password, then choose a new one. Other devices will be signed out.">
      <DialogForm onSubmit={submit} onCancel={close} submitLabel="Update Password" busy={busy} problem={problem}>
        <PasswordField id="current-password" label="Current password" name="currentPassword" autoComplete="current-password" required autoFocus />
        <PasswordField id="new-password" label="New password" hint={`At least ${MIN} characters.`} name="newPassword" autoComplete="new-password" required minLength={MIN} maxLength={128} />
        <PasswordField id="confirm-password" label="Confirm new password" name="confirmPassword" autoComplete="new-password" required minLength={MIN} maxLength={128} />
      </DialogForm>
    </Dialog>
  );
}
