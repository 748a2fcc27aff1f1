// The cancellation policy where a renter decides, and the host's record where a renter judges the
// host (issue 20): the car page says the policy in words, then with the picked trip's own date and
// fee ("Free cancellation until Sat 30 Jan, 09:00..."); the host card says "Cancelled 1 of 5 trips",
// counted by the server from the host's paid trips; My Bookings shows a paid trip's policy by its
// real payment time; every note ends with the CPA s. 17 rule (no fee for a death or a hospital
// admission). Photographed at 1280 and 390 px (test-results/screens/cancellation-policy-*.png).
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };
const SCREENS = 'test-results/screens';
// A host no other journey books or cancels with.
const HOST = 'host_zanele';

interface ListedCar {
  car_username: string;
  car_rent_price: number;
  car_owner: string;
}

interface HostCancellations {
  paid_trips: number;
  cancelled_by_host: number;
}

async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'patch', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, ...(method === 'get' ? {} : { data: data ?? {} }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

async function hostCars(request: APIRequestContext): Promise<ListedCar[]> {
  const list = await request.get(`/api/car/getCarList?limit=48&owner=${HOST}`);
  return ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner === HOST);
}

async function cancellationsOf(request: APIRequestContext): Promise<HostCancellations> {
  const res = await request.get(`/api/car/owner/${HOST}`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: { cancellations: HostCancellations } }).data.cancellations;
}

/** A trip of `car` from `start` for `days` days by `renterName`, accepted by the host and paid with the sandbox's test card. */
async function paidTrip(request: APIRequestContext, renterName: string, car: ListedCar, start: string, days: number) {
  const renter = await apiToken(request, renterName);
  const booking = await call<{ id: string; booking_id: string }>(request, 'post', '/api/booking/create', renter, {
    car_username: car.car_username,
    start_date: start,
    end_date: addDays(start, days),
    start_time: '09:00',
    end_time: '17:00',
    is_hourly_booking: false,
  });
  await call(request, 'patch', `/api/booking/approve/${booking.id}`, await apiToken(request, HOST));
  const session = await call<{ reference: string }>(request, 'post', `/api/booking/${booking.id}/payment-session`, renter);
  expect((await call<{ status: string }>(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: session.reference })).status).toBe('success');
  return booking;
}

/** The Consumer Protection Act s. 17 rule under every policy note (issue 34; decision 067), as a pattern. */
const CPA_RULE =
  'No cancellation fee is kept if you, or a member of your immediate family, died or were admitted to hospital \\(Consumer Protection Act, section 17\\): ask for the fee back on the cancelled trip with a death certificate or a hospital letter\\.';
/** The rand formatter's text of a whole amount ("R 1 155"): any kind of space. */
const rand = (amount: number) => `R\\s${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '\\s')}`;

/** Photographs `region` scrolled into view at 1280 and at 390 px, checking it fits the phone and passes axe. */
async function photograph(page: Page, region: Locator, name: string) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await region.scrollIntoViewIfNeeded();
    await expect(region).toBeVisible();
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `${name} fits at ${width} px`).toBe(true);
    await expectNoAxeViolations(page, `${name}, ${width}`, region);
    await page.screenshot({ path: `${SCREENS}/cancellation-policy-${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the car page says the cancellation policy, in words and then with the trip\u2019s date and fee, and the host card the host\u2019s cancellations', async ({ page, request }) => {
  test.setTimeout(150_000);
  const [car, otherCar] = await hostCars(request);
  expect(car, `${HOST} has two listed cars`).toBeTruthy();
  expect(otherCar).toBeTruthy();

  // The host cancels one paid trip (far after every other journey's dates) and another goes ahead:
  // both count as paid trips, one as cancelled by the host.
  const before = await cancellationsOf(request);
  const cancelled = await paidTrip(request, 'priya', otherCar!, addDays(E2E_TODAY, 300), 2);
  await call(request, 'patch', `/api/booking/${cancelled.id}/cancel`, await apiToken(request, HOST), { reason: 'The car needs a new clutch.' });
  await paidTrip(request, 'priya', otherCar!, addDays(E2E_TODAY, 310), 2);
  const after = await cancellationsOf(request);
  expect(after).toEqual({ paid_trips: before.paid_trips + 2, cancelled_by_host: before.cancelled_by_host + 1 });

  // A guest on the car page: the policy in words before dates are chosen.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/cars/${car!.car_username}`);
  const panel = page.getByRole('complementary', { name: 'Booking' });
  const policy = panel.getByRole('region', { name: 'Cancellation policy' });
  await expect(policy).toContainText('Free cancellation until 24 hours before the trip starts');
  await expect(policy).toContainText("After that, cancelling costs one day's average price");
  await expect(policy).toContainText('(Consumer Protection Act, section 17)');

  // The host card: the server's count, in Turo's words.
  const hostCard = page.locator('section[aria-labelledby="host-heading"]');
  await expect(hostCard.getByTestId('host-cancellations')).toHaveText(`Cancelled ${after.cancelled_by_host} of ${after.paid_trips} trips`);
  await photograph(page, hostCard, 'host-card');

  // Next Week: Sun 31 Jan, 09:00, one day. Free until 24 hours before; after that half of one day's price.
  await panel.getByRole('button', { name: 'Next Week' }).click();
  const halfDay = Math.round(car!.car_rent_price / 2);
  await expect(policy).toHaveText(new RegExp(`^Cancellation policyFree cancellation until Sat 30 Jan, 09:00\\. After that, cancelling costs ${rand(halfDay)}; the rest is refunded\\.${CPA_RULE}$`));
  await photograph(page, policy, 'car-page');
});

test('My Bookings shows a paid, upcoming trip its policy by the time it was paid', async ({ page, request }) => {
  test.setTimeout(150_000);
  const [car] = await hostCars(request);
  // Sat 1 May 2027, 09:00 for 3 days: a late cancellation costs one day's average price.
  const start = addDays(E2E_TODAY, 97);
  const trip = await paidTrip(request, 'priya', car!, start, 3);

  await loginThroughUi(page, 'priya');
  await page.goto('/my-bookings');
  const card = page.getByRole('article', { name: `Booking ${trip.booking_id}` });
  const policy = card.getByRole('region', { name: 'Cancellation policy' });
  await expect(policy).toHaveText(new RegExp(`^Cancellation policyFree cancellation until Fri 30 Apr, 09:00\\. After that, cancelling costs ${rand(Math.round(car!.car_rent_price))}; the rest is refunded\\.${CPA_RULE}$`));
  await photograph(page, card, 'my-bookings');
});
