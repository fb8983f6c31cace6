import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/query-client';
import { TRPCProvider, createTrpcClient } from '../lib/trpc';

export function AppProvider({ children }: { children: ReactNode }) {
  const [trpcClient] = useState(createTrpcClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
        {/* Spec section 9: at most 3 toasts visible. */}
        <Toaster visibleToasts={3} richColors closeButton position="bottom-right" />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
