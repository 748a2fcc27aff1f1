import { calculatePrice, daysSpan, type Booking } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRand } from '@/lib/format';
import { makeCar, settingsAnswer } from '@/test/car-fixtures';
import { fail, jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** What GET /car/{id}/availability answers for a booking holding whole days. */
const days = (start_date: string, end_date: string, status: 'pending' | 'confirmed' | 'active') => {
  const span = daysSpan(start_date, end_date);
  return { start_date, end_date, status, kind: 'booking', from: new Date(span.from).toISOString(), to: new Date(span.to).toISOString() };
};

// Wednesday 4 March 2026, 10:00 in Johannesburg.
const NOW = new Date('2026-03-04T08:00:00Z');
const car = makeCar({ car_rent_price: 650 });
const PATH = `/cars/${car.car_username}`;

function handlers(overrides: NonNullable<Parameters<typeof mockFetch>[0]> = {}) {
  return {
    [`GET /api/car/getCarDetails/${car.car_username}`]: ok(car),
    [`GET /api/car/${car.car_username}/availability`]: ok([]),
    'GET /api/settings': ok(settingsAnswer),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    ...overrides,
  };
}

function bookingAnswer(overrides: Partial<Booking> = {}): Booking {
  return {
    id: 'b-1',
    booking_id: 'KR7XQ2M9PA',
    status: 'pending',
    car_username: car.car_username,
    start_date: '2026-03-05',
    end_date: '2026-03-06',
    start_time: '09:00',
    end_time: '17:00',
    is_hourly_booking: false,
    duration_days: 1,
    duration_hours: null,
    subtotal: 650,
    service_fee: 65,
    insurance_fee: 0,
    pickup_fee: 0,
    total_price: 715,
    service_fee_rate: 10,
    pickup_option: null,
    insurance_option: null,
    ...overrides,
  } as Booking;
}

async function openPage(path = PATH) {
  const view = renderApp({ path });
  await screen.findByRole('heading', { level: 1, name: /Toyota Corolla/ });
  return view;
}

describe('BookingPanel', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows every pickup and insurance option in full: nothing in the panel (or around it) scrolls on its own', async () => {
    mockFetch(handlers());
    await openPage();
    const aside = screen.getByRole('complementary', { name: 'Booking' });
    expect(within(aside).getByText('Premium Cover')).toBeInTheDocument();
    // A scroll area inside a panel that is itself sticky cut Premium Cover off at 1280 and 390 px.
    const scrollers = [aside, ...aside.querySelectorAll('*')].filter((el) => /(^|\s)(lg:)?(overflow-y-(auto|scroll)|max-h-)/.test(el.getAttribute('class') ?? ''));
    expect(scrollers).toEqual([]);
  });

  it('gives each time of day a box at least 44 px tall to tap, the select filling it', async () => {
    mockFetch(handlers());
    await openPage();
    for (const label of ['Pickup time', 'Return time']) {
      const select = screen.getByLabelText(label);
      // 3.25rem = 52 px (happy-dom lays nothing out: the class is what the browser sizes it by; the end-to-end walk measures it).
      expect(select.className).toContain('min-h-[3.25rem]');
      expect(select.className).toContain('w-full');
    }
  });

  it("offers only the chosen pickup location's times, and sends the one picked (decision 059)", async () => {
    signIn(makeUser());
    const fetchMock = mockFetch(handlers({ 'POST /api/booking/create': ok(bookingAnswer({ start_time: '17:00' }), 'Booking request sent') }));
    const { user } = await openPage();
    const times = () => within(screen.getByLabelText('Pickup time')).getAllByRole('option').map((o) => o.textContent);
    // Host's home hands over at 09:00, 13:00, 17:00 and 19:00: 10:00 and 18:00 are not offered.
    expect(times()).toEqual(['09:00', '13:00', '17:00', '19:00']);
    expect(screen.getByLabelText('Pickup time')).toHaveValue('09:00');
    // The airport hands over at 08:00 only: the pickup time follows.
    await user.click(screen.getByRole('radio', { name: /OR Tambo Airport/ }));
    expect(times()).toEqual(['08:00']);
    expect(screen.getByLabelText('Pickup time')).toHaveValue('08:00');
    // The return time is any time of the day.
    expect(within(screen.getByLabelText('Return time')).getAllByRole('option')).toHaveLength(33);
    await user.click(screen.getByRole('radio', { name: /Host's home/ }));
    expect(screen.getByLabelText('Pickup time')).toHaveValue('09:00');
    await user.selectOptions(screen.getByLabelText('Pickup time'), '17:00');
    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    await user.click(screen.getByRole('button', { name: 'Book Now' }));
    await user.click(screen.getByRole('button', { name: 'Send Request' }));
    await screen.findByText('Daily Booking Request Sent!');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]!.body as string)).toMatchObject({ start_time: '17:00', pickup_option: 'pickup_home' });
  });

  it('asks guests to log in, with a Log In link to /login', async () => {
    mockFetch(handlers());
    await openPage();
    expect(screen.getByText('Please log in to book this vehicle')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Book Now' })).not.toBeInTheDocument();
  });

  it('tells an unverified customer to complete verification', async () => {
    signIn(makeUser({ verification_status: 'pending_verification' }));
    mockFetch(handlers());
    await openPage();
    expect(screen.getByText('Verification Required')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Complete Verification' })).toHaveAttribute('href', '/profile');
  });

  it('disables Book Now without dates and for hourly bookings under an hour', async () => {
    signIn(makeUser());
    mockFetch(handlers());
    const { user } = await openPage();
    const bookNow = screen.getByRole('button', { name: 'Book Now' });
    expect(bookNow).toBeDisabled();
    expect(screen.getByRole('button', { name: /Return date/i })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    expect(bookNow).toBeEnabled();
    expect(screen.getByRole('button', { name: /Pickup date/i })).toHaveTextContent(/Thu, 0?5 Mar/);

    // Hourly starts today, and offers Today and Tomorrow only.
    await user.click(screen.getByRole('button', { name: 'Hourly' }));
    expect(screen.getByRole('button', { name: /Pickup date/i })).toHaveTextContent(/Wed, 0?4 Mar/);
    expect(screen.getByRole('button', { name: /Return date/i })).toHaveTextContent(/Wed, 0?4 Mar/);
    expect(screen.queryByRole('button', { name: 'This Weekend' })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Pickup time'), '13:00');
    await user.selectOptions(screen.getByLabelText('Return time'), '13:30');
    expect(bookNow).toBeDisabled();
    expect(screen.getByText('Minimum booking duration is 1 hour.')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Return time'), '14:00');
    expect(bookNow).toBeEnabled();
  });

  it('shows the cancellation policy: the rules in words before dates, then the picked trip\u2019s own dates and fee', async () => {
    mockFetch(handlers());
    const { user } = await openPage();
    // textContent: the rand amount's space is a no-break space, which toHaveTextContent folds away.
    const policy = () => within(screen.getByRole('complementary', { name: 'Booking' })).getByRole('region', { name: 'Cancellation policy' });
    expect(policy()).toHaveTextContent(/Free cancellation until 24 hours before the trip starts/);
    expect(policy()).toHaveTextContent(/cancelling costs one day's average price/);

    // Tomorrow, 09:00, one day at R 650: 23 hours away, so free for the hour after paying (now,
    // 10:00); the fee is half of one day's price, R 325.
    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    expect(policy().textContent).toContain(`Free cancellation until Wed 4 Mar, 11:00. After that, cancelling costs ${formatRand(325)}; the rest is refunded.`);
    // Next week (Wed 11 Mar, 09:00): free until 24 hours before.
    await user.click(screen.getByRole('button', { name: 'Next Week' }));
    expect(policy().textContent).toContain(`Free cancellation until Tue 10 Mar, 09:00. After that, cancelling costs ${formatRand(325)}; the rest is refunded.`);
  });

  it('shows the return calendar 200 ms after a pickup date, without past or held days', async () => {
    signIn(makeUser());
    mockFetch(
      handlers({
        [`GET /api/car/${car.car_username}/availability`]: ok([
          days('2026-03-10', '2026-03-11', 'confirmed'),
          days('2026-03-13', '2026-03-13', 'pending'),
        ]),
      }),
    );
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: /Pickup date/i }));
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    const day = (date: string) => calendar.querySelector<HTMLButtonElement>(`[data-date="${date}"]`)!;
    await waitFor(() => expect(day('2026-03-10')).toHaveAttribute('data-state', 'booked'));
    expect(day('2026-03-03')).toBeDisabled();
    expect(day('2026-03-10')).toBeDisabled();
    expect(day('2026-03-13')).toHaveAttribute('data-state', 'pending');
    expect(day('2026-03-13')).toBeDisabled();
    expect(day('2026-03-13')).toHaveAccessibleName('Friday, 13 March 2026 (pending request)');

    await user.click(day('2026-03-06'));
    const returnCalendar = await screen.findByRole('dialog', { name: 'Choose return date' });
    expect(returnCalendar.querySelector('[data-date="2026-03-05"]')).toBeDisabled();
    expect(returnCalendar.querySelector('[data-date="2026-03-07"]')).toBeEnabled();
  });

  it('runs the submit checks in order, with their titles and messages', async () => {
    // The owner, on dates that are held: the dates come first. Tomorrow is chosen before the held
    // dates have arrived (so the quick-select could not know); Book Now checks them.
    signIn(makeUser({ username: 'host_thabo', role: 'host' }));
    let answerAvailability = () => {};
    const availabilityAnswered = new Promise<void>((resolve) => (answerAvailability = resolve));
    mockFetch(
      handlers({
        [`GET /api/car/${car.car_username}/availability`]: async () => {
          await availabilityAnswered;
          return ok([days('2026-03-05', '2026-03-06', 'pending')]);
        },
      }),
    );
    const owner = await openPage();
    await waitFor(() => expect(screen.getByText('This is your car')).toBeInTheDocument());
    await owner.user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    answerAvailability();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Tomorrow' })).toBeDisabled());
    await owner.user.click(screen.getByRole('button', { name: 'Book Now' }));
    let toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Dates Unavailable');
    expect(toast).toHaveTextContent('One or more selected dates are already booked or have pending requests. Please choose different dates.');

    await owner.user.click(within(toast).getByRole('button', { name: 'Dismiss notification' }));
    await owner.user.click(screen.getByRole('button', { name: 'Next Week' }));
    await owner.user.click(screen.getByRole('button', { name: 'Book Now' }));
    toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Cannot Book Own Car');
    expect(toast).toHaveTextContent('You cannot book your own car.');
    expect(screen.queryByRole('dialog', { name: 'Confirm Booking Request' })).not.toBeInTheDocument();
    owner.unmount();

    // Not verified comes next.
    signIn(makeUser({ verification_status: 'pending_verification' }));
    const renter = await openPage();
    await renter.user.click(screen.getByRole('button', { name: 'Next Week' }));
    await renter.user.click(screen.getByRole('button', { name: 'Book Now' }));
    toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Verification Required');
    expect(toast).toHaveTextContent('You must complete account verification before booking a car. Please upload your documents and wait for approval.');
  });

  it('quick-selects skip held dates to the first free one of their kind, or say why not', async () => {
    signIn(makeUser());
    mockFetch(
      handlers({
        // Today (Wed 4) and tomorrow are held; next week's Wed 11 to Thu 12 is booked; the coming
        // Saturday 7 is pending.
        [`GET /api/car/${car.car_username}/availability`]: ok([
          days('2026-03-04', '2026-03-05', 'pending'),
          days('2026-03-07', '2026-03-07', 'pending'),
          days('2026-03-11', '2026-03-12', 'confirmed'),
        ]),
      }),
    );
    const { user } = await openPage();
    const today = screen.getByRole('button', { name: 'Today' });
    await waitFor(() => expect(today).toBeDisabled());
    expect(today).toHaveAccessibleDescription('Booked — today is taken');
    expect(today).toHaveAttribute('title', 'Booked — today is taken');
    expect(screen.getByRole('button', { name: 'Tomorrow' })).toBeDisabled();

    const nextWeek = screen.getByRole('button', { name: 'Next Week' });
    expect(nextWeek).toHaveAttribute('title', 'Wed, 11 Mar is taken; first free: Fri, 13 Mar');
    await user.click(nextWeek);
    expect(screen.getByRole('button', { name: /Pickup date/i })).toHaveTextContent(/Fri, 13 Mar/);
    expect(screen.getByRole('button', { name: /Return date/i })).toHaveTextContent(/Sat, 14 Mar/);
    expect(screen.getByTestId('quick-note')).toHaveTextContent('Next Week: Wed, 11 Mar is taken, so the first free date, Fri, 13 Mar, is chosen.');
    expect(screen.getByRole('button', { name: 'Book Now' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'This Weekend' }));
    expect(screen.getByRole('button', { name: /Pickup date/i })).toHaveTextContent(/Sat, 14 Mar/);
    expect(screen.getByRole('button', { name: /Return date/i })).toHaveTextContent(/Sun, 15 Mar/);

    // Choosing a day by hand clears the note.
    await user.click(screen.getByRole('button', { name: /Pickup date/i }));
    await user.click(screen.getByRole('button', { name: /Tuesday, 17 March 2026/ }));
    expect(screen.getByTestId('quick-note')).toBeEmptyDOMElement();
  });

  it('prices the booking with the shared calculatePrice and the platform settings', async () => {
    signIn(makeUser());
    const settings = { ...settingsAnswer, platformCommission: 12, commission_rate: 12 };
    mockFetch(handlers({ 'GET /api/settings': ok(settings) }));
    const { user } = await openPage();

    await user.click(screen.getByRole('button', { name: /Pickup date/i }));
    await user.click(screen.getByRole('button', { name: /Tuesday, 10 March 2026/ }));
    const returnCalendar = await screen.findByRole('dialog', { name: 'Choose return date' });
    await user.click(within(returnCalendar).getByRole('button', { name: /Friday, 13 March 2026/ }));
    await user.click(screen.getByRole('radio', { name: /OR Tambo Airport/ }));
    await user.click(screen.getByRole('radio', { name: /Premium Cover/ }));

    const expected = calculatePrice({ dailyPrice: 650, isHourly: false, days: 3, hours: 0, pickupFee: 250, insuranceDailyRate: 180, settings });
    const breakdown = screen.getByTestId('price-breakdown');
    expect(within(breakdown).getByText('Service fee (12%)')).toBeInTheDocument();
    expect(within(breakdown).getByText(/× 3 days/)).toBeInTheDocument();
    expect(screen.getByTestId('price-total')).toHaveTextContent(formatRand(expected.total).replace(/\s/g, ' '));
    expect(expected.total).toBe(1950 + 234 + 540 + 250);
  });

  it('sends the request after confirmation, then shows the toast, the confirmation and the new held dates', async () => {
    signIn(makeUser());
    let availabilityCalls = 0;
    const fetchMock = mockFetch(
      handlers({
        [`GET /api/car/${car.car_username}/availability`]: () => {
          availabilityCalls += 1;
          return ok(availabilityCalls > 1 ? [days('2026-03-05', '2026-03-06', 'pending')] : []);
        },
        'POST /api/booking/create': jsonResponse({ success: true, message: 'Daily Booking Request Sent!', data: bookingAnswer() }, 201),
      }),
    );
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    await user.click(screen.getByRole('button', { name: 'Book Now' }));
    const confirm = screen.getByRole('dialog', { name: 'Confirm Booking Request' });
    await user.click(within(confirm).getByRole('button', { name: 'Send Request' }));

    expect(await screen.findByText('Daily Booking Request Sent!')).toBeInTheDocument();
    const done = screen.getByRole('dialog', { name: 'Booking Request Sent' });
    expect(within(done).getByText(/KR7XQ2M9PA/)).toBeInTheDocument();
    expect(within(done).getByText('Pending')).toBeInTheDocument();
    expect(within(done).getByRole('link', { name: 'View My Bookings' })).toHaveAttribute('href', '/my-bookings');

    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(post[1]!.body as string)).toEqual({
      car_username: car.car_username,
      start_date: '2026-03-05',
      end_date: '2026-03-06',
      start_time: '09:00',
      end_time: '17:00',
      is_hourly_booking: false,
      pickup_option: 'pickup_home',
      insurance_option: 'insurance_basic',
      special_requirements: null,
    });
    await waitFor(() => expect(availabilityCalls).toBe(2));

    await user.click(within(done).getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: /Pickup date/i }));
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    expect(calendar.querySelector('[data-date="2026-03-05"]')).toHaveAttribute('data-state', 'pending');
  });

  it('shows Booking Failed with the server message and keeps the confirmation open', async () => {
    signIn(makeUser());
    mockFetch(handlers({ 'POST /api/booking/create': fail(409, 'This car is not available for booking right now.') }));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Tomorrow' }));
    await user.click(screen.getByRole('button', { name: 'Book Now' }));
    await user.click(screen.getByRole('button', { name: 'Send Request' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Booking Failed');
    expect(toast).toHaveTextContent('This car is not available for booking right now.');
    expect(screen.getByRole('dialog', { name: 'Confirm Booking Request' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Request' })).toBeEnabled();
  });
});
