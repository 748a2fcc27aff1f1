// Earnings reads: the host's summary (stored sums by car and by month), each earning with its
// payout, the host's fleet, and the invoice of a completed booking.
import { CAR_LIST_MAX_LIMIT, type Car, type Earning, type EarningsSummary, type Invoice } from '@karoo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const earningsKeys = {
  summary: () => ['earnings', 'summary'] as const,
  profit: (username: string) => ['earnings', 'profit', username] as const,
  fleet: (username: string) => ['earnings', 'fleet', username] as const,
};

export function useEarningsSummary(enabled = true) {
  return useQuery({
    enabled,
    queryKey: earningsKeys.summary(),
    queryFn: async ({ signal }) => (await apiClient.get<EarningsSummary>('/earnings/earning/getSummary', { signal })).data,
  });
}

export function useOwnerEarnings(username: string | undefined) {
  return useQuery({
    queryKey: earningsKeys.profit(username ?? ''),
    queryFn: async ({ signal }) => (await apiClient.get<Earning[]>(`/earnings/earning/getCarOwnerProfit/${encodeURIComponent(username!)}`, { signal })).data,
    enabled: !!username,
  });
}

export interface Fleet {
  cars: Car[];
  total: number;
}

/** The first page of the owner's cars and how many there are in all (meta.total). */
export function useFleet(username: string | undefined, enabled = true) {
  return useQuery({
    queryKey: earningsKeys.fleet(username ?? ''),
    queryFn: async ({ signal }): Promise<Fleet> => {
      const result = await apiClient.get<Car[]>('/car/getCarList', { query: { owner: username, page: 1, limit: CAR_LIST_MAX_LIMIT }, signal });
      const cars = (result.data ?? []).filter((c) => c.car_owner === username);
      return { cars, total: result.meta?.total ?? cars.length };
    },
    enabled: !!username && enabled,
  });
}

export function useCreateInvoice() {
  return useMutation({
    mutationFn: async (bookingId: string) => (await apiClient.post<Invoice>(`/earnings/earning/createInvoicePerCar/${encodeURIComponent(bookingId)}`)).data,
  });
}
