import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Users } from 'lucide-react';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { useConfirmAction } from '../../hooks/use-confirm-action';
import { errorMessage } from '../../lib/error-message';
import { useTRPC } from '../../lib/trpc';
import { TEAM_TEXT } from './messages';

/**
 * Dashboard-wide notice for a member of a team whose plan fell below its size: they have no seat
 * there now. They may leave such a team (they cannot open it to do so).
 */
export function SeatBanner() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.account.me.queryOptions());
  const leave = useMutation(trpc.team.leave.mutationOptions());
  const leaving = useConfirmAction<{ accountId: string; name: string }>({
    async run(t) {
      await leave.mutateAsync({ accountId: t.accountId });
      toast.success(TEAM_TEXT.leftTitle, { description: TEAM_TEXT.leftTeamBody(t.name) });
    },
    onError(err) {
      console.error(TEAM_TEXT.leaveFailed, err);
      toast.error(TEAM_TEXT.errorTitle, { description: errorMessage(err, TEAM_TEXT.leaveFailed) });
    },
    onDone: () => queryClient.invalidateQueries(),
  });
  const seatless = me.data?.seatless ?? [];
  if (seatless.length === 0) return null;
  return (
    <div role="status" data-testid="seat-banner" className="mb-6 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
      <Users className="mt-0.5 size-4 shrink-0 text-amber-600" aria-hidden />
      <div className="space-y-1">
        {seatless.map((t) => (
          <p key={t.accountId}>
            {TEAM_TEXT.seatlessNotice(t.name, t.limit)}{' '}
            <button
              type="button"
              className="font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700 focus-visible:outline-2 focus-visible:outline-amber-600"
              onClick={() => leaving.ask({ accountId: t.accountId, name: t.name })}
            >
              {TEAM_TEXT.leaveSeatless(t.name)}
            </button>
          </p>
        ))}
      </div>
      <ConfirmDialog
        {...leaving.dialog}
        title={TEAM_TEXT.leaveTitle}
        description={leaving.target ? TEAM_TEXT.leaveSeatlessBody(leaving.target.name) : ''}
        confirmLabel={TEAM_TEXT.leaveLabel}
      />
    </div>
  );
}
