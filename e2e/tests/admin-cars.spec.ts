// The admin Cars tab (document 3, Cars; issue 10), each decision through the panel and seen where
// it lands: a host's new car is not in public browse until the admin verifies it and its
// registration document, and then a renter finds it with the browse search; Verify stays disabled,
// saying what is missing, until the registration document is approved and the car has a photo,
// and it asks for confirmation (issue 18, decision 033); a rejection needs
// notes, and the host reads them in her notifications; a force return of a car on a rental ends it
// with the count of the bookings it completed, and the car is available again. Screenshots of the
// tab at 1280 and 390 px.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { E2E_NOW, E2E_TODAY } from './clock';
import { apiToken, expect, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

interface ApiCar {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  verification_status: string;
}

/** A car listed through the API by a host (pending verification), with a unique make and model. */
async function listCar(request: APIRequestContext, host: string, city: string): Promise<ApiCar & { token: string }> {
  const token = await apiToken(request, host);
  const make = uniqueName('Karmo');
  const model = uniqueName('Veld');
  const plate = `E2E ${Date.now().toString(36).slice(-6).toUpperCase()}`;
  const response = await request.post(`/api/car/newCar/${host}`, {
    headers: { authorization: `Bearer ${token}` },
    data: {
      car_make: make,
      car_model: model,
      car_year: 2023,
      car_color: 'White',
      car_type: 'SUV',
      car_plate_number: plate,
      car_value: 450000,
      car_rent_price: 750,
      car_odometer: 12000,
      description: 'Clean, reliable and ready for the Garden Route.',
      pickup_location: city,
      specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 5, engine: '1.8L', fuelConsumption: '6.8L/100km' },
      features: ['Bluetooth', 'Apple CarPlay'],
      safety: ['Airbags'],
      rules: ['No smoking'],
      pickup_options: [],
      insurance_options: [],
    },
  });
  expect(response.status()).toBe(201);
  const car = ((await response.json()) as { data: ApiCar }).data;
  expect(car.verification_status).toBe('pending_verification');
  return { ...car, token };
}

/** Public browse (no token): how many listed cars match the search. */
async function publicMatches(request: APIRequestContext, search: string): Promise<number> {
  const response = await request.get(`/api/car/getCarList?search=${encodeURIComponent(search)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: unknown[] }).data.length;
}

async function openCarsTab(page: Page) {
  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Cars' }).click();
  await expect(page).toHaveURL(/tab=cars/);
  await expect(page.getByTestId('car-row').first()).toBeVisible();
}

/** Closes the toasts on screen, so that screenshots show the page under them. */
async function dismissToasts(page: Page) {
  const buttons = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 1_000 }).catch(() => undefined);
  await expect(buttons).toHaveCount(0);
}

/** A row's cell under the column whose header starts with `header` (found by the header, not by position). */
async function cell(page: Page, row: Locator, header: string): Promise<Locator> {
  const headers = (await page.locator('thead th').allTextContents()).map((text) => text.trim().toLowerCase());
  const index = headers.findIndex((text) => text.startsWith(header.toLowerCase()));
  expect(index, `column "${header}" in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0);
  return row.locator('td').nth(index);
}

async function searchCars(page: Page, text: string) {
  await page.getByLabel('Search cars').fill(text);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

/** A 1 x 1 PNG as a data URL: a photo the server decodes and stores. */
const PHOTO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test('verifies a new car once its registration document is approved and it has a photo; the car then appears in browse', async ({ page, request }) => {
  const car = await listCar(request, 'host_thabo', 'Johannesburg');
  const upload = await request.post(`/api/car/uploadRegistrationDocument/${car.car_username}`, {
    headers: { authorization: `Bearer ${car.token}` },
    multipart: { registrationDocument: { name: 'registration.pdf', mimeType: 'application/pdf', buffer: samplePdf(`Registration ${car.car_username}`) } },
  });
  expect(upload.status()).toBe(200);
  // Pending verification: not in public browse.
  expect(await publicMatches(request, car.car_model)).toBe(0);

  await openCarsTab(page);
  await searchCars(page, car.car_model);
  const row = page.getByTestId('car-row').filter({ hasText: car.car_model });
  await expect(page.getByTestId('car-row')).toHaveCount(1);
  await expect(row).toContainText('Pending verification');
  await expect(row).toContainText('Awaiting review');
  await expect(row).toContainText('@host_thabo');

  // Not yet: the registration document awaits review and the car has no photo. Verify says so.
  const verify = row.getByRole('button', { name: `Verify ${car.car_username}`, exact: true });
  const bothMissing = 'Cannot verify: the registration document is awaiting review; the car has no photo (at least one is needed).';
  await expect(verify).toBeDisabled();
  await expect(verify).toHaveAccessibleDescription(bothMissing);
  await expect(row.getByText(bothMissing)).toBeVisible();
  await dismissToasts(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/screens/admin-cars-verify-disabled-${width}.png` });
    await page.screenshot({ path: `/tmp/karoo/h5-car-verify-disabled-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // The server refuses it too, naming both.
  const adminHeaders = { authorization: `Bearer ${await apiToken(request, 'admin')}` };
  const refused = await request.patch(`/api/car/verifyCar/${car.id}`, { headers: adminHeaders, data: { verification_status: 'verified' } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(`${car.car_username}: ${bothMissing}`);

  await row.getByRole('button', { name: `Verify document of ${car.car_username}` }).click();
  await expect(page.getByText('Registration document verified', { exact: true })).toBeVisible();
  await expect(await cell(page, row, 'Registration document')).toContainText('Verified');
  await expect(row.getByRole('button', { name: `Verify document of ${car.car_username}` })).toHaveCount(0);
  await expect(verify).toHaveAccessibleDescription('Cannot verify: the car has no photo (at least one is needed).');
  await expect(verify).toBeDisabled();

  // The host adds a photo; the admin's page shows it on its next read, and Verify is enabled.
  const photo = await request.put(`/api/car/updateCar/${car.id}`, { headers: { authorization: `Bearer ${car.token}` }, data: { images: [PHOTO] } });
  expect(photo.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('car-row')).toHaveCount(1);
  await expect(verify).toBeEnabled();
  await expect(row.getByTestId('verify-blocker')).toHaveCount(0);

  // Verify asks first.
  await verify.click();
  const confirm = page.getByRole('dialog', { name: 'Verify this car?' });
  await expect(confirm).toContainText(`(${car.car_username}) of @host_thabo is listed publicly`);
  await confirm.getByRole('button', { name: 'Verify car' }).click();
  await expect(page.getByText('Car verified', { exact: true })).toBeVisible();
  await expect(page.getByText(`${car.car_username} is now listed.`)).toBeVisible();
  await expect(verify).toHaveCount(0);
  // Verification and Registration document columns both read Verified; no review buttons are left.
  await expect(await cell(page, row, 'Verification')).toContainText('Verified');
  await expect(await cell(page, row, 'Registration document')).toContainText('Verified');

  await dismissToasts(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-cars-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/admin-cars-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Now listed: the browse page's own search finds it.
  expect(await publicMatches(request, car.car_model)).toBe(1);
  await page.goto('/cars');
  await expect(page.getByTestId('vehicle-card').first()).toBeVisible();
  await page.getByLabel('Search vehicles').fill(car.car_model);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${car.car_model}`));
  await expect(page.getByTestId('vehicle-card')).toHaveCount(1);
  await expect(page.getByTestId('vehicle-card')).toContainText(`${car.car_make} ${car.car_model}`);
});

test('rejects a car with notes; the owner is notified', async ({ page, request, browser }) => {
  const car = await listCar(request, 'host_lerato', 'Cape Town');
  const notes = `The photos do not show the number plate (${car.car_model})`;

  await openCarsTab(page);
  await searchCars(page, car.car_model);
  const row = page.getByTestId('car-row').filter({ hasText: car.car_model });
  await expect(page.getByTestId('car-row')).toHaveCount(1);
  await expect(row).toContainText('Pending verification');
  await expect(row).toContainText('Not uploaded');

  await row.getByRole('button', { name: `Reject ${car.car_username}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Reject car' });
  await expect(dialog).toContainText(`(${car.car_username}) of @host_lerato`);
  // Notes are required: an empty reject is refused in the dialog, and nothing changes.
  await dialog.getByRole('button', { name: 'Reject car' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please add notes: the host is told them.');
  await expect(dialog.getByLabel('Notes (required)')).toHaveAttribute('aria-invalid', 'true');
  await expect(row).toContainText('Pending verification');

  await dialog.getByLabel('Notes (required)').fill(notes);
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Reject car' }).click();
  await expect(page.getByText('Car rejected', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const verification = await cell(page, row, 'Verification');
  await expect(verification).toContainText('Rejected');
  await expect(verification).toContainText(notes);
  await expect(row.getByRole('button', { name: `Reject ${car.car_username}`, exact: true })).toHaveCount(0);
  // Still offered: the admin may change their mind.
  await expect(row.getByRole('button', { name: `Verify ${car.car_username}`, exact: true })).toBeVisible();

  // host_lerato, in her own browser, reads the rejection and the notes in the bell.
  const context = await browser.newContext();
  await context.clock.install({ time: E2E_NOW });
  const host = await context.newPage();
  await loginThroughUi(host, 'host_lerato');
  await dismissToasts(host);
  await host.getByRole('button', { name: /^Notifications/ }).click();
  const list = host.getByRole('dialog', { name: 'Notifications list' });
  const notice = list.getByRole('listitem').first();
  await expect(notice).toContainText('Car not approved');
  await expect(notice).toContainText(`Your ${car.car_make} ${car.car_model} was not approved: ${notes}.`);
  await host.screenshot({ path: 'test-results/screens/admin-cars-rejected-host-notification.png' });
  await context.close();
});

test('force-returns a rented car with the affected bookings count', async ({ page, request }) => {
  // The demo data has rentals under way at the pinned now (seed: KRDEMO-ACTIVE-1 and -2).
  await openCarsTab(page);
  await page.getByLabel('Status').selectOption('rented');
  const rows = page.getByTestId('car-row');
  await expect(rows.first()).toContainText('Rented');
  await expect(rows.filter({ hasNotText: 'On a trip' })).toHaveCount(0);

  const row = rows.first();
  const forceButton = row.getByRole('button', { name: /^Force Return / });
  const carUsername = (await forceButton.getAttribute('aria-label'))!.replace(/^Force Return /, '');
  const plate = (await row.locator('p.font-mono').textContent())!.trim();
  await expect(row.getByRole('button', { name: `Maintenance ${carUsername}` })).toHaveCount(0);

  // What a force return should complete: the car's active bookings that have started by today.
  const token = await apiToken(request, 'admin');
  const headers = { authorization: `Bearer ${token}` };
  const active = await request.get(`/api/booking/getList?status=active&car_username=${carUsername}`, { headers });
  expect(active.status()).toBe(200);
  const started = ((await active.json()) as { data: { id: string; start_date: string }[] }).data.filter((b) => b.start_date <= E2E_TODAY);
  expect(started.length).toBeGreaterThan(0);
  const count = started.length;

  await forceButton.click();
  const dialog = page.getByRole('dialog', { name: 'Force return' });
  await expect(dialog).toContainText(`(${carUsername}) now`);
  await dialog.getByRole('button', { name: 'Force return' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please give a reason: it is kept in the audit log.');
  await dialog.getByLabel('Reason (required)').fill('The renter returned the car to the host');
  await dialog.getByRole('button', { name: 'Force return' }).click();
  await expect(page.getByText('Car force returned', { exact: true })).toBeVisible();
  await expect(page.getByText(`${carUsername}: ${count} ${count === 1 ? 'booking' : 'bookings'} affected.`)).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // No longer rented: gone from the Rented filter, and Available / Not rented under All.
  await expect(rows.filter({ hasText: plate })).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');
  const details = await request.get(`/api/car/getCarDetails/${carUsername}`, { headers });
  const { car_make, car_model } = ((await details.json()) as { data: ApiCar }).data;
  await searchCars(page, `${car_make} ${car_model}`);
  const returned = page.getByTestId('car-row').filter({ hasText: plate });
  await expect(returned).toHaveCount(1);
  await expect(returned).toContainText('Available');
  await expect(returned).toContainText('Not rented');
  await expect(returned.getByRole('button', { name: `Force Return ${carUsername}` })).toHaveCount(0);
  await expect(returned.getByRole('button', { name: `Maintenance ${carUsername}` })).toBeVisible();

  // The bookings it ended are completed.
  for (const booking of started) {
    const response = await request.get(`/api/booking/${booking.id}`, { headers });
    expect(((await response.json()) as { data: { status: string } }).data.status).toBe('completed');
  }
});

test('finds a car by its plate however it is typed, filters the cars pending verification from the URL, and keeps every action in reach at 1280 and 390 px', async ({ page, request }) => {
  const car = await listCar(request, 'host_lerato', 'Durban');
  const details = await request.get(`/api/car/getCarDetails/${car.car_username}`, { headers: { authorization: `Bearer ${car.token}` } });
  const plate = ((await details.json()) as { data: { car_plate_number: string } }).data.car_plate_number; // "E2E ABC123"

  await page.setViewportSize({ width: 1280, height: 900 });
  await openCarsTab(page);
  // Typed without its space, in lower case, and only in part: the server still finds it.
  await searchCars(page, plate.replace(/\s/g, '').toLowerCase().slice(0, -1));
  await expect(page).toHaveURL(/[?&]q=e2e/);
  await expect(page.getByTestId('car-row')).toHaveCount(1);
  await expect(page.getByTestId('car-row')).toContainText(car.car_model);

  // The pending-verification filter, opened from the URL: only pending cars, as many as the counter says.
  await page.goto('/admin?tab=cars&verification=pending_verification');
  await expect(page.getByLabel('Verification')).toHaveValue('pending_verification');
  const rows = page.getByTestId('car-row');
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: 'Pending verification' })).toHaveCount(0);
  const counter = page.getByLabel('Car counters').getByText('Pending verification').locator('xpath=following-sibling::dd');
  await expect(counter).toHaveText(/^\d+$/);
  const pending = (await counter.textContent())!.trim();
  await expect(page.getByText(new RegExp(`^${pending} cars? · page 1 of`))).toBeVisible();

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(rows.first()).toBeVisible();
    // Nothing scrolls sideways, and the actions of the car just listed are on screen when it is.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    const scroller = page.locator('table').locator('xpath=..');
    expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    const row = rows.filter({ hasText: car.car_model });
    for (const name of [`Verify ${car.car_username}`, `Reject ${car.car_username}`, `Maintenance ${car.car_username}`, `Delete ${car.car_username}`]) {
      const button = row.getByRole('button', { name, exact: true });
      await button.scrollIntoViewIfNeeded();
      const box = (await button.boundingBox())!;
      expect(box.x, name).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${name} at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    }
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await dismissToasts(page);
    await page.screenshot({ path: `test-results/screens/admin-cars-pending-${viewport.width}.png`, fullPage: true });
  }
});

/** Whether the prices are in this order (the server's sort on the page shown). */
const isOrdered = (prices: number[], order: 'asc' | 'desc') => prices.length > 1 && prices.every((price, i) => i === 0 || (order === 'asc' ? prices[i - 1]! <= price : prices[i - 1]! >= price));

test('sorts the cars on the server by price, from the header at 1280 px and the Sort by menu at 390 px; a reload keeps the order', async ({ page }) => {
  const prices = async () =>
    (await page.getByTestId('car-row').allTextContents()).map((text) => Number(/R\s?([\d\s]+)\/day/.exec(text)![1]!.replace(/\s/g, '')));
  await page.setViewportSize({ width: 1280, height: 900 });
  await openCarsTab(page);
  const header = page.getByRole('columnheader', { name: /Pricing & Performance/ });
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=price&order=asc/);
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await header.getByRole('button').click();
  await expect(page).toHaveURL(/[?&]sort=price&order=desc/);
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => isOrdered(await prices(), 'desc')).toBe(true);
  const highest = (await prices())[0]!;

  // The order is the address's: a reload on a phone asks the server for the same page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByLabel('Sort by')).toHaveValue('price:desc');
  await expect(page.getByTestId('car-row').first()).toBeVisible();
  expect((await prices())[0]).toBe(highest);
  await page.getByLabel('Sort by').selectOption('price:asc');
  await expect(page).toHaveURL(/[?&]sort=price&order=asc/);
  await expect.poll(async () => isOrdered(await prices(), 'asc')).toBe(true);
  await page.screenshot({ path: 'test-results/screens/admin-cars-sorted-390.png' });
});
