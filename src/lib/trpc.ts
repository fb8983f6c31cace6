import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/trpc/app-router';
import { ACCOUNT_HEADER, TRPC_MAX_BATCH_CALLS } from '../../server/contracts/transport';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

let shownAccount: string | null = null;

/**
 * The account this tab shows (the header's account menu reads it from account.accounts). Sent with
 * every call: the server refuses a change from a tab still showing an account the session was
 * switched away from in another tab, rather than make it in the other account.
 */
export function setShownAccount(accountId: string | null): void {
  shownAccount = accountId;
}

/** The header naming the shown account, for the dashboard's own fetches (uploads, logos). */
export function shownAccountHeaders(): Record<string, string> {
  return shownAccount ? { [ACCOUNT_HEADER]: shownAccount } : {};
}

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/api/trpc', eventSourceOptions: { withCredentials: true } }),
        false: httpBatchLink({ url: '/api/trpc', maxItems: TRPC_MAX_BATCH_CALLS, headers: shownAccountHeaders, fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }) }),
      }),
    ],
  });
}
