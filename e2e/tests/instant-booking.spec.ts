// Instant booking by the host's choice (issue 36, decision 078) in Chromium. With the admin's switch
// allowing it, a new host turns instant booking on for their car from Manage Details (photographed
// at 1280 and 390 px); a renter finds the car under the Instant filter with the Instant badge,
// reads who may book it instantly on the car page, books it, and it is confirmed at once and paid
// from the confirmation, without the host answering. A second car of the host, asking 3 completed
// trips, tells the same renter what they lack and takes an ordinary request. People and cars are
// the test's own; the switch is put back as it was.
import type { Page } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';
import { call, newListedCar, newVerifiedMember, SCREENS } from './money-journeys';

async function logout(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}

test('a host turns instant booking on; a renter who meets it is confirmed at once and pays; one who does not sends a request', async ({ page, request }) => {
  // About 40 s on a quiet machine; the ceiling catches a hang.
  test.setTimeout(180_000);
  const admin = await apiToken(request, 'admin');
  const host = await newVerifiedMember(request, 'ibhost', 'Lerato Mokoena');
  const renter = await newVerifiedMember(request, 'ibrenter', 'Pieter van Wyk');
  const car = await newListedCar(request, host);
  const strict = await newListedCar(request, host);
  const carName = `${car.car_make} ${car.car_model}`;
  await call(request, 'put', '/api/settings', admin, { business_rules: { instant_booking_enabled: true } });
  try {
    // 1. The host turns it on for one car, for every verified renter.
    await loginThroughUi(page, host.username, host.password);
    await page.goto('/host-dashboard');
    await page.getByTestId(`fleet-car-${car.car_username}`).getByRole('button', { name: 'Manage Details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Instant Booking' }).click();
    const editor = dialog.getByTestId('instant-booking-editor');
    await expect(editor.getByTestId('instant-preview')).toHaveText('Instant booking is off: you answer every request for this car.');
    await editor.getByLabel('Confirm requests at once').check();
    await expect(editor.getByTestId('instant-preview')).toHaveText('Booked instantly by: Verified renters.');
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await expect(editor).toBeVisible();
      await expectNoAxeViolations(page, `instant booking tab, ${width}`, dialog);
      await page.screenshot({ path: `${SCREENS}/instant-booking-host-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await editor.getByRole('button', { name: 'Save instant booking' }).click();
    await expect(page.getByText('Instant Booking Saved', { exact: true })).toBeVisible();
    await logout(page);
    // The other car asks 3 completed trips (set through the API, as the same panel would send it).
    await call(request, 'patch', `/api/car/updateInstantBooking/${strict.id}`, host.token, { enabled: true, min_trips: 3, min_rating: '', min_licence_years: '' });

    // 2. The renter finds it under the Instant filter, with the badge.
    await loginThroughUi(page, renter.username, renter.password);
    await page.goto(`/cars?search=${encodeURIComponent(car.car_model)}`);
    // The page is rendered on the server: click until the hydrated page opens its filters.
    const panel = page.getByRole('region', { name: 'Filters' });
    await expect(async () => {
      if (!(await panel.isVisible())) await page.getByRole('button', { name: /^Filters/ }).click();
      await expect(panel).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    // The box follows the address (the filters live in the URL): clicked, then awaited checked.
    const instantOnly = panel.getByLabel(/Instant booking only/);
    await instantOnly.click();
    await expect(page).toHaveURL(/[?&]instant=1(&|$)/);
    await expect(instantOnly).toBeChecked();
    const card = page.getByTestId('vehicle-card').filter({ hasText: carName });
    await expect(card).toBeVisible();
    await expect(card.getByText('Instant', { exact: true })).toBeVisible();

    // 3. The car page says who books it instantly; the renter qualifies, books, and pays at once.
    const start = addDays(E2E_TODAY, 3);
    await page.goto(`/cars/${car.car_username}?start=${start}&end=${addDays(start, 2)}`);
    await expect(page.getByTestId('car-instant-booking')).toContainText('Requests are confirmed at once, without waiting for the host, for: Verified renters.');
    const note = page.getByTestId('instant-eligibility');
    await expect(note).toContainText('Instant booking. Your request is confirmed at once');
    await expect(page.getByText('You pay once it is confirmed, straight after you book.')).toBeVisible();
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await note.scrollIntoViewIfNeeded();
      await expectNoAxeViolations(page, `car page, instant, ${width}`);
      await page.screenshot({ path: `${SCREENS}/instant-booking-car-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // The page is rendered on the server: click until the hydrated panel opens its dialog.
    const confirm = page.getByRole('dialog', { name: 'Confirm Instant Booking' });
    await expect(async () => {
      if (!(await confirm.isVisible())) await page.getByRole('button', { name: 'Book Instantly' }).click();
      await expect(confirm).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await confirm.getByRole('button', { name: 'Book Instantly' }).click();
    const confirmed = page.getByRole('dialog', { name: 'Booking Confirmed' });
    await expect(confirmed.getByText('Confirmed', { exact: true })).toBeVisible();
    await confirmed.getByRole('button', { name: /^Pay R .* now$/ }).click();
    const checkout = page.getByRole('dialog', { name: 'Secure checkout' });
    await checkout.getByLabel('Card number').fill('4084 0840 8408 4081');
    await checkout.getByLabel('Expiry (MM/YY)').fill('12/30');
    await checkout.getByLabel('CVV').fill('123');
    await checkout.getByRole('button', { name: /^Pay R/ }).click();
    await expect(page.getByText('Payment Successful', { exact: true })).toBeVisible();
    const trips = await call<{ status: string; host_response: string | null }[]>(request, 'get', '/api/booking/getList?scope=mine&as=renter', renter.token);
    expect(trips.map((b) => ({ status: b.status, host_response: b.host_response }))).toEqual([{ status: 'active', host_response: 'Booking confirmed instantly' }]);

    // 4. The stricter car tells the renter what they lack, and takes an ordinary request.
    await page.goto(`/cars/${strict.car_username}?start=${start}&end=${addDays(start, 2)}`);
    await expect(page.getByTestId('instant-eligibility')).toContainText('Needs 3 completed trips on Karoo; you have 0.');
    await expect(page.getByRole('button', { name: 'Book Now' })).toBeVisible();
  } finally {
    await call(request, 'put', '/api/settings', admin, { business_rules: { instant_booking_enabled: false } });
  }
});
