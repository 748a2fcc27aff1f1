// The dashboard's reads: the user's bookings and their stats, the host's stored earnings and fleet,
// and how many cars can be booked. The query keys are those of My Bookings and Earnings, so a change
// made there refreshes the dashboard too.
import { CAR_LIST_MAX_LIMIT, type Booking, type BookingStats, type Car, type EarningsSummary } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export function useDashboardBookings(enabled: boolean) {
  return useQuery({
    queryKey: ['bookings', 'list'],
    queryFn: async ({ signal }) => (await apiClient.get<Booking[]>('/booking/getAll', { signal })).data,
    enabled,
    staleTime: 30_000,
  });
}

export function useDashboardStats(enabled: boolean) {
  return useQuery({
    queryKey: ['bookings', 'stats'],
    queryFn: async ({ signal }) => (await apiClient.get<BookingStats>('/booking/getStats', { signal })).data,
    enabled,
    staleTime: 30_000,
  });
}

export function useDashboardEarnings(enabled: boolean) {
  return useQuery({
    queryKey: ['earnings', 'summary'],
    queryFn: async ({ signal }) => (await apiClient.get<EarningsSummary>('/earnings/earning/getSummary', { signal })).data,
    enabled,
  });
}

export function useDashboardFleet(username: string | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['earnings', 'fleet', username ?? ''],
    queryFn: async ({ signal }) => {
      const result = await apiClient.get<Car[]>('/car/getCarList', { query: { owner: username, page: 1, limit: CAR_LIST_MAX_LIMIT }, signal });
      const cars = (result.data ?? []).filter((c) => c.car_owner === username);
      return { cars, total: result.meta?.total ?? cars.length };
    },
    enabled: !!username && enabled,
  });
}

export function useAvailableCarsCount(enabled: boolean) {
  return useQuery({
    queryKey: ['cars', 'available-count'],
    queryFn: async ({ signal }) => (await apiClient.get<Car[]>('/car/getCarList', { query: { page: 1, limit: 1 }, signal })).meta?.total ?? 0,
    enabled,
  });
}
