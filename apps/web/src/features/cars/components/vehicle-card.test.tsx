import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { carCardOf, type Car } from '@karoo/shared';
import { makeCar } from '@/test/car-fixtures';
import { FavouritesProvider, type FavouritesPort } from './favourites-context';
import { VehicleCard } from './vehicle-card';

function renderCard(full: Car = makeCar(), port?: Partial<FavouritesPort>, onShowOnMap = vi.fn(), instantAllowed = false) {
  const car = carCardOf(full, { instantAllowed });
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
    [500, false, false, []],
    [500, false, true, ['Insured']],
    [1500, true, false, ['Instant']],
    [700, true, true, ['Instant', 'Insured']],
  ])('at R%i (instant booking on and allowed %s, cover included %s) shows the badges %j, whatever the price', (price, instant, coverIncluded, badges) => {
    const plan = makeCar().insurance_options[0]!;
    const instant_booking = { enabled: instant, min_trips: 0, min_rating: null, min_licence_years: null };
    const { card } = renderCard(makeCar({ car_rent_price: price, instant_booking, insurance_options: [{ ...plan, included: coverIncluded }] }), undefined, vi.fn(), true);
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
    expect(onShowOnMap).toHaveBeenCalledWith(carCardOf(car, { instantAllowed: false }));
    await userEvent.click(within(card).getByRole('button', { name: 'Add Toyota Corolla to favourites' }));
    expect(favourites.toggle).toHaveBeenCalledWith({ id: car.id, car_username: car.car_username, name: 'Toyota Corolla' });
  });

  it('shows the first photo only, in the widths the card is drawn at', () => {
    const { card } = renderCard(
      makeCar({
        photos: [
          {
            src: '/uploads/cars/a/side.jpg',
            width: 2560,
            height: 1920,
            variants: [320, 640, 1280, 2560].map((w) => ({
              width: w,
              height: (w * 3) / 4,
              jpeg: w === 2560 ? '/uploads/cars/a/side.jpg' : `/uploads/cars/a/side-w${w}.jpg`,
              webp: `/uploads/cars/a/side-w${w}.webp`,
              avif: `/uploads/cars/a/side-w${w}.avif`,
            })),
          },
        ],
      }),
    );
    const img = within(card).getByRole('img', { name: 'Toyota Corolla' });
    expect(img).toHaveAttribute('src', '/uploads/cars/a/side.jpg');
    expect(img).toHaveAttribute('width', '2560');
    const avif = card.querySelector('source[type="image/avif"]');
    expect(avif?.getAttribute('srcset')).toBe('/uploads/cars/a/side-w320.avif 320w, /uploads/cars/a/side-w640.avif 640w, /uploads/cars/a/side-w1280.avif 1280w, /uploads/cars/a/side-w2560.avif 2560w');
    expect(within(card).queryByRole('button', { name: 'Next photo' })).not.toBeInTheDocument();
  });
});
