import { QueryClient } from '@tanstack/react-query';

// Spec section 9: unused cached data kept 5 minutes, up to 3 retries.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { gcTime: 5 * 60 * 1000, retry: 3, staleTime: 10 * 1000, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});
