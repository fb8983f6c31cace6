// "Forgot password?": request a reset link by mail, then choose a new password from that link
// (better-auth's request-password-reset / reset-password; the link lands on /auth?step=reset&token=…).
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { Label } from '../../components/ui/label';
import { PasswordField } from '../../components/ui/password-input';
import { paths } from '../../config/paths';
import { useSubmitOnce } from '../../hooks/use-submit-once';
import { authClient } from '../../lib/auth-client';
import { AUTH_TOASTS, serverMessage } from './messages';

export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  // A double-click or a second Enter while asking is ignored (two reset mails).
  const submit = useSubmitOnce(async (e: FormEvent<HTMLFormElement>) => {
    const email = String(new FormData(e.currentTarget).get('email')).trim();
    setBusy(true);
    const { error } = await authClient.requestPasswordReset({ email, redirectTo: `${paths.auth}?step=reset` });
    setBusy(false);
    if (error) {
      toast.error(AUTH_TOASTS.errorTitle, { description: serverMessage(error, 'Could not send the reset link') });
      return;
    }
    // The same answer whether or not the address has an account (no account enumeration).
    toast.success(AUTH_TOASTS.checkEmailTitle, { description: AUTH_TOASTS.resetSentBody });
    setSentTo(email);
  });
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Reset password">
      <p className="text-sm text-slate-600">Enter your account's email address and we'll send you a link to choose a new password.</p>
      {sentTo && (
        <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-800">
          If an account exists for {sentTo}, a reset link is on its way. It works for one hour.
        </p>
      )}
      <div className="space-y-1.5">
        <Label htmlFor="forgot-email" required>Email</Label>
        <Input id="forgot-email" name="email" type="email" autoComplete="email" required autoFocus />
      </div>
      <Button type="submit" className="w-full" loading={busy}>Send Reset Link</Button>
      <Button variant="ghost" className="w-full" onClick={onBack}>Back to sign in</Button>
    </form>
  );
}

export function ResetPasswordForm({ token, invalid, onDone }: { token: string | null; invalid: boolean; onDone: () => void | Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [mismatch, setMismatch] = useState(false);
  // A double-click or a second Enter while saving is ignored: the link's token works once, so the
  // second try answered 'Error' under 'Password Updated'.
  const submit = useSubmitOnce(async (e: FormEvent<HTMLFormElement>) => {
    const form = new FormData(e.currentTarget);
    const newPassword = String(form.get('password'));
    if (newPassword !== String(form.get('confirm'))) {
      setMismatch(true);
      return;
    }
    setMismatch(false);
    setBusy(true);
    const { error } = await authClient.resetPassword({ newPassword, token: token! });
    setBusy(false);
    if (error) {
      toast.error(AUTH_TOASTS.errorTitle, { description: serverMessage(error, 'Could not reset your password') });
      return;
    }
    toast.success(AUTH_TOASTS.passwordUpdatedTitle, { description: AUTH_TOASTS.passwordUpdatedBody });
    await onDone();
  });
  if (invalid || !token) {
    return (
      <div className="space-y-4" role="alert">
        <p className="text-sm text-slate-700">This password reset link is invalid or has expired. Request a new one.</p>
        <Button className="w-full" onClick={() => void onDone()}>Back to sign in</Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Choose a new password">
      <PasswordField id="reset-password" label="New password" hint="At least 6 characters." name="password" autoComplete="new-password" required minLength={6} autoFocus />
      <PasswordField id="reset-confirm" label="Confirm new password" error={mismatch ? 'The two passwords do not match.' : undefined} name="confirm" autoComplete="new-password" required minLength={6} />
      <Button type="submit" className="w-full" loading={busy}>Set New Password</Button>
    </form>
  );
}
