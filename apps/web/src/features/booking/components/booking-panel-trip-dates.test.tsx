// The booking panel starts with the trip its address names (the dates chosen on /cars, carried by
// the card's link; decision 060) and keeps the address on the chosen trip, replacing its history
// entry rather than adding one per click.
import type { Car } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeCar, settingsAnswer } from '@/test/car-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

// Wednesday 4 March 2026, 10:00 in Johannesburg.
const NOW = new Date('2026-03-04T08:00:00Z');

/** A pickup location that hands over at any time (its listed times would bind the pickup, decision 059). */
const ANY_TIME_PICKUP: Car['pickup_options'][number] = { id: 'pickup_home', name: "Host's home", address: '1 Main Rd', additional_fee: 0, type: 'standard', available_times: [] };

async function openPage(query: string, pickup_options: Car['pickup_options'] = [ANY_TIME_PICKUP]) {
  const car = makeCar({ car_rent_price: 650, pickup_options });
  mockFetch({
    [`GET /api/car/getCarDetails/${car.car_username}`]: ok(car),
    [`GET /api/car/${car.car_username}/availability`]: ok([]),
    'GET /api/settings': ok(settingsAnswer),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
  });
  const view = renderApp({ path: `/cars/${car.car_username}${query}` });
  await screen.findByRole('heading', { level: 1, name: /Toyota Corolla/ });
  return view;
}

const search = (router: ReturnType<typeof renderApp>['router']) => Object.fromEntries(new URLSearchParams(router.state.location.search));

describe('BookingPanel and the trip in the address', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(NOW);
    signIn(makeUser());
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts with the dates and times chosen on /cars, priced', async () => {
    const { router } = await openPage('?start=2026-03-10&end=2026-03-13&pickupTime=10:00&returnTime=10:00');
    expect(screen.getByRole('button', { name: /Pickup date/ })).toHaveTextContent('Tue, 10 Mar');
    expect(screen.getByRole('button', { name: /Return date/ })).toHaveTextContent('Fri, 13 Mar');
    expect(screen.getByLabelText('Pickup time')).toHaveValue('10:00');
    expect(screen.getByLabelText('Return time')).toHaveValue('10:00');
    expect(screen.getByRole('button', { name: 'Daily' })).toHaveAttribute('aria-pressed', 'true');
    // 3 days x R650 = R1 950; service fee 10% = R195.
    expect(within(await screen.findByTestId('price-breakdown')).getByTestId('price-total')).toHaveTextContent(/R\s?2\s?145/);
    // Nothing to write back: the address already says this trip.
    expect(router.state.historyAction).toBe('POP');
  });

  it('an hourly trip keeps its mode and times', async () => {
    await openPage('?start=2026-03-05&end=2026-03-05&pickupTime=11:00&returnTime=14:00&mode=hourly');
    expect(screen.getByRole('button', { name: 'Hourly' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByLabelText('Pickup time')).toHaveValue('11:00');
    expect(screen.getByLabelText('Return time')).toHaveValue('14:00');
    // 3 hours x R65 = R195; service fee R20 (R19.50 rounded half up).
    expect(within(await screen.findByTestId('price-breakdown')).getByTestId('price-total')).toHaveTextContent(/R\s?215/);
  });

  it('a pickup time the first pickup location does not list becomes one it does (decision 059)', async () => {
    await openPage('?start=2026-03-10&end=2026-03-13&pickupTime=10:00&returnTime=10:00', makeCar().pickup_options);
    // Host's home hands over at 09:00, 13:00, 17:00 or 19:00: the address's 10:00 becomes 09:00.
    expect(screen.getByLabelText('Pickup time')).toHaveValue('09:00');
    expect(screen.getByRole('button', { name: /Pickup date/ })).toHaveTextContent('Tue, 10 Mar');
  });

  it('a changed trip replaces the address (no history entry per click); a past or broken trip is dropped', async () => {
    const { router, user } = await openPage('?start=2026-03-01&end=2026-03-03&ref=mail');
    // The past dates are not the panel's, and leave the address; other params stay.
    expect(screen.getByRole('button', { name: /Pickup date/ })).toHaveTextContent('Add date');
    await waitFor(() => expect(search(router)).toEqual({ ref: 'mail' }));
    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    await waitFor(() => expect(search(router)).toEqual({ ref: 'mail', start: '2026-03-05', end: '2026-03-06', pickupTime: '09:00', returnTime: '17:00' }));
    expect(router.state.historyAction).toBe('REPLACE');
    await user.selectOptions(screen.getByLabelText('Pickup time'), '12:00');
    await waitFor(() => expect(search(router).pickupTime).toBe('12:00'));
    expect(router.state.historyAction).toBe('REPLACE');
    await user.click(screen.getByRole('button', { name: 'Hourly' }));
    await waitFor(() => expect(search(router)).toMatchObject({ start: '2026-03-04', end: '2026-03-04', mode: 'hourly' }));
  });
});
