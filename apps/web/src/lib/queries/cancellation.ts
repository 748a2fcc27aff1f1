// GET /api/booking/{id}/cancellation: what cancelling a paid trip now would give back and cost, for
// the viewer's part (renter, host, administrator), read by the cancel dialogs of My Bookings and of
// the admin Bookings tab. Never cached for long: the free window ends at a minute's precision.
import type { CancellationQuote } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

/** The query string of the quote: a host's no-show report, an administrator's refund choice (rand). */
export type CancellationQuoteParams = {
  no_show?: 'true';
  refund?: 'full' | 'policy' | 'amount';
  refund_amount?: number;
};

export async function getCancellationQuote(bookingId: string, params: CancellationQuoteParams, signal?: AbortSignal): Promise<CancellationQuote> {
  return (await apiClient.get<CancellationQuote>(`/booking/${encodeURIComponent(bookingId)}/cancellation`, { query: { ...params }, signal })).data;
}

export function useCancellationQuote(bookingId: string, params: CancellationQuoteParams, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.bookings.cancellation(bookingId, params),
    queryFn: ({ signal }) => getCancellationQuote(bookingId, params, signal),
    enabled,
    staleTime: 0,
    refetchInterval: 60_000,
    // An administrator's next refund choice keeps this trip's last answer on screen while it is checked.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === bookingId ? previous : undefined),
  });
}
