// The browse map shows every matching car of its view from GET /api/car/map (issue 22, decision
// 046): clusters that zoom in when clicked, single cars as price markers that open their card, and
// "Search as I move the map". react-leaflet is replaced by stand-ins: markers are buttons, the map
// an object that records where it was sent.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { mockFetch, ok } from '@/test/fixtures';
import { FavouritesProvider, type FavouritesPort } from '../favourites-context';

const fakeMap = {
  bounds: { west: 16, south: -35, east: 33, north: -22 },
  zoom: 5,
  getBounds() {
    const b = this.bounds;
    return { getWest: () => b.west, getSouth: () => b.south, getEast: () => b.east, getNorth: () => b.north };
  },
  getZoom() {
    return this.zoom;
  },
  flyTo: vi.fn(),
  setView: vi.fn(),
};

vi.mock('react-leaflet', () => ({
  MapContainer: ({ children, ref }: { children: ReactNode; ref?: (map: unknown) => void }) => {
    useEffect(() => ref?.(fakeMap), [ref]);
    return <div data-testid="leaflet">{children}</div>;
  },
  TileLayer: () => null,
  CircleMarker: () => null,
  Marker: ({ title, eventHandlers }: { title: string; eventHandlers?: { click?: () => void } }) => (
    <button type="button" onClick={() => eventHandlers?.click?.()}>
      {title}
    </button>
  ),
  useMapEvents: () => fakeMap,
}));

const { default: CarMap } = await import('./car-map');

const answer = {
  clusters: [{ cluster_id: 7, latitude: -26.1, longitude: 28.05, count: 412, expansion_zoom: 8 }],
  cars: [{ id: 'car-1', title: 'Toyota Corolla', price_per_day: 650, latitude: -33.92, longitude: 18.42 }],
  total: 413,
  capped: false,
  zoom: 5,
};

function renderMap(props: Partial<Parameters<typeof CarMap>[0]> = {}) {
  const favourites: FavouritesPort = { items: [], isFavourite: () => false, toggle: vi.fn() };
  const car = makeCar({ id: 'car-1', car_make: 'Toyota', car_model: 'Corolla', car_rent_price: 650 });
  const fetchMock = mockFetch({ 'GET /api/car/map': ok(answer), 'GET /api/car/getCarDetails/car-1': ok(car) });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <FavouritesProvider value={favourites}>
          <CarMap params={{ type: 'SUV', sort: 'PRICE_LOW' }} {...props} />
        </FavouritesProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('the browse map', () => {
  beforeEach(() => {
    fakeMap.flyTo.mockClear();
  });

  it('asks for the view with the list\u2019s filters and draws its clusters and cars', async () => {
    const fetchMock = renderMap();
    expect(await screen.findByRole('button', { name: '412 cars here: zoom in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Toyota Corolla: R\s?650 per day/ })).toBeInTheDocument();
    expect(screen.getByTestId('map-count')).toHaveTextContent('413 cars in this part of the map');
    const query = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost').searchParams;
    expect(Object.fromEntries(query)).toEqual({ type: 'SUV', bbox: '16,-35,33,-22', zoom: '5' });
  });

  it('zooms into a cluster when it is clicked, and opens a car\u2019s card from its marker', async () => {
    renderMap();
    await userEvent.click(await screen.findByRole('button', { name: '412 cars here: zoom in' }));
    expect(fakeMap.flyTo).toHaveBeenCalledWith([-26.1, 28.05], 8);
    await userEvent.click(screen.getByRole('button', { name: /Toyota Corolla: R\s?650 per day/ }));
    const panel = await screen.findByRole('region', { name: 'Toyota Corolla details' });
    expect(panel).toHaveTextContent('Book Now');
  });

  it('"Search as I move the map" hands the view to the list, and off again', async () => {
    const onSearchAreaChange = vi.fn();
    renderMap({ onSearchAreaChange });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Search as I move the map' }));
    expect(onSearchAreaChange).toHaveBeenLastCalledWith('16,-35,33,-22');
  });

  it('with the search on, a move hands the new view to the list', async () => {
    const onSearchAreaChange = vi.fn();
    fakeMap.bounds = { west: 18, south: -34.5, east: 19, north: -33.5 };
    renderMap({ onSearchAreaChange, searchArea: '16,-35,33,-22' });
    expect(screen.getByRole('checkbox', { name: 'Search as I move the map' })).toBeChecked();
    await waitFor(() => expect(onSearchAreaChange).toHaveBeenLastCalledWith('18,-34.5,19,-33.5'));
    fakeMap.bounds = { west: 16, south: -35, east: 33, north: -22 };
  });
});
