// A visitor from London books in SAST (issue 23, decision 047 "A visitor in another time zone").
// This file switches the process's zone to Europe/London (Node honours a change of process.env.TZ
// at run time; vitest runs each web test file in its own worker, and the zone is put back after
// the file) and fixes the clock around the UK's two daylight-saving changes of 2028: Sunday
// 26 March (01:00 UTC, GMT to BST) and Sunday 29 October (01:00 UTC, BST to GMT). Johannesburg has
// no daylight saving. The panel must send the dates and times the renter picked, count whole SAST
// days and real hours (no 23- or 25-hour day), take "today" and the notice from Johannesburg's
// clock, and grey and mark "taken" exactly what the server refuses.
import {
  bookingLength as storedLength,
  calculatePrice,
  DEFAULT_TRIP_RULES,
  durationHours,
  localInstant,
  momentOf,
  spanOfHold,
  todayIn,
  tripSpan,
  validateBookingRequest,
  type Booking,
  type CarAvailability,
  type TripRules,
} from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatRand } from '@/lib/format';
import { makeCar, settingsAnswer } from '@/test/car-fixtures';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { takenTimes } from '../utils/booking-dates';
import { TIME_SLOTS } from '../utils/booking-form';

let zoneBefore: string | undefined;
beforeAll(() => {
  zoneBefore = process.env.TZ;
  process.env.TZ = 'Europe/London';
});
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});

interface Change {
  name: string;
  /** The Saturday before the change, the Sunday of it, and the days after (SAST dates). */
  sat: string;
  sun: string;
  tue: string;
  wed: string;
  /** 23:30 on Saturday in London: already Sunday 01:30 (spring) or 00:30 (autumn) in Johannesburg. */
  lateSaturdayInLondon: string;
  /** Johannesburg's time at that instant, and the first pickup a 6-hour notice allows (exactly the notice). */
  sastThen: string;
  firstPickupAfterNotice: string;
  lastRefusedPickup: string;
  /** Friday 12:00 in Johannesburg. */
  fridayNoon: string;
  /** What the Sunday's 06:00 looks like in London, to show the two clocks differ that day. */
  londonAtSunday0600: string;
  /** Hours on London's wall clock from Saturday 20:00 SAST to Sunday 10:00 SAST (14 real hours). */
  londonWallHours: number;
  short: { fri: string; sat: string; sun: string; tue: string };
}

const CHANGES: Change[] = [
  {
    name: 'spring forward (Sunday 26 March 2028)',
    sat: '2028-03-25',
    sun: '2028-03-26',
    tue: '2028-03-28',
    wed: '2028-03-29',
    lateSaturdayInLondon: '2028-03-25T23:30:00Z',
    sastThen: '01:30',
    firstPickupAfterNotice: '07:30',
    lastRefusedPickup: '07:00',
    fridayNoon: '2028-03-24T10:00:00Z',
    londonAtSunday0600: '05:00',
    londonWallHours: 15,
    short: { fri: 'Fri 24 Mar', sat: 'Sat, 25 Mar', sun: 'Sun, 26 Mar', tue: 'Tue, 28 Mar' },
  },
  {
    name: 'fall back (Sunday 29 October 2028)',
    sat: '2028-10-28',
    sun: '2028-10-29',
    tue: '2028-10-31',
    wed: '2028-11-01',
    lateSaturdayInLondon: '2028-10-28T22:30:00Z',
    sastThen: '00:30',
    firstPickupAfterNotice: '06:30',
    lastRefusedPickup: '06:00',
    fridayNoon: '2028-10-27T10:00:00Z',
    londonAtSunday0600: '04:00',
    londonWallHours: 13,
    short: { fri: 'Fri 27 Oct', sat: 'Sat, 28 Oct', sun: 'Sun, 29 Oct', tue: 'Tue, 31 Oct' },
  },
];

const londonTime = (instant: Date) => `${String(instant.getHours()).padStart(2, '0')}:${String(instant.getMinutes()).padStart(2, '0')}`;
const HOUR = 3_600_000;

function answer(overrides: Partial<Booking>): Booking {
  return {
    id: 'b-1',
    booking_id: 'KR7XQ2M9PA',
    status: 'pending',
    car_username: 'x',
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

// A car without pickup locations: every half hour from 06:00 to 22:00 can start a trip (a location's
// own times would narrow the list; decision 059).
function carWith(rules: Partial<TripRules> = {}, bufferMinutes = 0) {
  return makeCar({ car_rent_price: 650, buffer_minutes: bufferMinutes, trip_rules: { ...DEFAULT_TRIP_RULES, ...rules }, pickup_options: [] });
}

async function openPage(car: ReturnType<typeof makeCar>, availability: CarAvailability[] = [], posted?: Partial<Booking>) {
  const fetchMock = mockFetch({
    [`GET /api/car/getCarDetails/${car.car_username}`]: ok(car),
    [`GET /api/car/${car.car_username}/availability`]: ok(availability),
    'GET /api/settings': ok(settingsAnswer),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    'POST /api/booking/create': jsonResponse({ success: true, data: answer({ car_username: car.car_username, ...posted }) }, 201),
  });
  const view = renderApp({ path: `/cars/${car.car_username}` });
  await screen.findByRole('heading', { level: 1, name: /Toyota Corolla/ });
  return { ...view, fetchMock };
}

const pickupButton = () => screen.getByRole('button', { name: /Pickup date/i });
const returnButton = () => screen.getByRole('button', { name: /Return date/i });
const dayIn = (calendar: HTMLElement, date: string) => calendar.querySelector<HTMLButtonElement>(`[data-date="${date}"]`)!;
const optionNames = (select: HTMLElement) => within(select).getAllByRole('option').map((o) => o.textContent);

async function sendAndReadBody(user: Awaited<ReturnType<typeof openPage>>['user'], fetchMock: Awaited<ReturnType<typeof openPage>>['fetchMock']) {
  await user.click(screen.getByRole('button', { name: 'Book Now' }));
  const confirm = await screen.findByRole('dialog', { name: 'Confirm Booking Request' });
  const text = confirm.textContent;
  await user.click(within(confirm).getByRole('button', { name: 'Send Request' }));
  await screen.findByRole('dialog', { name: 'Booking Request Sent' });
  const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
  return { confirmText: text, body: JSON.parse(post[1]!.body as string) as Record<string, unknown> };
}

it('runs in London, where the two changes of 2028 move the wall clock', () => {
  expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Europe/London');
  expect(new Date('2028-03-26T00:59:00Z').getTimezoneOffset()).toBe(0);
  expect(new Date('2028-03-26T01:00:00Z').getTimezoneOffset()).toBe(-60);
  expect(new Date('2028-10-29T00:59:00Z').getTimezoneOffset()).toBe(-60);
  expect(new Date('2028-10-29T01:00:00Z').getTimezoneOffset()).toBe(0);
  // 01:30 on 26 March does not exist in London; local Date arithmetic would make a 23-hour day.
  expect(new Date(2028, 2, 26, 1, 30).getHours()).toBe(2);
  expect(new Date(2028, 2, 27).getTime() - new Date(2028, 2, 26).getTime()).toBe(23 * HOUR);
  expect(new Date(2028, 9, 30).getTime() - new Date(2028, 9, 29).getTime()).toBe(25 * HOUR);
});

describe.each(CHANGES)('A renter in London, around the UK’s $name', (c) => {
  beforeEach(() => {
    // Date only is faked, and frozen: the notice can be checked at its exact edge; timers stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the shared helpers the panel uses answer in SAST whatever the browser’s zone', () => {
    const late = new Date(c.lateSaturdayInLondon);
    expect(londonTime(late)).toBe('23:30');
    expect(late.getDate()).toBe(Number(c.sat.slice(8)));
    expect(todayIn(late)).toBe(c.sun);
    // SAST 06:00 on the Sunday is 04:00 UTC, whatever London's clock says (05:00 BST or 04:00 GMT).
    expect(localInstant(c.sun, '06:00').toISOString()).toBe(`${c.sun}T04:00:00.000Z`);
    expect(momentOf(c.sun, '06:00')).toBe(Date.parse(`${c.sun}T04:00:00Z`));
    expect(londonTime(localInstant(c.sun, '06:00'))).toBe(c.londonAtSunday0600);
    // A daily trip Saturday 09:00 to Tuesday 17:00 is 3 days and 8 real hours; 3 days are charged.
    const daily = tripSpan({ start_date: c.sat, end_date: c.tue, start_time: '09:00', end_time: '17:00', is_hourly_booking: false })!;
    expect((daily.to - daily.from) / HOUR).toBe(3 * 24 + 8);
    expect(storedLength({ start_date: c.sat, end_date: c.tue, start_time: '09:00', end_time: '17:00', is_hourly_booking: false }).duration_days).toBe(3);
    // Saturday 20:00 to Sunday 10:00 SAST: 14 real hours, though London's wall clock moves 15 (spring) or 13 (autumn).
    const hourly = tripSpan({ start_date: c.sat, end_date: c.sun, start_time: '20:00', end_time: '10:00', is_hourly_booking: true })!;
    expect((hourly.to - hourly.from) / HOUR).toBe(14);
    expect(durationHours(c.sat, '20:00', c.sun, '10:00')).toBe(14);
    const from = new Date(hourly.from);
    const to = new Date(hourly.to);
    expect((to.getHours() + 24 - from.getHours()) % 24).toBe(c.londonWallHours);
  });

  it('at 23:30 in London “today” is Johannesburg’s Sunday, the notice counts from SAST’s clock, and an hourly trip is sent as picked', async () => {
    vi.setSystemTime(new Date(c.lateSaturdayInLondon));
    signIn(makeUser());
    const car = carWith({ advance_notice_hours: 6 });
    const { user, fetchMock } = await openPage(car, [], { start_date: c.sun, end_date: c.sun, is_hourly_booking: true });

    // Today is SAST's Sunday: the quick date, the calendar, and hourly's default day.
    await user.click(screen.getByRole('button', { name: 'Today' }));
    expect(pickupButton()).toHaveTextContent(c.short.sun);
    await user.click(pickupButton());
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    expect(dayIn(calendar, c.sat)).toHaveAttribute('data-state', 'past');
    expect(dayIn(calendar, c.sat)).toBeDisabled();
    // 09:00 on Sunday is more than 6 hours after 01:30 (or 00:30) SAST.
    expect(dayIn(calendar, c.sun)).toBeEnabled();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'Hourly' }));
    expect(pickupButton()).toHaveTextContent(c.short.sun);
    expect(returnButton()).toHaveTextContent(c.short.sun);
    // Now is c.sastThen in Johannesburg; with 6 hours' notice the first pickup is exactly 6 hours later.
    const pickup = screen.getByLabelText('Pickup time');
    expect(within(pickup).getByRole('option', { name: `${c.lastRefusedPickup} (too soon)` })).toBeInTheDocument();
    expect(within(pickup).getByRole('option', { name: c.firstPickupAfterNotice })).toBeInTheDocument();
    expect(optionNames(pickup).filter((name) => name!.endsWith('(too soon)'))).toEqual(
      TIME_SLOTS.filter((t) => t < c.firstPickupAfterNotice).map((t) => `${t} (too soon)`),
    );
    // The same edge as the server's rule: the notice is counted from now to the SAST pickup instant.
    expect(localInstant(c.sun, c.firstPickupAfterNotice).getTime() - Date.now()).toBe(6 * HOUR);

    const endTime = `${String(Number(c.firstPickupAfterNotice.slice(0, 2)) + 3).padStart(2, '0')}:30`;
    await user.selectOptions(pickup, c.firstPickupAfterNotice);
    await user.selectOptions(screen.getByLabelText('Return time'), endTime);
    expect(within(screen.getByTestId('price-breakdown')).getByText(/× 3 hours/)).toBeInTheDocument();

    const { confirmText, body } = await sendAndReadBody(user, fetchMock);
    expect(confirmText).toContain(`${c.short.sun}, ${c.firstPickupAfterNotice} – ${endTime}`);
    expect(body).toMatchObject({ start_date: c.sun, end_date: c.sun, start_time: c.firstPickupAfterNotice, end_time: endTime, is_hourly_booking: true });
  });

  it('a daily trip across the change is sent with its SAST dates and priced as 3 days; the policy names SAST times', async () => {
    vi.setSystemTime(new Date(c.fridayNoon));
    signIn(makeUser());
    const car = carWith();
    // The host blocked Wednesday's opening hours (06:00 to 22:00 SAST) whole.
    const block: CarAvailability = { start_date: c.wed, end_date: c.wed, status: 'blocked', kind: 'block', from: `${c.wed}T04:00:00.000Z`, to: `${c.wed}T20:00:00.000Z` };
    const { user, fetchMock } = await openPage(car, [block], { start_date: c.sat, end_date: c.tue, duration_days: 3 });

    await user.click(pickupButton());
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    await waitFor(() => expect(dayIn(calendar, c.wed)).toHaveAttribute('data-state', 'booked'));
    expect(dayIn(calendar, c.sat)).toHaveAttribute('data-state', 'available');
    expect(dayIn(calendar, c.sun)).toHaveAttribute('data-state', 'available');
    expect(dayIn(calendar, c.tue)).toHaveAttribute('data-state', 'available');
    await user.click(dayIn(calendar, c.sat));

    const returns = await screen.findByRole('dialog', { name: 'Choose return date' });
    expect(dayIn(returns, c.tue)).toBeEnabled();
    // A return on Wednesday would run into the block (the server refuses it too).
    expect(dayIn(returns, c.wed)).toBeDisabled();
    expect(validateBookingRequest({ start_date: c.sat, end_date: c.wed, start_time: '09:00', end_time: '17:00', is_hourly_booking: false, blockedRanges: [spanOfHold(block)], isOwnCar: false, isVerified: true, today: todayIn() })?.code).toBe('dates_unavailable');
    await user.click(dayIn(returns, c.tue));
    expect(pickupButton()).toHaveTextContent(c.short.sat);
    expect(returnButton()).toHaveTextContent(c.short.tue);

    const breakdown = screen.getByTestId('price-breakdown');
    expect(within(breakdown).getByText(/× 3 days/)).toBeInTheDocument();
    const expected = calculatePrice({ dailyPrice: 650, isHourly: false, days: 3, hours: 0, pickupFee: 0, insuranceDailyRate: 0, settings: settingsAnswer });
    expect(screen.getByTestId('price-total')).toHaveTextContent(formatRand(expected.total).replace(/\s/g, ' '));
    // Booked 21 hours ahead (Friday 12:00 for Saturday 09:00, SAST): free for an hour after paying,
    // until 13:00 in Johannesburg (11:00 in London).
    const policy = within(screen.getByRole('complementary', { name: 'Booking' })).getByRole('region', { name: 'Cancellation policy' });
    expect(policy.textContent).toContain(`Free cancellation until ${c.short.fri}, 13:00.`);

    const { confirmText, body } = await sendAndReadBody(user, fetchMock);
    expect(confirmText).toContain(`${c.short.sat} 09:00 – ${c.short.tue} 17:00`);
    expect(body).toMatchObject({ start_date: c.sat, end_date: c.tue, start_time: '09:00', end_time: '17:00', is_hourly_booking: false });
  });

  it('an hourly trip over the night of the change is 14 hours, and the taken hours are the server’s', async () => {
    vi.setSystemTime(new Date(c.fridayNoon));
    signIn(makeUser());
    // A buffer of an hour after every trip, and another renter's hourly trip on Sunday 12:00 to 14:00 SAST.
    const car = carWith({}, 60);
    const hold: CarAvailability = { start_date: c.sun, end_date: c.sun, status: 'confirmed', kind: 'booking', from: `${c.sun}T10:00:00.000Z`, to: `${c.sun}T12:00:00.000Z`, is_hourly_booking: true };
    const { user, fetchMock } = await openPage(car, [hold], { start_date: c.sat, end_date: c.sun, is_hourly_booking: true, duration_hours: 14 });

    await user.click(screen.getByRole('button', { name: 'Hourly' }));
    await user.click(pickupButton());
    const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
    // Sunday is held in part: open, with some hours free.
    await waitFor(() => expect(dayIn(calendar, c.sun)).toHaveAttribute('data-state', 'partly'));
    await user.click(dayIn(calendar, c.sat));
    await user.selectOptions(screen.getByLabelText('Pickup time'), '20:00');
    // The return time first: with the default 17:00 the trip would reach the Sunday trip, and the
    // return calendar greys Sunday for it.
    await user.selectOptions(screen.getByLabelText('Return time'), '10:00');
    await user.click(returnButton());
    const returns = screen.getByRole('dialog', { name: 'Choose return date' });
    await user.click(dayIn(returns, c.sun));
    expect(returnButton()).toHaveTextContent(c.short.sun);

    // Returns from 11:30 SAST would leave less than the hour's buffer before the 12:00 trip.
    const returnTimes = screen.getByLabelText('Return time');
    const marked = optionNames(returnTimes).filter((name) => name!.endsWith('(taken)')).map((name) => name!.slice(0, 5));
    expect(marked).toEqual(TIME_SLOTS.filter((t) => t >= '11:30'));
    // Exactly what the shared rule the server runs refuses, time by time.
    const refusedByServer = TIME_SLOTS.filter(
      (t) =>
        validateBookingRequest({ start_date: c.sat, end_date: c.sun, start_time: '20:00', end_time: t, is_hourly_booking: true, blockedRanges: [spanOfHold(hold)], bufferMinutes: 60, isOwnCar: false, isVerified: true, today: todayIn() })?.code ===
        'dates_unavailable',
    );
    expect(marked).toEqual(refusedByServer);
    // And the Sunday's pickups inside the other trip are taken: 12:00 to 13:30, not 14:00.
    const sundayPickups = takenTimes(TIME_SLOTS, 'pickup', { startDate: c.sun, endDate: c.sun, startTime: '09:00', isHourly: true, bufferMinutes: 60 }, [hold]);
    expect([...sundayPickups]).toEqual(['12:00', '12:30', '13:00', '13:30']);

    expect(returnTimes).toHaveValue('10:00');
    expect(within(screen.getByTestId('price-breakdown')).getByText(/× 14 hours/)).toBeInTheDocument();
    const { confirmText, body } = await sendAndReadBody(user, fetchMock);
    expect(confirmText).toContain(`${c.short.sat} 20:00 – ${c.short.sun} 10:00`);
    expect(body).toMatchObject({ start_date: c.sat, end_date: c.sun, start_time: '20:00', end_time: '10:00', is_hourly_booking: true });
  });
});
