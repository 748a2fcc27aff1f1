// A server-paged list's view (search, column filters, sort, page) kept in the URL's search
// parameters (list-state.ts says how), read before the list's query is made and written by the
// DataTable when its state changes. The list's columns say what the URL may hold.
import type { RowData } from '@tanstack/react-table';
import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { ListColumn } from './list-columns';
import { isSameQuery, listStateFrom, withListState, type ListSpec, type ListState } from './list-state';

export interface ListView {
  spec: ListSpec;
  state: ListState;
  /** Writes a change of the state to the URL; a new search, filter or sort starts again at page 1. */
  update: (change: (state: ListState) => ListState) => void;
  /** The page shown, from 1. */
  page: number;
  pageSize: number;
  search: string | undefined;
  /** A column filter's value, if it is one of `values` (the list's request is typed by them). */
  filter: <T extends string>(id: string, values: readonly T[]) => T | undefined;
  /** The sort, if it is by one of `ids`. */
  sortBy: <T extends string>(ids: readonly T[]) => { by: T; order: 'asc' | 'desc' } | undefined;
}

/** What the URL may hold for these columns: their filters' values and the sortable ones. */
export function listSpecOf<TData extends RowData>(columns: readonly ListColumn<TData>[], pageSize: number): ListSpec {
  const idOf = (column: ListColumn<TData>) => column.id ?? ('accessorKey' in column ? String(column.accessorKey) : '');
  return {
    filters: columns.flatMap((column) => (column.meta?.filter ? [{ id: idOf(column), values: column.meta.filter.options.map((option) => option.value) }] : [])),
    sortable: columns.filter((column) => column.enableSorting === true).map(idOf),
    pageSize,
  };
}

export function useListSearchParams<TData extends RowData>(columns: readonly ListColumn<TData>[], { pageSize }: { pageSize: number }): ListView {
  const [params, setParams] = useSearchParams();
  const spec = useMemo(() => listSpecOf(columns, pageSize), [columns, pageSize]);
  const state = listStateFrom(params, spec);
  // React Router's functional update starts from the params of the last render, so two changes
  // made before the next one (a search, then a filter at once) would drop the first: the URL being
  // written is kept here, and the one on screen replaces it when it changes (Back, a link).
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);

  const update = (change: (state: ListState) => ListState) => {
    const current = listStateFrom(latest.current, spec);
    const changed = change(current);
    const next = isSameQuery(current, changed) ? changed : { ...changed, pagination: { ...changed.pagination, pageIndex: 0 } };
    latest.current = withListState(latest.current, next, spec);
    setParams(latest.current, { replace: true });
  };

  const sort = state.sorting[0];
  return {
    spec,
    state,
    update,
    page: state.pagination.pageIndex + 1,
    pageSize,
    search: state.globalFilter || undefined,
    filter: <T extends string>(id: string, values: readonly T[]) => {
      const value = state.columnFilters.find((filter) => filter.id === id)?.value;
      return values.find((allowed) => allowed === value);
    },
    sortBy: <T extends string>(ids: readonly T[]) => {
      const by = sort ? ids.find((id) => id === sort.id) : undefined;
      return by && sort ? { by, order: sort.desc ? 'desc' : 'asc' } : undefined;
    },
  };
}
