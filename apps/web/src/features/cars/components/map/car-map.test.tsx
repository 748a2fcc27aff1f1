import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { carCardOf } from '@karoo/shared';
import { makeCar } from '@/test/car-fixtures';
import { FavouritesProvider, type FavouritesPort } from '../favourites-context';
import { MapCarPanel } from './car-map';

function renderPanel(car = makeCar()) {
  const favourites: FavouritesPort = { items: [], isFavourite: () => false, toggle: vi.fn() };
  render(
    <MemoryRouter>
      <FavouritesProvider value={favourites}>
        <MapCarPanel car={carCardOf(car, { instantAllowed: false })} onClose={vi.fn()} />
      </FavouritesProvider>
    </MemoryRouter>,
  );
}

describe('the map\u2019s car panel', () => {
  it('says "New" for a car without reviews', () => {
    renderPanel(makeCar({ rating: null, totalReviews: 0 }));
    expect(screen.getByTestId('map-car-rating')).toHaveTextContent(/^New$/);
  });

  it('shows a reviewed car\u2019s rating to one decimal with its count', () => {
    renderPanel(makeCar({ rating: 4.25, totalReviews: 4 }));
    expect(screen.getByTestId('map-car-rating')).toHaveTextContent('4.3(4)');
  });
});
