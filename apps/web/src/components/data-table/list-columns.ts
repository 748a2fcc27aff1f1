// The columns of a server-paged list (DataTable): TanStack Table's column definitions, with what
// the list needs to know beside the cell: the filter a column offers above the table, its words in
// the sort menu, and where its cell sits on a card below 1280 px.
import { columnFilteringFeature, createColumnHelper, globalFilteringFeature, rowPaginationFeature, rowSortingFeature, tableFeatures, type ColumnDef, type RowData } from '@tanstack/react-table';

export interface ListColumnMeta {
  /**
   * A select above the table that filters this column on the server: its value goes in the URL
   * under the column's id (never `q`, `sort`, `order`, `page` or `tab`).
   */
  filter?: { label: string; allLabel: string; options: readonly { value: string; label: string }[] };
  /** The sort menu's words for the two directions (for a column with `enableSorting: true`). */
  sortLabels?: { asc: string; desc: string };
  /**
   * Below 1280 px in the cards layout: 'title' spans the top of the card, 'footer' its bottom (the
   * actions); any other cell is a fact with `cardLabel` written above it.
   */
  card?: 'title' | 'footer';
  cardLabel?: string;
  /** Pinned to the right edge while the table scrolls (the actions stay in reach). */
  isPinned?: boolean;
  headerClassName?: string;
  cellClassName?: string;
}

/** What every list table does: filters, a search, one sort and pages, all on the server. */
export const listFeatures = tableFeatures({
  columnFilteringFeature,
  globalFilteringFeature,
  rowSortingFeature,
  rowPaginationFeature,
  columnMeta: {} as ListColumnMeta,
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- columns of one list hold values of several types (TanStack's own ColumnDef array type)
export type ListColumn<TData extends RowData> = ColumnDef<typeof listFeatures, TData, any>;

export function listColumnHelper<TData extends RowData>() {
  return createColumnHelper<typeof listFeatures, TData>();
}
