// GET /api/review/getAll?car_username=: the guest reviews shown on the detail page, newest first.
import type { Review } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export async function getCarReviews(carUsername: string, signal?: AbortSignal): Promise<Review[]> {
  const result = await apiClient.get<Review[]>('/review/getAll', { query: { car_username: carUsername }, signal });
  return Array.isArray(result.data) ? result.data : [];
}

export function useCarReviews(carUsername: string | undefined) {
  return useQuery({
    queryKey: queryKeys.reviews.car(carUsername),
    queryFn: ({ signal }) => getCarReviews(carUsername!, signal),
    enabled: !!carUsername,
  });
}

/** The average to one decimal (0 without reviews). */
export function averageRating(reviews: readonly Pick<Review, 'rating'>[]): number {
  if (reviews.length === 0) return 0;
  const sum = reviews.reduce((total, review) => total + review.rating, 0);
  return Math.round((sum / reviews.length) * 10) / 10;
}
