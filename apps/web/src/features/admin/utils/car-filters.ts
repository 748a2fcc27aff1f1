// The Cars tab's filters live in the URL (/admin?tab=cars&q=KR+42&status=rented&verification=
// pending_verification&page=2), so a filtered list can be reloaded, shared and reached with Back.
// Anything the URL holds that the tab does not offer is ignored rather than sent to the server.
import { CAR_VERIFICATION_STATUSES, type CarStatus } from '@karoo/shared';
import { ADMIN_CARS_PAGE_SIZE, type AdminCarFilters } from '../api/admin-cars';

/** Document 3's status filter: All, Available, Rented, Maintenance. */
export const CAR_FILTER_STATUSES = ['available', 'rented', 'maintenance'] as const satisfies readonly CarStatus[];

/** The URL's names for the filters (short, and none of them the tab's own `tab`). */
const PARAMS = { search: 'q', status: 'status', verification_status: 'verification', page: 'page' } as const;

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined => (values as readonly string[]).includes(value ?? '') ? (value as T) : undefined;

export function carFiltersFrom(params: URLSearchParams): AdminCarFilters {
  const page = Number(params.get(PARAMS.page));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    limit: ADMIN_CARS_PAGE_SIZE,
    search: params.get(PARAMS.search)?.trim() || undefined,
    status: oneOf(CAR_FILTER_STATUSES, params.get(PARAMS.status)),
    verification_status: oneOf(CAR_VERIFICATION_STATUSES, params.get(PARAMS.verification_status)),
  };
}

/**
 * The URL after a change of filters: the given filters set (or removed when undefined), the other
 * parameters (the tab) kept. A new search or filter starts again at page 1.
 */
export function withCarFilters(params: URLSearchParams, patch: Partial<Omit<AdminCarFilters, 'limit'>>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of ['search', 'status', 'verification_status'] as const) {
    if (!(key in patch)) continue;
    const value = patch[key];
    if (value) next.set(PARAMS[key], value);
    else next.delete(PARAMS[key]);
  }
  const page = patch.page ?? 1;
  if (page > 1) next.set(PARAMS.page, String(page));
  else next.delete(PARAMS.page);
  return next;
}
