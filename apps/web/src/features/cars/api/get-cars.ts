// GET /api/car/getCarList: one page of listed cars for the browse filters; the browse page pages
// through them with "Load more vehicles" (12 a page, decisions.md section 4).
import type { Car } from '@karoo/shared';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { PAGE_SIZE, type CarListParams } from '../utils/browse-filters';

export interface CarPage {
  cars: Car[];
  total: number;
  page: number;
  limit: number;
}

export async function getCars(params: CarListParams, page = 1, signal?: AbortSignal): Promise<CarPage> {
  const result = await apiClient.get<Car[]>('/car/getCarList', { query: { ...params, page, limit: PAGE_SIZE }, signal });
  const cars = Array.isArray(result.data) ? result.data : [];
  const meta = result.meta ?? { total: cars.length, page, limit: PAGE_SIZE };
  return { cars, total: meta.total, page: meta.page, limit: meta.limit };
}

/** The page after `last`, or undefined when every car has been loaded. */
export function nextPageOf(last: CarPage): number | undefined {
  return last.page * last.limit < last.total ? last.page + 1 : undefined;
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
