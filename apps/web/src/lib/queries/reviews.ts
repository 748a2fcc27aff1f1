// GET /api/review/getStats: the average, count and spread of ratings, of one car or (without a car)
// of every review on the platform, for the landing page's "average rating".
import type { ReviewStats } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

export async function getReviewStats(carUsername?: string, signal?: AbortSignal): Promise<ReviewStats> {
  return (await apiClient.get<ReviewStats>('/review/getStats', { query: { car_username: carUsername }, signal })).data;
}

export function useReviewStats(carUsername?: string) {
  return useQuery({ queryKey: queryKeys.reviews.stats(carUsername), queryFn: ({ signal }) => getReviewStats(carUsername, signal) });
}
