// One list paged, filtered and sorted on the server (the admin panel's Users, Cars, Bookings and
// Audit Log): its heading, the search and the filters its columns offer, the table, and the pager,
// on TanStack Table in manual mode (the server has already searched, filtered, sorted and cut the
// page it sends). The view lives in the URL (useListSearchParams), so it survives a reload and can
// be shared. Two layouts: 'scroll', a table that scrolls sideways inside its box on a narrow
// screen; 'cards', a table from 1280 px (xl) and a card per row below it, each fact under its
// column's name, so that nothing (the actions least of all) is out of reach on a phone.
import { flexRender, functionalUpdate, useTable, type Header, type RowData, type Updater } from '@tanstack/react-table';
import { clsx } from 'clsx';
import { ArrowDown, ArrowUp, ChevronLeft, ChevronRight, type LucideIcon } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { messageOf } from '@/lib/api-client';
import { listFeatures, type ListColumn, type ListColumnMeta } from './list-columns';
import type { ListState } from './list-state';
import type { ListView } from './use-list-search-params';

export type DataTableLayout = { kind: 'scroll'; /** The table's least width (a Tailwind class: min-w-[1040px]). */ minWidth: string } | { kind: 'cards' };

export interface DataTableProps<TData extends { id: string }> {
  title: string;
  icon: LucideIcon;
  description: string;
  /** Stable (module scope or memoised): TanStack Table rebuilds its columns when they change. */
  columns: ListColumn<TData>[];
  list: ListView;
  /** The page of rows, undefined until the first answer. */
  rows: TData[] | undefined;
  /** How many rows match, on every page. */
  total: number | undefined;
  query: { isError: boolean; error: unknown; refetch: () => unknown };
  /** The rows as a phrase: 'the users' (Loading the users, Unable to load the users). */
  what: string;
  /** One row and many: ['user', 'users']. */
  noun: readonly [string, string];
  /** Said when no row matches. */
  empty: string;
  /** The search box (`q` in the URL), when the server searches this list. */
  search?: { label: string; placeholder: string };
  /** The sort menu's first choice, the server's own order ('Newest listed first'). */
  defaultSortLabel?: string;
  /** More controls at the end of the toolbar (Add User). */
  actions?: ReactNode;
  layout: DataTableLayout;
  /** What a screen reader calls the table's box while it scrolls sideways. */
  regionLabel: string;
  /** data-testid of each row, for the tests. */
  rowTestId: string;
}

const EMPTY: never[] = [];
const LABEL = 'mb-1 block font-medium text-stone-700';
const SELECT = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';
// The cards layout: a cell is a block in the card's grid below xl, a table cell from xl.
const CARD_CELL = 'block min-w-0 xl:table-cell xl:px-3 xl:py-3';
const CARD_LABEL = 'mb-1 text-[11px] font-semibold tracking-wide text-stone-500 uppercase xl:hidden';
// At 1280 px the table fits; should a long value widen it, it scrolls and a pinned column stays.
const PINNED = 'xl:sticky xl:right-0 xl:shadow-[-8px_0_8px_-8px_rgb(28_25_23/0.12)]';

export function DataTable<TData extends { id: string }>(props: DataTableProps<TData>) {
  const { title, icon: Icon, description, columns, list, rows, total, query, what, noun, empty, search, defaultSortLabel, actions, layout, regionLabel, rowTestId } = props;
  const headingId = useId();
  const change =
    <K extends keyof ListState>(key: K) =>
    (updater: Updater<ListState[K]>) =>
      list.update((state) => ({ ...state, [key]: functionalUpdate(updater, state[key]) }));
  const table = useTable({
    features: listFeatures,
    columns,
    data: rows ?? EMPTY,
    getRowId: (row) => row.id,
    rowCount: total ?? 0,
    // The server searched, filtered, sorted and paged: the table shows what it sent.
    manualFiltering: true,
    manualSorting: true,
    manualPagination: true,
    autoResetPageIndex: false,
    enableMultiSort: false,
    // Every column sorts up first (A to Z, cheapest), then down, then back to the server's order.
    sortDescFirst: false,
    // A column sorts only where it says so: the server sorts by few.
    defaultColumn: { enableSorting: false },
    state: list.state,
    onGlobalFilterChange: change('globalFilter'),
    onColumnFiltersChange: change('columnFilters'),
    onSortingChange: change('sorting'),
    onPaginationChange: change('pagination'),
  });

  const isCards = layout.kind === 'cards';
  const filterColumns = table.getAllLeafColumns().filter((column) => column.columnDef.meta?.filter);
  const sortColumns = table.getAllLeafColumns().filter((column) => column.getCanSort());
  const setFilter = (id: string, value: string) => table.setColumnFilters((old) => [...old.filter((filter) => filter.id !== id), ...(value ? [{ id, value }] : [])]);
  const sorted = table.state.sorting[0];
  const count = total ?? 0;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white shadow-sm">
      <header className="flex flex-col gap-4 border-b border-stone-100 p-5 lg:flex-row lg:items-end lg:justify-between">
        <div className="lg:max-w-sm">
          <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-stone-900">
            <Icon className="size-5 text-brand-600" aria-hidden="true" /> {title}
          </h2>
          <p className="mt-1 text-sm text-stone-600">{description}</p>
        </div>
        <div className="flex flex-wrap items-end gap-3 lg:justify-end">
          {search ? <SearchForm {...search} value={table.state.globalFilter} onSearch={(text) => table.setGlobalFilter(text)} /> : null}
          {filterColumns.map((column) => {
            const filter = column.columnDef.meta!.filter!;
            const value = table.state.columnFilters.find((f) => f.id === column.id)?.value;
            return (
              <label key={column.id} className="text-sm">
                <span className={LABEL}>{filter.label}</span>
                <select className={SELECT} value={typeof value === 'string' ? value : ''} onChange={(e) => setFilter(column.id, e.target.value)}>
                  <option value="">{filter.allLabel}</option>
                  {filter.options.map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
              </label>
            );
          })}
          {sortColumns.length > 0 && isCards ? (
            // Where the header row is hidden (the cards), the sort is this menu; from 1280 px the headers sort.
            <label className="text-sm xl:hidden">
              <span className={LABEL}>Sort by</span>
              <select
                className={SELECT}
                value={sorted ? `${sorted.id}:${sorted.desc ? 'desc' : 'asc'}` : ''}
                onChange={(e) => {
                  const [id, direction] = e.target.value.split(':');
                  table.setSorting(id ? [{ id, desc: direction === 'desc' }] : []);
                }}
              >
                <option value="">{defaultSortLabel ?? 'Default order'}</option>
                {sortColumns.flatMap((column) => {
                  const labels = column.columnDef.meta?.sortLabels ?? { asc: `${column.id}: ascending`, desc: `${column.id}: descending` };
                  return [
                    <option key={`${column.id}:asc`} value={`${column.id}:asc`}>
                      {labels.asc}
                    </option>,
                    <option key={`${column.id}:desc`} value={`${column.id}:desc`}>
                      {labels.desc}
                    </option>,
                  ];
                })}
              </select>
            </label>
          ) : null}
          {actions}
        </div>
      </header>

      {query.isError && !rows ? (
        <div className="p-5">
          <Alert tone="danger" title={`Unable to load ${what}`} role="alert">
            {messageOf(query.error, `There was an error loading ${what}. Please try again.`)}
          </Alert>
          <Button className="mt-3" variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : !rows ? (
        <div className="space-y-3 p-5" role="status" aria-label={`Loading ${what}`}>
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded-xl bg-stone-100" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <p className="p-5 text-sm text-stone-500">{empty}</p>
      ) : (
        <ScrollRegion label={regionLabel}>
          <table className={isCards ? 'block w-full text-left text-sm xl:table' : clsx('w-full text-left text-sm', layout.minWidth)}>
            <thead
              className={clsx(
                'bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase',
                // Cards have no header row to see; it stays for screen readers.
                isCards && 'sr-only xl:not-sr-only xl:table-header-group',
              )}
            >
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta;
                    const direction = header.column.getIsSorted();
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={direction ? (direction === 'asc' ? 'ascending' : 'descending') : undefined}
                        className={clsx(isCards ? 'px-3 py-3' : 'px-5 py-3', meta?.isPinned && `bg-stone-50 ${PINNED}`, meta?.headerClassName)}
                      >
                        <HeaderLabel header={header} isCards={isCards} />
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className={clsx('divide-y divide-stone-100', isCards && 'block xl:table-row-group')}>
              {table.getRowModel().rows.map((row) => (
                <tr key={row.id} data-testid={rowTestId} className={isCards ? 'grid grid-cols-2 gap-x-4 gap-y-4 p-4 sm:grid-cols-3 sm:p-5 xl:table-row xl:p-0 xl:align-top' : 'align-top'}>
                  {row.getAllCells().map((cell) => {
                    const meta = cell.column.columnDef.meta;
                    return (
                      <td key={cell.id} className={clsx(isCards ? cardCellClasses(meta) : 'px-5 py-3', meta?.isPinned && PINNED, meta?.cellClassName)}>
                        {isCards && !meta?.card && meta?.cardLabel ? <p className={CARD_LABEL}>{meta.cardLabel}</p> : null}
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}

      <footer className="flex items-center justify-between gap-3 border-t border-stone-100 px-5 py-3 text-sm text-stone-600">
        <span>
          {count.toLocaleString('en-ZA')} {count === 1 ? noun[0] : noun[1]} · page {list.page} of {Math.max(1, table.getPageCount())}
        </span>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" icon={<ChevronLeft className="size-4" aria-hidden="true" />} disabled={!table.getCanPreviousPage()} onClick={() => table.previousPage()}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" icon={<ChevronRight className="size-4" aria-hidden="true" />} disabled={!table.getCanNextPage()} onClick={() => table.nextPage()}>
            Next
          </Button>
        </div>
      </footer>
    </section>
  );
}

/** A card's cell: the title and the footer (the actions) span the card, the footer below a rule. */
function cardCellClasses(meta: ListColumnMeta | undefined) {
  return clsx(CARD_CELL, meta?.card && 'col-span-2 sm:col-span-3', meta?.card === 'footer' && 'border-t border-stone-100 bg-white pt-4 xl:border-t-0');
}

/**
 * A column's name; where the server sorts by it, a button that changes the sort (up, down, then
 * the server's own order) with its direction beside it. In the cards layout the header row is
 * seen only from 1280 px, so below that the name is plain text (no hidden tab stop) and the
 * Sort by menu sorts.
 */
function HeaderLabel<TData extends RowData>({ header, isCards }: { header: Header<typeof listFeatures, TData>; isCards: boolean }) {
  const name = flexRender(header.column.columnDef.header, header.getContext());
  if (!header.column.getCanSort()) return name;
  const direction = header.column.getIsSorted();
  const arrow = direction ? direction === 'asc' ? <ArrowUp className="size-3.5" aria-hidden="true" /> : <ArrowDown className="size-3.5" aria-hidden="true" /> : null;
  return (
    <>
      {isCards ? <span className="xl:hidden">{name}</span> : null}
      <button
        type="button"
        onClick={header.column.getToggleSortingHandler()}
        className={clsx(
          'items-center gap-1 rounded text-left font-semibold tracking-wide uppercase hover:text-stone-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
          isCards ? 'hidden xl:inline-flex' : 'inline-flex',
        )}
      >
        {name}
        {arrow}
      </button>
    </>
  );
}

/** The search box: typed freely, sent with Search (or Enter); a new search in the URL (Back, a link) replaces what is typed. */
function SearchForm({ label, placeholder, value, onSearch }: { label: string; placeholder: string; value: string; onSearch: (text: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setDraft(value);
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim());
  };
  return (
    <form onSubmit={submit} className="flex w-full items-end gap-2 sm:w-auto" role="search">
      <label className="min-w-0 flex-1 text-sm sm:flex-none">
        <span className={LABEL}>{label}</span>
        <input type="search" className="h-10 w-full rounded-xl border border-stone-300 px-3 text-sm sm:w-60" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder={placeholder} />
      </label>
      <Button type="submit" variant="secondary">
        Search
      </Button>
    </form>
  );
}
