// Shown instead of the dashboard to a signed-in user whose account no longer exists (deleted by
// its owner or by support). No fresh free credits: the free validations come once per person. The
// way on is a new, empty account to start a paid plan from, or support.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LifeBuoy, UserX } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import { SUPPORT_EMAIL } from '../../../../server/contracts/plans';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useTRPC } from '../../../lib/trpc';
import { errorMessage, NO_ANSWER_MESSAGE } from '../../../lib/error-message';
import { ACCOUNT_GONE_TEXT } from '../messages';

export function AccountGone({ email, onSignOut, signingOut }: { email: string; onSignOut: () => void; signingOut: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const reopen = useMutation(
    trpc.account.reopen.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries();
        navigate(paths.dashboard.billing);
      },
      onError: (err) => toast.error('Error', { description: errorMessage(err, NO_ANSWER_MESSAGE) }),
    }),
  );
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-12">
      <Card className="w-full max-w-lg" role="alert" aria-labelledby="account-gone-title">
        <CardHeader>
          <span className="mb-2 grid size-10 place-items-center rounded-full bg-red-50 text-red-600">
            <UserX className="size-5" aria-hidden />
          </span>
          <CardTitle id="account-gone-title" className="text-xl">{ACCOUNT_GONE_TEXT.title}</CardTitle>
          <CardDescription>{ACCOUNT_GONE_TEXT.body(email)}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-2 text-sm text-slate-600">
          <p>{ACCOUNT_GONE_TEXT.noFreeCredits}</p>
        </CardContent>
        <CardFooter className="flex-wrap">
          <Button onClick={() => reopen.mutate()} loading={reopen.isPending}>{ACCOUNT_GONE_TEXT.startPaid}</Button>
          <a
            href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('My Mailvet account was deleted')}`}
            className="inline-flex h-9 items-center gap-2 rounded-md border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            <LifeBuoy className="size-4" aria-hidden /> {ACCOUNT_GONE_TEXT.contact}
          </a>
          <Button variant="ghost" onClick={onSignOut} loading={signingOut} className="ml-auto">Sign Out</Button>
        </CardFooter>
      </Card>
    </main>
  );
}
