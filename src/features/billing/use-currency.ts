import { useQuery } from '@tanstack/react-query';
import type { Currency } from '../../../server/contracts/plans';

/**
 * Spec sections 4 and 7: prices show in USD unless the visitor is in India. The server decides
 * (GEO_URL about the caller's IP, or the account's billing country) and says so in
 * /api/public-config; the browser never picks the currency it is charged in. Any failure → USD.
 */
async function lookupCurrency(): Promise<Currency> {
  try {
    const res = await fetch('/api/public-config', { headers: { Accept: 'application/json' } });
    if (!res.ok) return 'USD';
    const config = (await res.json()) as { currency?: unknown } | null;
    return config?.currency === 'INR' ? 'INR' : 'USD';
  } catch {
    return 'USD';
  }
}

export const currencyQueryKey = ['geo', 'currency'] as const;

/** The visitor's pricing currency: 'USD' while loading and on any failure. Looked up once per page load. */
export function useCurrency(): { currency: Currency; isLoading: boolean } {
  const query = useQuery({
    queryKey: currencyQueryKey,
    queryFn: lookupCurrency,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
  return { currency: query.data ?? 'USD', isLoading: query.isLoading };
}
