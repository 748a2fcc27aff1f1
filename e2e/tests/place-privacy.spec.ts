// Where a car is, as a visitor and as its paid renter see it (issue 32, decision 055), in the real
// app on the demo data. A signed-out visitor reads a car page of host_lerato whose "Host's home"
// pickup is on 22 Kloof St: that pickup's area only ("Gardens, Cape Town", "exact address after
// payment"), the plate "Shown after payment", in the page as sent (no script run) and once it is
// live; on the browse map a chosen car gets a circle, not a pin. A renter whose trip of that car is
// paid (requested, accepted and paid with the sandbox's test card, as the checkout does) sees the
// street and the plate on the same page. Photographed at 1280 and 390 px (test-results/screens/place-*.png).
import type { APIRequestContext } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, loginThroughUi, test, waitForSettledPage } from './fixtures';

const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };
const HOST = 'host_lerato';
const RENTER = 'ruan';
const STREET = '22 Kloof St';

interface OwnCar {
  car_username: string;
  car_owner: string;
  car_plate_number: string | null;
  pickup_options: { name: string; address: string }[];
}

async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'patch', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, ...(method === 'get' ? {} : { data: data ?? {} }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** One of the host's listed cars whose home pickup is her street, and a paid trip of it by RENTER (the first of her cars free then). */
async function paidTripOfStreetCar(request: APIRequestContext): Promise<OwnCar> {
  const host = await apiToken(request, HOST);
  const renter = await apiToken(request, RENTER);
  const own = await call<OwnCar[]>(request, 'get', `/api/car/getCarList?limit=48&owner=${HOST}`, host);
  const cars = own.filter((car) => car.pickup_options.some((o) => o.address.startsWith(STREET)));
  expect(cars.length).toBeGreaterThan(0);
  const start = addDays(E2E_TODAY, 75);
  for (const car of cars) {
    const listed = await request.get(`/api/car/getCarDetails/${car.car_username}`);
    if (!listed.ok()) continue;
    const res = await request.post('/api/booking/create', {
      headers: { authorization: `Bearer ${renter}` },
      data: { car_username: car.car_username, start_date: start, end_date: addDays(start, 2), start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
    });
    if (res.status() === 409 || res.status() === 400) continue;
    expect(res.ok(), `booking ${car.car_username}: ${res.status()} ${await res.text()}`).toBe(true);
    const booking = ((await res.json()) as { data: { id: string } }).data;
    await call(request, 'patch', `/api/booking/approve/${booking.id}`, host);
    const session = await call<{ reference: string }>(request, 'post', `/api/booking/${booking.id}/payment-session`, renter);
    const charge = await call<{ status: string }>(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: session.reference });
    expect(charge.status).toBe('success');
    return car;
  }
  throw new Error(`No listed car of ${HOST} with her street is free from ${start}`);
}

test('a signed-out visitor sees the area and no plate; the renter of a paid trip sees the street and the plate', async ({ page, request }) => {
  test.setTimeout(120_000);
  const car = await paidTripOfStreetCar(request);
  const plate = car.car_plate_number!;
  expect(plate).toBeTruthy();

  // As sent, before any script: the area, never the street or the plate.
  const sent = await (await request.get(`/cars/${car.car_username}`)).text();
  expect(sent).toContain('Shown after payment');
  expect(sent).not.toContain('Kloof');
  expect(sent).not.toContain(plate);

  // Live, signed out.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/cars/${car.car_username}`);
    await waitForSettledPage(page);
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect(overview.getByText('Shown after payment')).toBeVisible();
    await expect(page.getByTestId('pickup-options').getByText('Gardens, Cape Town')).toBeVisible();
    await expect(page.getByText('Areas only: exact address after payment.')).toBeVisible();
    await expect(page.getByText(plate)).toHaveCount(0);
    await expect(page.getByText(/Kloof/)).toHaveCount(0);
    await page.screenshot({ path: `test-results/screens/place-visitor-${width}.png`, fullPage: false });
  }

  // The browse map, signed out: a chosen car gets a circle of about 1 km (its area), not a pin.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/cars?location=Cape+Town');
  await waitForSettledPage(page);
  const cards = page.getByTestId('vehicle-card');
  await expect(cards.first()).toBeVisible();
  await page.getByRole('button', { name: 'Show map' }).click();
  const map = page.getByTestId('car-map');
  const firstName = (await cards.first().getByRole('heading').textContent())!.trim();
  await cards.first().getByRole('button', { name: `Show ${firstName} on the map` }).click();
  await expect(map.getByRole('region', { name: `${firstName} details` }).getByTestId('map-car-area')).toContainText('the circle shows the area');
  await expect(map.locator('path.karoo-area-circle')).toHaveCount(1);
  await expect(map.locator('path.karoo-exact-place')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/place-visitor-map-1280.png', fullPage: false });

  // The paid renter: the street in the pickup options and the plate.
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, RENTER);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/cars/${car.car_username}`);
    await waitForSettledPage(page);
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect(overview.getByText(plate)).toBeVisible();
    await expect(page.getByTestId('pickup-options').getByText(new RegExp(STREET))).toBeVisible();
    await expect(page.getByText('Shown after payment')).toHaveCount(0);
    await expect(page.getByText('Areas only: exact address after payment.')).toHaveCount(0);
    await page.screenshot({ path: `test-results/screens/place-paid-renter-${width}.png`, fullPage: false });
  }
});
