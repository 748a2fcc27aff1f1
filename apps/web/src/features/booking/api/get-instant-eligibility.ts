// GET /api/booking/instant/{car}: whether the signed-in renter's request for this car is confirmed at
// once (the host's instant booking, the platform's switch, the renter's record), and what they lack.
import type { InstantEligibility } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function getInstantEligibility(carUsername: string, signal?: AbortSignal): Promise<InstantEligibility> {
  const result = await apiClient.get<InstantEligibility>(`/booking/instant/${encodeURIComponent(carUsername)}`, { signal });
  return result.data;
}

export const instantEligibilityKey = (carUsername: string) => ['bookings', 'instant', carUsername] as const;

export function useInstantEligibility(carUsername: string, enabled: boolean) {
  return useQuery({ queryKey: instantEligibilityKey(carUsername), queryFn: ({ signal }) => getInstantEligibility(carUsername, signal), enabled, staleTime: 60_000 });
}
