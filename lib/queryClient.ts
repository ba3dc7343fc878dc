/**
 * React Query defaults (docs/PRODUCT.md, Constants): unused data kept 5 minutes; queries retried 3 times, mutations never;
 * the wait between tries doubles from 1 s up to 30 s. Only pages that fetch create a client (see QueryProvider), so
 * marketing pages never download React Query.
 */
import { QueryClient } from '@tanstack/react-query';

export const GC_TIME_MS = 5 * 60 * 1000;
export const MAX_RETRY_DELAY_MS = 30_000;

export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, MAX_RETRY_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: GC_TIME_MS, retry: 3, retryDelay, refetchOnWindowFocus: false },
      mutations: { gcTime: GC_TIME_MS, retry: 0 },
    },
  });
}
