// A server-paged list's view as the URL holds it, so that a filtered, sorted page can be reloaded,
// shared and reached with Back: `?q=naledi&status=pending_verification&sort=price&order=desc&page=2`.
// The search is `q`, each column filter its column's id, the sort `sort` and `order`, the page
// `page` (from 1; left out on the first). Every other parameter (the admin panel's `tab`) is kept
// as it is. A value the list does not offer is ignored rather than sent to the server.
import type { ColumnFiltersState, PaginationState, SortingState } from '@tanstack/react-table';

/** What a list's URL may hold: read from its columns (listSpecOf). */
export interface ListSpec {
  /** Each column filter: the column's id (its URL parameter) and the values it may take. */
  filters: readonly { id: string; values: readonly string[] }[];
  /** The ids of the columns the server can sort by. */
  sortable: readonly string[];
  pageSize: number;
}

/** The table's state of a server-paged list (TanStack Table's slices). */
export interface ListState {
  /** The search ('' when there is none). */
  globalFilter: string;
  columnFilters: ColumnFiltersState;
  /** One column at most: the server sorts by one. */
  sorting: SortingState;
  pagination: PaginationState;
}

/** The parameters this module owns; a column filter may not take one of these names. */
export const LIST_PARAMS = { search: 'q', sort: 'sort', order: 'order', page: 'page' } as const;

const MAX_PAGE = 100_000;

export function listStateFrom(params: URLSearchParams, spec: ListSpec): ListState {
  const page = Number(params.get(LIST_PARAMS.page));
  const sortId = params.get(LIST_PARAMS.sort);
  const columnFilters = spec.filters.flatMap(({ id, values }) => {
    const value = params.get(id);
    return value !== null && values.includes(value) ? [{ id, value }] : [];
  });
  return {
    globalFilter: params.get(LIST_PARAMS.search)?.trim() ?? '',
    columnFilters,
    sorting: sortId && spec.sortable.includes(sortId) ? [{ id: sortId, desc: params.get(LIST_PARAMS.order) === 'desc' }] : [],
    pagination: { pageIndex: Number.isInteger(page) && page >= 1 && page <= MAX_PAGE ? page - 1 : 0, pageSize: spec.pageSize },
  };
}

/** The URL holding `state`: this list's parameters written (or removed when empty), the others kept. */
export function withListState(params: URLSearchParams, state: ListState, spec: ListSpec): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (name: string, value: string | undefined) => (value ? next.set(name, value) : next.delete(name));
  put(LIST_PARAMS.search, state.globalFilter.trim() || undefined);
  for (const { id } of spec.filters) {
    const value = state.columnFilters.find((filter) => filter.id === id)?.value;
    put(id, typeof value === 'string' ? value : undefined);
  }
  const sort = state.sorting[0];
  put(LIST_PARAMS.sort, sort?.id);
  put(LIST_PARAMS.order, sort ? (sort.desc ? 'desc' : 'asc') : undefined);
  put(LIST_PARAMS.page, state.pagination.pageIndex > 0 ? String(state.pagination.pageIndex + 1) : undefined);
  return next;
}

/** Whether two states show the same rows but for the page: a new search, filter or sort starts again at page 1. */
export function isSameQuery(a: ListState, b: ListState): boolean {
  const filters = (state: ListState) => JSON.stringify([...state.columnFilters].sort((x, y) => x.id.localeCompare(y.id)));
  return a.globalFilter === b.globalFilter && filters(a) === filters(b) && JSON.stringify(a.sorting) === JSON.stringify(b.sorting);
}
