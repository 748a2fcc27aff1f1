// /cars asks for its first page of cars as soon as the route starts, alongside the page's code
// instead of after it: the router's loader imports this small module (app/router.tsx), so the
// cards (the page's largest paint) arrive sooner. The page reads the same cached query (useCars).
import { todayIn } from '@karoo/shared';
import type { QueryClient } from '@tanstack/react-query';
import { getSettings, SETTINGS_STALE_MS } from '@/lib/queries/settings';
import { queryKeys } from '@/lib/query-keys';
import { parseFilters, toCarListParams } from '../utils/browse-filters';
import { getCars, nextPageOf } from './get-cars';

export async function prefetchFirstCarPage(client: QueryClient, url: URL): Promise<void> {
  const filters = parseFilters(url.searchParams, todayIn());
  const params = toCarListParams(filters);
  await Promise.all([
    client.prefetchInfiniteQuery({
      queryKey: queryKeys.cars.list(params),
      queryFn: ({ pageParam, signal }) => getCars(params, pageParam, signal),
      initialPageParam: 1,
      getNextPageParam: nextPageOf,
    }),
    // With dates, each card says the trip's total, which takes the platform's service fee.
    filters.pickupDate ? client.prefetchQuery({ queryKey: queryKeys.settings, queryFn: ({ signal }) => getSettings(signal), staleTime: SETTINGS_STALE_MS }) : null,
  ]);
}
