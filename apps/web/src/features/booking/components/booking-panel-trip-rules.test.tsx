// The booking panel under a car's trip rules and discounts (decision 048): the calendars grey the
// days the rules refuse and name the rule, the hourly lists mark the times, Book Now tells the
// rule's words, and an 8-day trip shows the weekly discount as a line of the price.
import { DEFAULT_TRIP_RULES, type TripRules } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeCar, settingsAnswer } from '@/test/car-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

// Wednesday 4 March 2026, 10:00 in Johannesburg.
const NOW = new Date('2026-03-04T08:00:00Z');

// A car without pickup locations: every half hour can start a trip (a location's own times would narrow the list; decision 059).
function carWith(rules: Partial<TripRules>) {
  return makeCar({ car_rent_price: 650, trip_rules: { ...DEFAULT_TRIP_RULES, ...rules }, pickup_options: [] });
}

async function openPage(car: ReturnType<typeof makeCar>, query = '') {
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

describe('BookingPanel and the car’s trip rules', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('greys the pickup days inside the notice and the returns under the minimum, names each rule, and prices the weekly discount', async () => {
    signIn(makeUser());
    const { user } = await openPage(carWith({ min_days: 2, advance_notice_hours: 24, weekly_discount_percent: 10 }));
    const hint = screen.getByTestId('trip-rules-hint');
    expect(hint).toHaveTextContent("Minimum 2 days · 1 day's notice");
    expect(hint).toHaveTextContent('10% off weekly trips');
    // The car page says them too.
    expect(screen.getByTestId('car-trip-rules')).toHaveTextContent("Minimum 2 days · 1 day's notice");

    await user.click(screen.getByRole('button', { name: /Pickup date/i }));
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    const day = (date: string) => calendar.querySelector<HTMLButtonElement>(`[data-date="${date}"]`)!;
    // 09:00 tomorrow is 23 hours away; the day after is the first pickup day.
    expect(day('2026-03-05')).toHaveAttribute('data-state', 'refused');
    expect(day('2026-03-05')).toBeDisabled();
    expect(day('2026-03-05')).toHaveAccessibleName("Thursday, 5 March 2026 (This car needs 1 day's notice.)");
    expect(day('2026-03-06')).toBeEnabled();
    await user.click(day('2026-03-06'));

    const returns = await screen.findByRole('dialog', { name: 'Choose return date' });
    const back = (date: string) => returns.querySelector<HTMLButtonElement>(`[data-date="${date}"]`)!;
    expect(back('2026-03-07')).toBeDisabled();
    expect(back('2026-03-07')).toHaveAccessibleName('Saturday, 7 March 2026 (Minimum trip: 2 days.)');
    expect(back('2026-03-08')).toBeEnabled();
    await user.click(back('2026-03-14'));

    const breakdown = screen.getByTestId('price-breakdown');
    // 8 days x R650 = R5 200; 10% off = R520; service fee 10% of R4 680 = R468.
    expect(within(breakdown).getByText('Weekly discount (10%)')).toBeInTheDocument();
    expect(breakdown).toHaveTextContent(/−R\s?520/);
    expect(within(breakdown).getByTestId('price-total')).toHaveTextContent(/R\s?5\s?148/);
  });

  it('Book Now tells the rule dates from the address break, in the server’s words', async () => {
    signIn(makeUser());
    // A one-day trip carried from /cars.
    const { user } = await openPage(carWith({ min_days: 3 }), '?start=2026-03-05&end=2026-03-06');
    await user.click(screen.getByRole('button', { name: 'Book Now' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Trip Too Short');
    expect(toast).toHaveTextContent('Minimum trip: 3 days.');
    expect(screen.queryByRole('dialog', { name: 'Confirm Booking Request' })).not.toBeInTheDocument();
  });

  it('disables Today and Tomorrow with the rule that refuses them (notice, minimum trip)', async () => {
    signIn(makeUser());
    const chip = (name: string) => screen.getByRole('button', { name });
    // 48 hours' notice from Wednesday 10:00: Today and Tomorrow (even at 22:00) are too soon; the weekend is not.
    const notice = await openPage(carWith({ advance_notice_hours: 48 }));
    expect(chip('Today')).toBeDisabled();
    expect(chip('Today')).toHaveAccessibleDescription("This car needs 2 days' notice.");
    expect(chip('Tomorrow')).toBeDisabled();
    expect(chip('Tomorrow')).toHaveAccessibleDescription("This car needs 2 days' notice.");
    expect(chip('This Weekend')).toBeEnabled();
    notice.unmount();

    // Every quick date is a one-day trip: a 2-day minimum refuses them all, each saying so.
    const minimum = await openPage(carWith({ min_days: 2 }));
    for (const name of ['Today', 'Tomorrow', 'This Weekend', 'Next Week']) {
      expect(chip(name)).toBeDisabled();
      expect(chip(name)).toHaveAccessibleDescription('Minimum trip: 2 days.');
    }
    minimum.unmount();

    // Without rules every chip is enabled, as before.
    await openPage(carWith({}));
    for (const name of ['Today', 'Tomorrow', 'This Weekend', 'Next Week']) expect(chip(name)).toBeEnabled();
  });

  it('a quick date under a notice of hours moves the pickup time to the first one that meets it', async () => {
    signIn(makeUser());
    // 3 hours' notice from 10:00: Today is bookable from 13:00 (13:30 on the half-hour lists, the clock runs).
    const { user } = await openPage(carWith({ advance_notice_hours: 3 }));
    expect(screen.getByRole('button', { name: 'Today' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(screen.getByLabelText('Pickup time')).toHaveValue('13:30');
  });

  it('marks the hourly times the notice and the length refuse', async () => {
    signIn(makeUser());
    const { user } = await openPage(carWith({ advance_notice_hours: 3, min_hours: 2 }));
    await user.click(screen.getByRole('button', { name: 'Hourly' }));
    const pickup = screen.getByLabelText('Pickup time');
    // Now is 10:00 (and a few seconds, the clock runs): 12:30 and 13:00 are too soon, 13:30 is not.
    expect(within(pickup).getByRole('option', { name: '12:30 (too soon)' })).toBeInTheDocument();
    expect(within(pickup).getByRole('option', { name: '13:00 (too soon)' })).toBeInTheDocument();
    expect(within(pickup).getByRole('option', { name: '13:30' })).toBeInTheDocument();
    await user.selectOptions(pickup, '13:30');
    const ret = screen.getByLabelText('Return time');
    // Hours are counted up, as the server counts them: 13:30 to 15:00 is a 2-hour trip.
    expect(within(ret).getByRole('option', { name: '14:30 (under 2 hours)' })).toBeInTheDocument();
    expect(within(ret).getByRole('option', { name: '15:00' })).toBeInTheDocument();
    await user.selectOptions(ret, '14:30');
    await waitFor(() => expect(screen.getByTestId('trip-rules-hint')).toHaveTextContent('this car takes hourly trips of 2 to 24 hours'));
  });
});
