// The map without tiles (offline, a bad connection): a plain message on the map instead of a grey
// square. react-leaflet is replaced by stand-ins whose tile layer reports what the test tells it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '@/test/fixtures';
import { FavouritesProvider, type FavouritesPort } from '../favourites-context';

type TileHandlers = { tileload?: () => void; tileerror?: () => void };
const layers: TileHandlers[] = [];

vi.mock('react-leaflet', () => ({
  MapContainer: ({ children }: { children: ReactNode }) => <div data-testid="leaflet">{children}</div>,
  TileLayer: ({ eventHandlers }: { eventHandlers?: TileHandlers }) => {
    useEffect(() => {
      layers.push(eventHandlers ?? {});
    }, [eventHandlers]);
    return null;
  },
  Marker: () => null,
  CircleMarker: () => null,
  useMapEvents: () => fakeMap,
}));
const fakeMap = { getBounds: () => ({ getWest: () => 16, getSouth: () => -35, getEast: () => 33, getNorth: () => -22 }), getZoom: () => 5 };

const { default: CarMap, TILES_UNAVAILABLE_MESSAGE } = await import('./car-map');

function renderMap() {
  const favourites: FavouritesPort = { items: [], isFavourite: () => false, toggle: vi.fn() };
  mockFetch({ 'GET /api/car/map': ok({ clusters: [], cars: [{ id: 'a', title: 'Toyota Corolla', price_per_day: 650, latitude: -33.92, longitude: 18.42 }], total: 1, capped: false, zoom: 5 }) });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>
        <FavouritesProvider value={favourites}>
          <CarMap params={{}} />
        </FavouritesProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const current = () => layers[layers.length - 1]!;

describe('the map without tiles', () => {
  beforeEach(() => {
    layers.length = 0;
  });

  it('says so in plain words when no tile can load', () => {
    renderMap();
    expect(screen.queryByText(TILES_UNAVAILABLE_MESSAGE)).not.toBeInTheDocument();
    act(() => {
      current().tileerror?.();
      current().tileerror?.();
    });
    expect(screen.getByRole('status')).toHaveTextContent("Map tiles can't load right now. Cars are still listed by city.");
  });

  it('shows nothing while tiles load, and clears the message once one does', () => {
    renderMap();
    act(() => current().tileload?.());
    act(() => current().tileerror?.());
    expect(screen.queryByTestId('map-tiles-unavailable')).not.toBeInTheDocument();
  });

  it('clears the message when tiles come back', () => {
    renderMap();
    act(() => current().tileerror?.());
    expect(screen.getByTestId('map-tiles-unavailable')).toBeInTheDocument();
    act(() => current().tileload?.());
    expect(screen.queryByTestId('map-tiles-unavailable')).not.toBeInTheDocument();
  });
});
