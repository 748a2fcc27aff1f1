// The signed-in user's own bookings (as renter and as car owner) and their stats: My Bookings and
// the dashboard read the same list. `scope=mine` keeps an admin's own pages to the admin's own
// trips and requests; the admin panel's all-bookings view is a different key (scope 'all').
import type { Booking, BookingStats } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

export async function getMyBookings(signal?: AbortSignal): Promise<Booking[]> {
  return (await apiClient.get<Booking[]>('/booking/getAll', { query: { scope: 'mine' }, signal })).data;
}

export async function getMyBookingStats(signal?: AbortSignal): Promise<BookingStats> {
  return (await apiClient.get<BookingStats>('/booking/getStats', { query: { scope: 'mine' }, signal })).data;
}

export function useMyBookings(enabled = true) {
  return useQuery({ queryKey: queryKeys.bookings.list('mine'), queryFn: ({ signal }) => getMyBookings(signal), enabled, staleTime: 30_000 });
}

export function useMyBookingStats(enabled = true) {
  return useQuery({ queryKey: queryKeys.bookings.stats('mine'), queryFn: ({ signal }) => getMyBookingStats(signal), enabled, staleTime: 30_000 });
}

export async function getOwnerBookingStats(signal?: AbortSignal): Promise<BookingStats> {
  return (await apiClient.get<BookingStats>('/booking/getStats', { query: { as: 'owner' }, signal })).data;
}

/** Counts and the host's stored earnings of the bookings on their own cars (the host dashboard's counters). */
export function useOwnerBookingStats(enabled = true) {
  return useQuery({ queryKey: queryKeys.bookings.statsAs('owner'), queryFn: ({ signal }) => getOwnerBookingStats(signal), enabled, staleTime: 30_000 });
}
