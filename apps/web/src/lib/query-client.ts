// TanStack Query defaults of document 1 section 7: data stays fresh for 5 minutes, unused data is
// kept 5 minutes, failures are retried 3 times with a delay doubling from 1 s up to 30 s.
import { POLICIES_PENDING_FIELD } from '@karoo/shared';
import { MutationCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

const FIVE_MINUTES = 5 * 60 * 1000;
export const MAX_RETRIES = 3;

/**
 * Retries network failures, timeouts and 5xx answers only. A 4xx means the request itself was
 * refused (bad input, no permission, not found, throttled, session over): repeating it cannot
 * succeed and, for 401 and 429, would only make things worse.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.isClientError) return false;
  return failureCount < MAX_RETRIES;
}

/** 1 s, 2 s, 4 s ... never more than 30 s. */
export function retryDelay(attemptIndex: number): number {
  return Math.min(1000 * 2 ** attemptIndex, 30_000);
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onError: (error) => {
        // The server refuses a booking request or a listing while the person has not accepted terms
        // published since this page opened: their policies are read again, and the app asks for the
        // acceptance in place of the page (decision 049).
        if (isApiError(error) && error.status === 409 && error.errors[POLICIES_PENDING_FIELD]) void client.invalidateQueries({ queryKey: ['privacy', 'policies'] });
      },
    }),
    defaultOptions: {
      queries: { staleTime: FIVE_MINUTES, gcTime: FIVE_MINUTES, retry: shouldRetry, retryDelay },
      // A mutation (sign in, upload, save) is never repeated behind the user's back.
      mutations: { retry: false },
    },
  });
  return client;
}
