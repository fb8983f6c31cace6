import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'sonner';
import { Spinner } from '../../components/ui/spinner';
import { useTRPC } from '../../lib/trpc';
import { errorMessage } from '../../lib/error-message';
import { TEAM_TEXT } from './messages';
import { forgetInvitation } from './use-invitation-landing';
import { isolateName } from '../../lib/isolate-name';

/**
 * On /dashboard/team?invitation=<id> (where signing in from an invitation link lands): accepts the
 * invitation once, then the whole dashboard reloads its data from the shared account.
 */
export function AcceptInvitationBanner() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const invitationId = params.get('invitation');
  const started = useRef<string | null>(null);
  const accept = useMutation(trpc.team.acceptInvitation.mutationOptions());
  const { mutate } = accept;

  useEffect(() => {
    if (!invitationId || started.current === invitationId) return;
    started.current = invitationId;
    const done = () => {
      forgetInvitation();
      setParams(
        (p) => {
          p.delete('invitation');
          return p;
        },
        { replace: true },
      );
    };
    mutate(
      { invitationId },
      {
        onSuccess: async (r) => {
          done();
          toast.success(TEAM_TEXT.invitationAcceptedTitle, { description: isolateName(TEAM_TEXT.invitationAcceptedBody(r.accountName), r.accountName) });
          // The account (and so the role) first, then everything else from the shared account.
          await queryClient.invalidateQueries({ queryKey: trpc.account.me.queryKey() });
          await queryClient.invalidateQueries();
        },
        onError: (err) => {
          done();
          toast.error(TEAM_TEXT.errorTitle, { description: errorMessage(err, 'Could not accept the invitation') });
        },
      },
    );
  }, [invitationId, mutate, queryClient, setParams, trpc]);

  // A refusal (say, the team is already full) stays on screen, not only in a passing toast.
  if (accept.isError) {
    return (
      <div role="alert" data-testid="invitation-refused" className="flex gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
        <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
        <div>
          <p className="font-medium">You could not join the team</p>
          <p className="mt-0.5">{errorMessage(accept.error, 'Could not accept the invitation')}</p>
        </div>
      </div>
    );
  }
  if (!accept.isPending) return null;
  return (
    <div role="status" className="flex items-center gap-3 rounded-xl border border-brand-100 bg-brand-50 p-4 text-sm text-brand-900">
      <Spinner size="sm" /> Joining the team…
    </div>
  );
}
