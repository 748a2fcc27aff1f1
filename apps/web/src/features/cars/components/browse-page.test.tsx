import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { carCardOf, DEFAULT_SETTINGS, DEFAULT_TRIP_RULES, type Car } from '@karoo/shared';
import { carPage as fullCarPage, makeCar } from '@/test/car-fixtures';
import { fail, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function cars(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => makeCar({ car_make: 'Car', car_model: `Model ${from + i + 1}`, car_rent_price: 300 + (from + i) * 100 }));
}

/** A browse answer as the page asks for it (fields=card, decision 046). */
function carPage(list: Car[], meta: Parameters<typeof fullCarPage>[1]) {
  return fullCarPage(list.map((car) => carCardOf(car, { instantAllowed: false })) as unknown as Car[], meta);
}

function queryOf(url: string) {
  return new URL(url, 'http://localhost').searchParams;
}

describe('BrowsePage', () => {
  it('shows the count and 12 cards, and "Load more vehicles" loads the next page from the server', async () => {
    const first = cars(12);
    const second = cars(2, 12);
    const fetchMock = mockFetch({
      'GET /api/car/getCarList': ({ url }) => (queryOf(url).get('page') === '2' ? carPage(second, { total: 14, page: 2 }) : carPage(first, { total: 14 })),
    });
    const { user } = renderApp({ path: '/cars' });

    expect(await screen.findByText('14 vehicles available')).toBeInTheDocument();
    expect(screen.getAllByTestId('vehicle-card')).toHaveLength(12);
    const firstCall = queryOf(fetchMock.mock.calls[0]![0] as string);
    expect(firstCall.get('limit')).toBe('12');
    expect(firstCall.get('page')).toBe('1');

    await user.click(screen.getByRole('button', { name: 'Load more vehicles' }));
    await waitFor(() => expect(screen.getAllByTestId('vehicle-card')).toHaveLength(14));
    expect(screen.getByRole('heading', { name: 'Car Model 14' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more vehicles' })).not.toBeInTheDocument();
  });

  it('has no Load more button with 12 results or fewer', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(12), { total: 12 }) });
    renderApp({ path: '/cars' });
    expect(await screen.findByText('12 vehicles available')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more vehicles' })).not.toBeInTheDocument();
  });

  it('says "1 000+ vehicles" when the server stops counting, and keeps Load more while it says another page follows', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(12), { total: 1000, total_exact: false, has_more: true }) });
    renderApp({ path: '/cars' });
    expect(await screen.findByText(/^1\s000\+ vehicles available$/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load more vehicles' })).toBeInTheDocument();
  });

  it('shows skeletons while loading', async () => {
    mockFetch({ 'GET /api/car/getCarList': () => new Promise<Response>(() => {}) });
    renderApp({ path: '/cars' });
    expect(await screen.findByText('Loading vehicles')).toBeInTheDocument();
    expect(screen.getAllByTestId('vehicle-card-skeleton').length).toBeGreaterThan(0);
  });

  it('sends the filters from the URL to the server and shows the empty state', async () => {
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': carPage([], { total: 0 }) });
    const { user, router } = renderApp({ path: '/cars?type=SUV&maxPrice=1000&transmission=Manual&q=polo' });

    expect(await screen.findByRole('heading', { name: 'No vehicles found' })).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search criteria or filters to find more vehicles.')).toBeInTheDocument();
    const query = queryOf(fetchMock.mock.calls[0]![0] as string);
    expect(query.get('type')).toBe('SUV');
    expect(query.get('maxPrice')).toBe('1000');
    expect(query.get('transmission')).toBe('Manual');
    expect(query.get('search')).toBe('polo');
    expect(query.get('startDate')).toBeNull();
    expect(query.get('endDate')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Clear all filters' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('sets no date window by itself: /cars counts what the landing page counts, and a window is sent only once the renter picks dates', async () => {
    // A server where one car is booked tomorrow: any window that covers it hides that car.
    const answer = ({ url }: { url: string }) => {
      const query = queryOf(url);
      const total = query.get('startDate') ? 13 : 14;
      return carPage(cars(Math.min(total, Number(query.get('limit') ?? 12))), { total, limit: Number(query.get('limit') ?? 12) });
    };
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': answer, 'GET /api/review/getStats': ok({ average: 0, count: 0, by_rating: {} }) });
    const home = renderApp({ path: '/' });
    expect(await within(await screen.findByTestId('vehicle-count')).findByText('14')).toBeInTheDocument();
    home.unmount();

    const { user, router } = renderApp({ path: '/cars' });
    expect(await screen.findByText('14 vehicles available')).toBeInTheDocument();
    for (const [url] of fetchMock.mock.calls) {
      expect(queryOf(url as string).get('startDate')).toBeNull();
      expect(queryOf(url as string).get('endDate')).toBeNull();
    }

    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    expect(within(panel).getByLabelText('Pickup date')).toHaveValue('');
    const start = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    fireEvent.change(within(panel).getByLabelText('Pickup date'), { target: { value: start } });
    await waitFor(() => expect(router.state.location.search).toContain(`start=${start}`));
    expect(await screen.findByText('13 vehicles available', {}, { timeout: 5000 })).toBeInTheDocument();
    const windowed = queryOf(fetchMock.mock.calls.at(-1)![0] as string);
    expect(windowed.get('startDate')).toBe(start);
    expect(windowed.get('endDate')).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    await user.click(within(panel).getByRole('button', { name: 'Clear dates' }));
    expect(await screen.findByText('14 vehicles available')).toBeInTheDocument();
    expect(router.state.location.search).not.toContain('start=');
  });

  it('keeps both of two filter changes made before the first has landed (a type, then a price)', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(3), { total: 3 }) });
    const { user, router } = renderApp({ path: '/cars' });
    expect(await screen.findByText('3 vehicles available')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    // In the same task: the type's navigation has not landed when the price is moved.
    fireEvent.click(within(panel).getByRole('button', { name: 'SUV' }));
    fireEvent.change(within(panel).getByLabelText('Maximum price'), { target: { value: '1000' } });
    await waitFor(() => expect(router.state.location.search).toContain('maxPrice=1000'));
    expect(router.state.location.search).toContain('type=SUV');
  });

  it('a filter chip updates the URL and the query', async () => {
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': carPage(cars(2), { total: 2 }) });
    const { user, router } = renderApp({ path: '/cars' });
    await screen.findByText('2 vehicles available');

    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    await user.click(within(panel).getByRole('button', { name: 'Hatchback' }));
    await waitFor(() => expect(router.state.location.search).toContain('type=Hatchback'));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => queryOf(url as string).get('type') === 'Hatchback')).toBe(true));
    expect(within(panel).getByRole('button', { name: 'Hatchback' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows the error state with Try Again', async () => {
    let calls = 0;
    mockFetch({
      'GET /api/car/getCarList': () => {
        calls += 1;
        return calls === 1 ? fail(500, 'Database unavailable') : carPage(cars(1), { total: 1 });
      },
    });
    const { user } = renderApp({ path: '/cars' });
    expect(await screen.findByRole('heading', { name: 'Unable to load vehicles' })).toBeInTheDocument();
    expect(screen.getByText('There was an error loading the vehicle listings. Please try again later.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('1 vehicle available')).toBeInTheDocument();
  });

  it('switches between grid and list in the URL', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(1), { total: 1 }) });
    const { user, router } = renderApp({ path: '/cars' });
    await screen.findByText('1 vehicle available');
    await user.click(screen.getByRole('button', { name: 'List view' }));
    await waitFor(() => expect(router.state.location.search).toBe('?view=list'));
    // The router's state changes first; the page follows in a transition.
    await waitFor(() => expect(screen.queryByRole('button', { name: /show map/i })).not.toBeInTheDocument());
  });

  it('the Favourites chip shows the saved cars, read one by one', async () => {
    const saved = makeCar({ car_make: 'Mazda', car_model: 'CX-5' });
    mockFetch({
      'GET /api/car/getCarList': carPage(cars(3), { total: 3 }),
      [`GET /api/car/getCarDetails/${saved.car_username}`]: ok(saved),
    });
    const { user } = renderApp({ path: '/cars' });
    await screen.findByText('3 vehicles available');

    // Save a car from its card, then show favourites only.
    const card = screen.getAllByTestId('vehicle-card')[0]!;
    await user.click(within(card).getByRole('button', { name: /add .* to favourites/i }));
    expect(within(card).getByRole('button', { name: /remove .* from favourites/i })).toHaveAttribute('aria-pressed', 'true');
    window.localStorage.setItem('karoo.favourites', JSON.stringify([{ id: saved.id, car_username: saved.car_username, name: 'Mazda CX-5', dateAdded: '2026-01-01T00:00:00.000Z' }]));
    window.dispatchEvent(new StorageEvent('storage', { key: 'karoo.favourites' }));

    await user.click(screen.getByRole('button', { name: 'Favourites' }));
    expect(await screen.findByRole('heading', { name: 'Mazda CX-5' })).toBeInTheDocument();
    expect(screen.getByText('1 vehicle saved')).toBeInTheDocument();
  });
});

describe('BrowsePage: sort by distance without the renter\u2019s position', () => {
  const original = Object.getOwnPropertyDescriptor(navigator, 'geolocation');
  afterEach(() => {
    if (original) Object.defineProperty(navigator, 'geolocation', original);
    else delete (navigator as { geolocation?: unknown }).geolocation;
  });
  function denyGeolocation() {
    const getCurrentPosition = vi.fn((_ok: PositionCallback, refuse?: PositionErrorCallback | null) => refuse?.({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError));
    Object.defineProperty(navigator, 'geolocation', { configurable: true, value: { getCurrentPosition } });
    return getCurrentPosition;
  }

  it('says so in the page (no alert), keeps Distance in the URL and sorts from a chosen base city', async () => {
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    const ask = denyGeolocation();
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': carPage(cars(3), { total: 3 }) });
    const { user, router } = renderApp({ path: '/cars' });
    await screen.findByText('3 vehicles available');

    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    await user.selectOptions(screen.getByLabelText('Sort by'), 'DISTANCE');
    expect(ask).toHaveBeenCalled();
    const status = await screen.findByText(/Your browser did not share your location\. To sort by distance, choose a city to measure from\./);
    expect(status.closest('[role="status"]')).not.toBeNull();
    expect(alert).not.toHaveBeenCalled();
    // The choice stays: the URL and the select still say Distance, not Relevance.
    expect(router.state.location.search).toBe('?sort=DISTANCE');
    expect(screen.getByLabelText('Sort by')).toHaveValue('DISTANCE');

    const region = screen.getByRole('region', { name: 'Sort by distance' });
    const cities = within(region).getByLabelText('Sort from a city');
    expect(within(cities).getAllByRole('option')).toHaveLength(15); // "Choose a city" and the 14 base cities
    await user.selectOptions(cities, 'Cape Town');
    await waitFor(() => expect(router.state.location.search).toBe('?near=Cape+Town&sort=DISTANCE'));
    await waitFor(() => {
      const query = queryOf(String(fetchMock.mock.calls.at(-1)![0]));
      expect([query.get('sort'), query.get('lat'), query.get('lng')]).toEqual(['DISTANCE', '-33.9249', '18.4241']);
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Sort by distance' })).not.toBeInTheDocument());
    expect(screen.getByText('Distance from Cape Town')).toBeInTheDocument();
    expect(screen.getByTestId('vehicle-count')).toHaveTextContent('3 vehicles available, nearest to Cape Town first');
  });

  it('a shared link with sort=DISTANCE and no position offers the cities too, and Sort by relevance goes back', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(2), { total: 2 }) });
    const { user, router } = renderApp({ path: '/cars?sort=DISTANCE' });
    const region = await screen.findByRole('region', { name: 'Sort by distance' });
    expect(within(region).getByRole('status')).toHaveTextContent('To sort by distance, choose a city to measure from.');
    await user.click(within(region).getByRole('button', { name: 'Sort by relevance' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Sort by distance' })).not.toBeInTheDocument());
  });
});

describe('BrowsePage with searched dates (decision 060)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("each card says the trip's total for the dates, with the car's discount, and its links carry the dates", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-04T08:00:00Z'));
    const plain = makeCar({ car_make: 'Volkswagen', car_model: 'Polo', car_rent_price: 350 });
    const weekly = makeCar({ car_make: 'Toyota', car_model: 'Hilux', car_rent_price: 400, trip_rules: { ...DEFAULT_TRIP_RULES, weekly_discount_percent: 10 } });
    mockFetch({ 'GET /api/car/getCarList': carPage([plain, weekly], { total: 2 }), 'GET /api/settings': ok({ ...DEFAULT_SETTINGS, platformCommission: 10 }) });
    renderApp({ path: '/cars?start=2026-03-10&end=2026-03-17&pickupTime=12:00' });
    const card = async (name: string) => (await screen.findByRole('article', { name })) as HTMLElement;
    // 7 x R350 = R2 450 + 10% fee R245; 7 x R400 = R2 800 - 10% = R2 520 + fee R252.
    await waitFor(async () => expect(within(await card('Volkswagen Polo')).getByTestId('card-trip-total')).toHaveTextContent(/^R\s2\s695 for 7 days$/));
    expect(within(await card('Toyota Hilux')).getByTestId('card-trip-total')).toHaveTextContent(/^R\s2\s772 for 7 days$/);
    const link = within(await card('Volkswagen Polo')).getByRole('link', { name: 'Book Volkswagen Polo' });
    expect(link).toHaveAttribute('href', `/cars/${plain.car_username}?start=2026-03-10&end=2026-03-17&pickupTime=12%3A00&returnTime=10%3A00`);
  });

  it('without dates a card shows its price a day only, and asks for no settings', async () => {
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': carPage(cars(2), { total: 2 }) });
    renderApp({ path: '/cars' });
    expect(await screen.findByText('2 vehicles available')).toBeInTheDocument();
    expect(screen.queryByTestId('card-trip-total')).not.toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: /^Book / })[0]!.getAttribute('href')).not.toContain('?');
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/settings'))).toBe(false);
  });
});

describe("BrowsePage's List / Map toggle (phones)", () => {
  it('puts map=1 in the URL as a new history entry, so Back returns to the list', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage(cars(2), { total: 2 }), 'GET /api/car/map': ok({ clusters: [], cars: [], total: 2, capped: false }) });
    const { user, router } = renderApp({ path: '/cars?type=SUV' });
    const toggle = await screen.findByRole('group', { name: 'Show results as' });
    expect(within(toggle).getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(toggle).getByRole('button', { name: 'Map' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('map')).toBe('1'));
    expect(router.state.historyAction).toBe('PUSH');
    expect(new URLSearchParams(router.state.location.search).get('type')).toBe('SUV');
    await waitFor(() => expect(within(toggle).getByRole('button', { name: 'Map' })).toHaveAttribute('aria-pressed', 'true'));
    expect(screen.getByTestId('results-map')).toBeInTheDocument();
    await router.navigate(-1);
    await waitFor(() => expect(within(toggle).getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true'));
    expect(router.state.location.search).toBe('?type=SUV');
    expect(screen.queryByTestId('results-map')).not.toBeInTheDocument();
  });
});
