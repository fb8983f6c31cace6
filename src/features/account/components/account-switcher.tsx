// The dashboard header's account menu for a user in more than one account (their own and teams
// they joined): shows the active account, lists the others, and switches this session to one.
// Everything on screen belongs to the active account, so every query is refetched after a switch.
import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Check, ChevronsUpDown } from 'lucide-react';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../../../lib/error-message';
import { setShownAccount, useTRPC } from '../../../lib/trpc';
import { cn } from '../../../lib/cn';
import { restartJobStream } from '../../jobs/job-stream';
import { ACCOUNT_SWITCH_TEXT as T } from '../messages';
import { isolateName } from '../../../lib/isolate-name';

export function AccountSwitcher() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.account.accounts.queryOptions()).data ?? [];
  const shown = accounts.find((a) => a.active)?.accountId ?? null;
  useEffect(() => setShownAccount(shown), [shown]);
  const switchTo = useMutation(
    trpc.account.switch.mutationOptions({
      onSuccess: async (_out, input) => {
        restartJobStream();
        await queryClient.invalidateQueries();
        const name = accounts.find((a) => a.accountId === input.accountId)?.name ?? '';
        toast.success(T.successTitle, { description: isolateName(T.switched(name), name) });
      },
      onError: async (err) => {
        toast.error(T.errorTitle, { description: errorMessage(err, T.failed) });
        await queryClient.invalidateQueries();
      },
    }),
  );
  if (accounts.length < 2) return null;
  const active = accounts.find((a) => a.active);
  return (
    <Menu>
      <MenuButton
        aria-label={T.menuLabel(active?.name ?? '')}
        disabled={switchTo.isPending}
        data-testid="account-switcher"
        className="inline-flex h-8 max-w-[8rem] shrink-0 sm:max-w-[12rem] items-center gap-1.5 rounded-md border border-slate-300 bg-white px-2.5 text-sm font-medium text-slate-700 shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-60"
      >
        <span dir="auto" className="truncate">{active?.name}</span>
        <ChevronsUpDown className="size-4 shrink-0 text-slate-500" aria-hidden />
      </MenuButton>
      <MenuItems anchor="bottom end" className="z-50 mt-1 w-64 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg focus:outline-none">
        <div className="px-3 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500">{T.heading}</div>
        {accounts.map((a) => (
          <MenuItem key={a.accountId}>
            <button
              type="button"
              aria-current={a.active ? 'true' : undefined}
              className={cn('flex w-full items-center gap-2 rounded-md px-3 py-2 text-left data-focus:bg-slate-100', a.active && 'font-semibold')}
              onClick={() => {
                if (!a.active) switchTo.mutate({ accountId: a.accountId });
              }}
            >
              <span className="min-w-0 flex-1">
                <span dir="auto" className="block truncate text-slate-900">{a.name}</span>
                <span className="block text-xs font-normal text-slate-500">{T.roles[a.role] ?? a.role}</span>
              </span>
              {a.active && (
                <span className="flex items-center gap-1 text-xs font-medium text-brand-700">
                  <Check className="size-4" aria-hidden /> {T.active}
                </span>
              )}
            </button>
          </MenuItem>
        ))}
      </MenuItems>
    </Menu>
  );
}
