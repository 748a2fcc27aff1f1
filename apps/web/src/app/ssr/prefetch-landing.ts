// The landing page's figures (cars listed, the platform's average rating) under the keys its Stats
// read: the server renderer waits for them, so the page is sent with its numbers (decision 044).
import type { QueryClient } from '@tanstack/react-query';
import { getListedCarsCount } from '@/lib/queries/car-count';
import { getReviewStats } from '@/lib/queries/reviews';
import { queryKeys } from '@/lib/query-keys';

export async function prefetchLandingFigures(client: QueryClient): Promise<void> {
  await Promise.all([
    client.prefetchQuery({ queryKey: queryKeys.cars.count(), queryFn: ({ signal }) => getListedCarsCount(signal) }),
    client.prefetchQuery({ queryKey: queryKeys.reviews.stats(), queryFn: ({ signal }) => getReviewStats(undefined, signal) }),
  ]);
}
