import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { FavouritesProvider, type FavouritesPort } from './favourites-context';
import { VehicleCard } from './vehicle-card';

function renderCard(car = makeCar(), port?: Partial<FavouritesPort>, onShowOnMap = vi.fn()) {
  const favourites: FavouritesPort = { items: [], isFavourite: () => false, toggle: vi.fn(), ...port };
  render(
    <MemoryRouter>
      <FavouritesProvider value={favourites}>
        <VehicleCard car={car} onShowOnMap={onShowOnMap} />
      </FavouritesProvider>
    </MemoryRouter>,
  );
  return { favourites, onShowOnMap, card: screen.getByRole('article') };
}

describe('VehicleCard', () => {
  it('shows name, location, "New" for a car without reviews (never 4.5), the price per day and 3 chips', () => {
    const { card } = renderCard(makeCar({ car_rent_price: 650, rating: null, totalReviews: 0 }));
    expect(within(card).getByRole('heading', { name: 'Toyota Corolla' })).toBeInTheDocument();
    expect(within(card).getByText(/Johannesburg/)).toBeInTheDocument();
    expect(within(card).getByLabelText('New: no reviews yet')).toHaveTextContent('New');
    expect(within(card).queryByText('4.5')).not.toBeInTheDocument();
    expect(within(card).queryByLabelText(/^Rated/)).not.toBeInTheDocument();
    expect(within(card).getByTestId('car-price').textContent?.replace(/\s/g, ' ')).toBe('R 650');
    expect(within(card).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Automatic', 'Petrol', '5 seats']);
  });

  it('shows a reviewed car\u2019s own rating to one decimal with its review count', () => {
    const { card } = renderCard(makeCar({ rating: 4.67, totalReviews: 3 }));
    expect(within(card).getByLabelText('Rated 4.7 out of 5')).toHaveTextContent('4.7(3)');
  });

  it.each([
    [500, ['Instant']],
    [700, ['Instant', 'Insured']],
    [900, ['Insured']],
    [1500, ['Premium', 'Insured']],
  ])('at R%i shows the badges %j', (price, badges) => {
    const { card } = renderCard(makeCar({ car_rent_price: price }));
    for (const badge of ['Premium', 'Instant', 'Insured']) {
      if (badges.includes(badge)) expect(within(card).getByText(badge)).toBeInTheDocument();
      else expect(within(card).queryByText(badge)).not.toBeInTheDocument();
    }
  });

  it('Book links to /cars/{car_username}; Map and the heart call back', async () => {
    const car = makeCar();
    const { card, favourites, onShowOnMap } = renderCard(car);
    expect(within(card).getByRole('link', { name: 'Book Toyota Corolla' })).toHaveAttribute('href', `/cars/${car.car_username}`);
    await userEvent.click(within(card).getByRole('button', { name: 'Show Toyota Corolla on the map' }));
    expect(onShowOnMap).toHaveBeenCalledWith(car);
    await userEvent.click(within(card).getByRole('button', { name: 'Add Toyota Corolla to favourites' }));
    expect(favourites.toggle).toHaveBeenCalledWith({ id: car.id, car_username: car.car_username, name: 'Toyota Corolla' });
  });

  it('pages through the photos', async () => {
    const { card } = renderCard();
    expect(within(card).getByRole('img', { name: 'Toyota Corolla, photo 1 of 2' })).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: 'Next photo' }));
    expect(within(card).getByRole('img', { name: 'Toyota Corolla, photo 2 of 2' })).toBeInTheDocument();
  });
});
