// The server-paged list table: its view (search, filters, sort, page) is the URL's, so changing a
// filter, the page, the search or the sort writes the search parameters (a new query starts at
// page 1, other parameters stay), and a reload at that URL shows the same view and asks the server
// for the same page. A value the list does not offer is ignored. The two layouts, the states before
// and without rows, and the sort by header (table) or menu (cards).
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Apple } from 'lucide-react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DataTable, type DataTableLayout } from './data-table';
import { listColumnHelper } from './list-columns';
import { useListSearchParams, type ListView } from './use-list-search-params';

interface Fruit {
  id: string;
  name: string;
  colour: 'red' | 'green' | 'yellow';
}

const FRUIT: Fruit[] = ['apple:red', 'banana:yellow', 'cherry:red', 'fig:green', 'grape:green', 'lemon:yellow', 'lime:green'].map((entry) => {
  const [name, colour] = entry.split(':') as [string, Fruit['colour']];
  return { id: name, name, colour };
});
const COLOURS = ['red', 'green', 'yellow'] as const;

const column = listColumnHelper<Fruit>();
const COLUMNS = [
  column.accessor('name', { id: 'name', header: 'Name', enableSorting: true, meta: { card: 'title', sortLabels: { asc: 'Name: A to Z', desc: 'Name: Z to A' } }, cell: ({ row }) => row.original.name }),
  column.accessor('colour', {
    id: 'colour',
    header: 'Colour',
    meta: { cardLabel: 'Colour', filter: { label: 'Colour', allLabel: 'All colours', options: COLOURS.map((value) => ({ value, label: value.toUpperCase() })) } },
    cell: ({ row }) => row.original.colour,
  }),
];

interface Request {
  search?: string;
  colour?: Fruit['colour'];
  sort?: { by: 'name'; order: 'asc' | 'desc' };
  page: number;
}

/** What the server would answer: the matching fruit, sorted, one page of two. */
function serve(request: Request) {
  let rows = FRUIT.filter((fruit) => (!request.search || fruit.name.includes(request.search)) && (!request.colour || fruit.colour === request.colour));
  if (request.sort) rows = [...rows].sort((a, b) => a.name.localeCompare(b.name) * (request.sort!.order === 'desc' ? -1 : 1));
  return { rows: rows.slice((request.page - 1) * 2, request.page * 2), total: rows.length };
}

function FruitList({ requests, layout, isLoading }: { requests: Request[]; layout: DataTableLayout; isLoading?: boolean }) {
  const view: ListView = useListSearchParams(COLUMNS, { pageSize: 2 });
  const request: Request = { search: view.search, colour: view.filter('colour', COLOURS), sort: view.sortBy(['name'] as const), page: view.page };
  requests.push(request);
  const answer = isLoading ? undefined : serve(request);
  return (
    <DataTable
      title="Fruit"
      icon={Apple}
      description="Every fruit in the bowl."
      columns={COLUMNS}
      list={view}
      rows={answer?.rows}
      total={answer?.total}
      query={{ isError: false, error: null, refetch: () => undefined }}
      what="the fruit"
      noun={['fruit', 'fruits']}
      empty="No fruit matches."
      search={{ label: 'Search fruit', placeholder: 'Name' }}
      defaultSortLabel="As picked"
      layout={layout}
      regionLabel="Fruit"
      rowTestId="fruit-row"
    />
  );
}

function renderList(url: string, options: { layout?: DataTableLayout; isLoading?: boolean } = {}) {
  const requests: Request[] = [];
  const router = createMemoryRouter([{ path: '/list', element: <FruitList requests={requests} layout={options.layout ?? { kind: 'scroll', minWidth: 'min-w-[400px]' }} isLoading={options.isLoading} /> }], {
    initialEntries: [url],
  });
  const view = render(<RouterProvider router={router} />);
  const names = () => screen.queryAllByTestId('fruit-row').map((row) => within(row).getAllByRole('cell')[0]!.textContent);
  return { ...view, router, requests, names, user: userEvent.setup(), search: () => router.state.location.search };
}

describe('DataTable', () => {
  it('writes a filter, the page, the search and the sort to the URL, keeping the other parameters; a new query starts at page 1', async () => {
    const { router, requests, names, user, search } = renderList('/list?tab=fruit');
    expect(names()).toEqual(['apple', 'banana']);
    expect(screen.getByText('7 fruits · page 1 of 4')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(search()).toBe('?tab=fruit&page=2'));
    expect(names()).toEqual(['cherry', 'fig']);

    await user.selectOptions(screen.getByLabelText('Colour'), 'green');
    await waitFor(() => expect(search()).toBe('?tab=fruit&colour=green'));
    expect(names()).toEqual(['fig', 'grape']);
    expect(requests.at(-1)).toEqual({ search: undefined, colour: 'green', sort: undefined, page: 1 });

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(search()).toBe('?tab=fruit&colour=green&page=2'));
    await user.type(screen.getByLabelText('Search fruit'), ' li ');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(search()).toBe('?tab=fruit&colour=green&q=li'));
    expect(names()).toEqual(['lime']);
    expect(screen.getByText('1 fruit · page 1 of 1')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Colour'), '');
    await waitFor(() => expect(search()).toBe('?tab=fruit&q=li'));
    expect(router.state.location.pathname).toBe('/list');
  });

  it('shows the same view after a reload, and asks the server for the same page', async () => {
    const first = renderList('/list?colour=green&sort=name&order=desc&page=2&q=');
    expect(first.names()).toEqual(['fig']);
    const url = first.router.state.location.pathname + first.router.state.location.search;
    first.unmount();

    // A reload: the same URL, a new page.
    const reloaded = renderList(url);
    expect(reloaded.requests[0]).toEqual({ search: undefined, colour: 'green', sort: { by: 'name', order: 'desc' }, page: 2 });
    expect(reloaded.names()).toEqual(['fig']);
    expect(screen.getByLabelText('Colour')).toHaveValue('green');
    expect(screen.getByText('3 fruits · page 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');

    await reloaded.user.type(screen.getByLabelText('Search fruit'), 'gr');
    await reloaded.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(reloaded.search()).toBe('?colour=green&sort=name&order=desc&q=gr'));
    reloaded.unmount();
    const again = renderList(`/list${reloaded.search()}`);
    expect(screen.getByLabelText('Search fruit')).toHaveValue('gr');
    expect(again.names()).toEqual(['grape']);
  });

  it('ignores what the list does not offer: an unknown filter value, an unsortable column, a page that is not a page', () => {
    const { requests } = renderList('/list?colour=purple&sort=colour&page=-3');
    expect(requests[0]).toEqual({ search: undefined, colour: undefined, sort: undefined, page: 1 });
    expect(screen.getByLabelText('Colour')).toHaveValue('');
  });

  it('keeps both of two changes made before the page draws again', async () => {
    const { search, user } = renderList('/list');
    await user.type(screen.getByLabelText('Search fruit'), 'e');
    act(() => {
      fireEvent.submit(screen.getByRole('search'));
      fireEvent.change(screen.getByLabelText('Colour'), { target: { value: 'red' } });
    });
    await waitFor(() => expect(search()).toBe('?q=e&colour=red'));
  });

  it('sorts by a header button in a table: up, down, then the server\'s own order', async () => {
    const { names, search, user } = renderList('/list');
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).not.toHaveAttribute('aria-sort');
    await user.click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(search()).toBe('?sort=name&order=asc'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(search()).toBe('?sort=name&order=desc'));
    expect(names()).toEqual(['lime', 'lemon']);
    await user.click(within(header).getByRole('button', { name: 'Name' }));
    await waitFor(() => expect(search()).toBe(''));
    // A column the server does not sort by is only a name, and a table has no sort menu.
    expect(within(screen.getByRole('columnheader', { name: 'Colour' })).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Sort by')).not.toBeInTheDocument();
  });

  it('sorts from the Sort by menu in the cards layout (its header buttons show from 1280 px), and names each fact on its card', async () => {
    const { names, search, user } = renderList('/list', { layout: { kind: 'cards' } });
    // The menu is for the cards (hidden from xl); the header's button only from xl (hidden below).
    expect(screen.getByLabelText('Sort by').closest('label')).toHaveClass('xl:hidden');
    expect(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button', { name: 'Name' })).toHaveClass('hidden', 'xl:inline-flex');
    const menu = screen.getByLabelText('Sort by');
    expect([...(menu as HTMLSelectElement).options].map((option) => option.text)).toEqual(['As picked', 'Name: A to Z', 'Name: Z to A']);
    await user.selectOptions(menu, 'name:desc');
    await waitFor(() => expect(search()).toBe('?sort=name&order=desc'));
    expect(names()).toEqual(['lime', 'lemon']);
    const card = screen.getAllByTestId('fruit-row')[0]!;
    expect(within(card).getByText('Colour')).toBeInTheDocument();
  });

  it('shows a loading state before the first answer, and says so when nothing matches', async () => {
    const loading = renderList('/list', { isLoading: true });
    expect(screen.getByRole('status', { name: 'Loading the fruit' })).toBeInTheDocument();
    expect(screen.getByText('0 fruits · page 1 of 1')).toBeInTheDocument();
    loading.unmount();
    renderList('/list?q=kiwi');
    expect(screen.getByText('No fruit matches.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
