import { useQuery } from '@tanstack/react-query';
import type { Currency } from '../../../server/contracts/plans';

/**
 * Spec sections 4 and 7: prices show in USD unless the visitor's IP geolocation says India.
 * The geolocation URL is configurable on the server (GEO_URL) and handed to the browser via
 * /api/public-config. ANY failure (config, network, CORS, bad JSON, missing field) means USD.
 */
async function lookupCurrency(): Promise<Currency> {
  try {
    const configRes = await fetch('/api/public-config', { headers: { Accept: 'application/json' } });
    if (!configRes.ok) return 'USD';
    const config: unknown = await configRes.json();
    const geoUrl = (config as { geoUrl?: unknown } | null)?.geoUrl;
    if (typeof geoUrl !== 'string' || geoUrl === '') return 'USD';

    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), 5000);
    try {
      // GET, no payload, no credentials: a third-party service only needs the caller's IP.
      const geoRes = await fetch(geoUrl, { signal: controller.signal, credentials: 'omit' });
      if (!geoRes.ok) return 'USD';
      const geo: unknown = await geoRes.json();
      const country = (geo as { country_code?: unknown } | null)?.country_code;
      return typeof country === 'string' && country.toUpperCase() === 'IN' ? 'INR' : 'USD';
    } finally {
      clearTimeout(timeout);
    }
  } catch {
    return 'USD';
  }
}

export const currencyQueryKey = ['geo', 'currency'] as const;

/** The visitor's pricing currency: 'USD' while loading and on any failure, 'INR' for India. Looked up once per page load. */
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
