// One charge per booking (issue 12, decision 024), as the renter sees it: a renter whose first card
// was declined opens a second checkout and pays, then the first checkout is paid too (a second
// browser tab, say). The second charge is refunded automatically; My Bookings shows the refund on
// the booking, and the renter is notified. The payments go through the API (the sandbox provider,
// as the checkout page does), the renter reads the result in the real app.
import type { APIRequestContext } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

const RENTER = 'aisha';
const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };

interface ListedCar {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  car_owner: string;
}

async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'patch', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, ...(data === undefined ? {} : { data }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

test('a second payment for a paid booking is refunded, and My Bookings says so', async ({ page, request }) => {
  test.setTimeout(90_000);
  const renter = await apiToken(request, RENTER);
  const list = await request.get('/api/car/getCarList?limit=48&owner=host_lerato');
  const car = ((await list.json()) as { data: ListedCar[] }).data[0]!;
  const host = await apiToken(request, car.car_owner);
  // Far after every other journey's dates, so nothing else holds them.
  const start = addDays(E2E_TODAY, 230);
  const booking = await call<{ id: string; total_price: number }>(request, 'post', '/api/booking/create', renter, {
    car_username: car.car_username,
    start_date: start,
    end_date: addDays(start, 2),
    start_time: '09:00',
    end_time: '17:00',
    is_hourly_booking: false,
  });
  await call(request, 'patch', `/api/booking/approve/${booking.id}`, host, {});

  const first = await call<{ reference: string }>(request, 'post', `/api/booking/${booking.id}/payment-session`, renter);
  const declined = await call<{ status: string }>(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, card_number: '4000000000000002', reference: first.reference });
  expect(declined.status).toBe('failed');
  const second = await call<{ reference: string }>(request, 'post', `/api/booking/${booking.id}/payment-session`, renter);
  expect(second.reference).not.toBe(first.reference);
  await call(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: second.reference });
  const late = await call<{ status: string; message: string }>(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: first.reference });
  expect(late.message).toMatch(/being refunded in full/);

  await loginThroughUi(page, RENTER);
  await page.goto('/my-bookings');
  const card = page.getByTestId('booking-card').filter({ hasText: `${car.car_make} ${car.car_model}` }).filter({ hasText: /Refund/ }).first();
  await expect(card).toBeVisible();
  await expect(card.getByText(/^Refunded R\s?[\d\s]+ on /)).toBeVisible();
  await expect(card.getByText('This booking was already paid with another payment.')).toBeVisible();
  await expect(card.getByText(first.reference)).toBeVisible();
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/refund-my-bookings-1280.png' });
  await expectNoAxeViolations(page, 'my bookings with a refund');

  await page.getByRole('button', { name: /^Notifications/ }).click();
  const notifications = page.getByRole('dialog', { name: 'Notifications list' });
  await expect(notifications.getByRole('button', { name: /^Payment refunded/ }).first()).toBeVisible();
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 390, height: 844 });
  // The summary's figures are whole on a phone (the total spent used to be cut to "R 98 …").
  const spent = page.getByRole('region', { name: 'Booking summary' }).getByText(/^R\s?[\d\s]+$/);
  await expect(spent).toBeVisible();
  expect(await spent.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/screens/my-bookings-390.png' });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByText(/^Refunded R\s?[\d\s]+ on /)).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/refund-my-bookings-390.png' });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
