import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/query-client';
import { TRPCProvider, createTrpcClient } from '../lib/trpc';

const PHONE = '(max-width: 639px)';

/**
 * On a phone a dialog sits at the bottom of the screen, where a bottom toast would lie over its
 * buttons (a tap on it goes through to the hidden button): there toasts come from the top.
 */
function useToastPosition(): 'top-center' | 'bottom-right' {
  const [phone, setPhone] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const mql = window.matchMedia(PHONE);
    const onChange = () => setPhone(mql.matches);
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, []);
  return phone ? 'top-center' : 'bottom-right';
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [trpcClient] = useState(createTrpcClient);
  const position = useToastPosition();
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
        {/* Spec section 9: at most 3 toasts visible. */}
        <Toaster visibleToasts={3} richColors closeButton position={position} />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
