// GET /api/car/getCarList?fields=card: one page of listed cars for the browse filters, each as its
// card shows it (decision 046: a few KB for 12 cars, not 41); the browse page pages through them
// with "Load more vehicles" (12 a page, decisions.md section 4).
import type { CarCard } from '@karoo/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { PAGE_SIZE, type CarListParams } from '../utils/browse-filters';

export interface CarPage {
  cars: CarCard[];
  /** Matching cars; past 1,000 the server stops counting and `exact` is false ("1,000+"). */
  total: number;
  exact: boolean;
  page: number;
  limit: number;
  hasMore: boolean;
}

export async function getCars(params: CarListParams, page = 1, signal?: AbortSignal): Promise<CarPage> {
  const result = await apiClient.get<CarCard[]>('/car/getCarList', { query: { ...params, fields: 'card', page, limit: PAGE_SIZE }, signal });
  const cars = Array.isArray(result.data) ? result.data : [];
  const meta = result.meta ?? { total: cars.length, page, limit: PAGE_SIZE };
  return {
    cars,
    total: meta.total,
    exact: meta.total_exact ?? true,
    page: meta.page,
    limit: meta.limit,
    hasMore: meta.has_more ?? meta.page * meta.limit < meta.total,
  };
}

/** The page after `last`, or undefined when every car has been loaded. */
export function nextPageOf(last: CarPage): number | undefined {
  return last.hasMore ? last.page + 1 : undefined;
}

export function useCars(params: CarListParams) {
  return useInfiniteQuery({
    queryKey: queryKeys.cars.list(params),
    queryFn: ({ pageParam, signal }) => getCars(params, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPageOf,
    // A filter change keeps the current cards on screen (dimmed) until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
