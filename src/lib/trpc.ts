import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../server/trpc/app-router';
import { TRPC_MAX_BATCH_CALLS } from '../../server/contracts/transport';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export function createTrpcClient() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: '/api/trpc', eventSourceOptions: { withCredentials: true } }),
        false: httpBatchLink({ url: '/api/trpc', maxItems: TRPC_MAX_BATCH_CALLS, fetch: (url, init) => fetch(url, { ...init, credentials: 'include' }) }),
      }),
    ],
  });
}
