// GET /api/user/{username}/hosted-bookings: bookings on the host's own cars, for the pending,
// confirmed and earnings counters. The API of this release does not answer it yet (404): the
// dashboard then hides those counters instead of showing made-up numbers.
import type { Booking } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient, isApiError } from '@/lib/api-client';

export const hostedBookingsKey = (username: string | undefined) => ['hosted-bookings', username] as const;

/** The bookings, or null when the server has no such list (404 or 405). */
export async function getHostedBookings(username: string, signal?: AbortSignal): Promise<Booking[] | null> {
  try {
    const result = await apiClient.get<Booking[]>(`/user/${encodeURIComponent(username)}/hosted-bookings`, { signal });
    return Array.isArray(result.data) ? result.data : null;
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 405)) return null;
    throw error;
  }
}

export function useHostedBookings(username: string | undefined) {
  return useQuery({
    queryKey: hostedBookingsKey(username),
    queryFn: ({ signal }) => getHostedBookings(username!, signal),
    enabled: !!username,
    staleTime: 60_000,
  });
}
