import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/field';
import { DialogForm } from '../../../components/ui/form';
import { PasswordField } from '../../../components/ui/password-input';
import { paths } from '../../../config/paths';
import { authClient } from '../../../lib/auth-client';
import { leaveDashboardTo } from '../../auth/dashboard-exit';
import { useTRPC } from '../../../lib/trpc';
import { errorMessage } from '../../../lib/error-message';

export const DELETE_WORD = 'DELETE';

export function DeleteAccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useQuery(trpc.account.me.queryOptions());
  const [typed, setTyped] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const owner = me.data?.role === 'owner';

  const remove = useMutation(
    trpc.account.deleteAccount.mutationOptions({
      async onSuccess() {
        // Home first (the dashboard shell would send a signed-out user to /auth), then drop the session.
        await navigate(paths.home, { replace: true });
        await authClient.signOut().catch(() => undefined);
        queryClient.clear();
        toast.success('Account Deleted', { description: 'Your account and its data have been deleted.' });
      },
      onError(err) {
        leaveDashboardTo(null);
        const message = errorMessage(err, 'Failed to delete account');
        setProblem(message);
        toast.error('Error', { description: message });
      },
    }),
  );

  function close() {
    if (remove.isPending) return;
    setTyped('');
    setPassword('');
    setProblem(null);
    onClose();
  }

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (typed.trim() !== DELETE_WORD) return setProblem(`Type ${DELETE_WORD} to confirm.`);
    // The server ends the session with the account, possibly before its answer gets here: from now
    // on the dashboard's guard sends a visitor without a session home, not to /auth.
    leaveDashboardTo(paths.home);
    remove.mutate({ confirmation: typed.trim(), password });
  }

  return (
    <Dialog open={open} onClose={close} title="Delete Account" description="This cannot be undone.">
      <DialogForm
        onSubmit={submit}
        onCancel={close}
        submitLabel="Delete Account"
        submitVariant="destructive"
        busy={remove.isPending}
        submitDisabled={typed.trim() !== DELETE_WORD || password === ''}
        problem={problem}
      >
        <div className="flex gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {owner ? (
            <p>
              You own this account, so <strong>the whole account is deleted</strong>: your profile, validation results, bulk jobs and files, schedules, API keys,
              remaining credits and team. Team members lose access to it.
            </p>
          ) : (
            <p>Your user, profile and sign-in are deleted and you leave the team. The account you belong to and its data stay with its owner.</p>
          )}
        </div>
        <TextField
          id="delete-confirm"
          label={
            <>
              Type <span className="font-mono font-semibold">{DELETE_WORD}</span> to confirm
            </>
          }
          required
          name="confirmation"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <PasswordField id="delete-password" label="Password" name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      </DialogForm>
    </Dialog>
  );
}
