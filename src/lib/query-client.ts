import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { authClient } from './auth-client';

/** A 401 from the API means the session ended: re-read it so the dashboard guard sends the user to /auth. */
function onApiError(error: unknown) {
  if (error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'UNAUTHORIZED') {
    authClient.$store.notify('$sessionSignal');
  }
  // The session was switched to another account in another tab: show that account here too.
  if (isAccountChanged(error)) void queryClient.invalidateQueries();
}

/** A change refused because this tab showed another account than the session's (server: assertShownAccount). */
function isAccountChanged(error: unknown): boolean {
  if (error instanceof TRPCClientError) return (error.data as { details?: { accountChanged?: unknown } } | undefined)?.details?.accountChanged === true;
  return typeof error === 'object' && error !== null && (error as { accountChanged?: unknown }).accountChanged === true;
}

// Spec section 9: unused cached data kept 5 minutes, up to 3 retries.
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({ onError: onApiError }),
  defaultOptions: {
    queries: {
      gcTime: 5 * 60 * 1000,
      staleTime: 10 * 1000,
      refetchOnWindowFocus: false,
      // Up to 3 retries, but never for answers that will not change (4xx).
      retry: (failures, error) => {
        const status = error instanceof TRPCClientError ? (error.data as { httpStatus?: number } | undefined)?.httpStatus : undefined;
        if (status && status >= 400 && status < 500) return false;
        return failures < 3;
      },
    },
    mutations: { retry: false },
  },
});
