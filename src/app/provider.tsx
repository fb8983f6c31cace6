import { QueryClientProvider } from '@tanstack/react-query';
import { useState, useSyncExternalStore, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { queryClient } from '../lib/query-client';
import { TRPCProvider, createTrpcClient } from '../lib/trpc';

const PHONE = '(max-width: 639px)';

/**
 * On a phone a dialog sits at the bottom of the screen, where a bottom toast would lie over its
 * buttons (a tap on it goes through to the hidden button): there toasts come from the top.
 */
function useToastPosition(): 'top-center' | 'bottom-right' {
  // Read through useSyncExternalStore, not a state set from a 'change' listener added in an effect:
  // a resize (a phone turned, a window narrowed) between the first render and that effect was lost,
  // and toasts stayed bottom right on a phone until the next change.
  const phone = useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE).matches);
  return phone ? 'top-center' : 'bottom-right';
}

function subscribePhone(onChange: () => void): () => void {
  const mql = window.matchMedia(PHONE);
  mql.addEventListener('change', onChange);
  return () => mql.removeEventListener('change', onChange);
}

export function AppProvider({ children }: { children: ReactNode }) {
  const [trpcClient] = useState(createTrpcClient);
  const position = useToastPosition();
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
        {/* Spec section 9: at most 3 toasts visible. */}
        {/* On a phone they come down below the dashboard's 56 px header (and the public pages'
            64 px one), so its menu and Sign Out buttons stay in reach while one shows. */}
        <Toaster visibleToasts={3} richColors closeButton position={position} mobileOffset={{ top: 72 }} offset={position === 'top-center' ? { top: 72 } : undefined} />
      </TRPCProvider>
    </QueryClientProvider>
  );
}
