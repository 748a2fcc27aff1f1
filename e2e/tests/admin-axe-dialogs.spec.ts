// Every dialog of the admin panel passes axe (WCAG 2.0-2.2 A and AA) at 1280 and 390 px (issue
// 18): Users (Add User, Edit User, Reject verification, User Documents, Delete), Cars (Reject car,
// Reject registration document, Force return, the photo gallery, Delete), Bookings (Approve,
// Reject, Cancel), Finance (Mark payout paid) and Settings (Clear the system cache). Each dialog is
// opened on the demo data, checked and closed with Escape: nothing is changed. (The tabs
// themselves are checked at both widths by admin-tabs-screens.spec.ts.) Named to run before the
// journeys that use up the demo data's pending bookings and rentals.
import type { Locator, Page } from '@playwright/test';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

async function openTab(page: Page, label: string, ready: (panel: Locator) => Locator) {
  await page.getByRole('tab', { name: label, exact: true }).click();
  await expect(ready(page.getByRole('tabpanel'))).toBeVisible();
}

/** Opens a dialog with `opener`, checks it with axe, and closes it with Escape. */
async function checkDialog(page: Page, opener: Locator, title: string, width: number) {
  await opener.click();
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  // The dialog alone: the tab behind it is checked at both widths by admin-tabs-screens.spec.ts, and
  // axe over the whole admin page (its tables) costs several times the dialog.
  await expectNoAxeViolations(page, `admin dialog "${title}" at ${width} px`, dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`every admin dialog passes axe at ${viewport.width} px`, async ({ page, request }) => {
    test.setTimeout(180_000);
    // A car with a registration document awaiting review, so its Reject document dialog exists.
    const host = 'host_thabo';
    const token = await apiToken(request, host);
    const created = await request.post(`/api/car/newCar/${host}`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        car_make: 'Toyota',
        car_model: uniqueName('Axe'),
        car_year: 2022,
        car_color: 'Grey',
        car_type: 'Sedan',
        car_plate_number: `AX ${Date.now().toString(36).slice(-5).toUpperCase()} GP`,
        car_value: 300000,
        car_rent_price: 500,
        car_odometer: 30000,
        description: 'A tidy sedan for the accessibility checks of the admin dialogs.',
        pickup_location: 'Johannesburg',
        specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.6L', fuelConsumption: '6.5L/100km' },
        features: ['Bluetooth'],
        safety: ['Airbags'],
        rules: [],
        pickup_options: [],
        insurance_options: [],
      },
    });
    expect(created.status()).toBe(201);
    const car = ((await created.json()) as { data: { car_username: string; car_model: string } }).data;
    const upload = await request.post(`/api/car/uploadRegistrationDocument/${car.car_username}`, {
      headers: { authorization: `Bearer ${token}` },
      multipart: { registrationDocument: { name: 'registration.pdf', mimeType: 'application/pdf', buffer: samplePdf('Registration') } },
    });
    expect(upload.status()).toBe(200);

    await page.setViewportSize(viewport);
    const width = viewport.width;
    await loginThroughUi(page, 'admin');
    await expect(page).toHaveURL(/\/admin$/);

    // Users.
    await openTab(page, 'Users', (panel) => panel.getByTestId('user-row').first());
    await checkDialog(page, page.getByRole('button', { name: 'Add User' }), 'Add User', width);
    // A member the admin may delete (the admin's own row has no Delete): the demo people share one
    // creation time, so which row comes first is the tie's, by id (random), never the admin's row here.
    const userRow = page.getByTestId('user-row').filter({ has: page.getByRole('button', { name: /^Delete / }) }).first();
    const someone = (await userRow.getByRole('button', { name: /^Edit / }).getAttribute('aria-label'))!.replace(/^Edit /, '');
    await checkDialog(page, userRow.getByRole('button', { name: `Edit ${someone}` }), 'Edit User', width);
    await checkDialog(page, userRow.getByRole('button', { name: `Manage Docs of ${someone}` }), 'User Documents', width);
    await checkDialog(page, userRow.getByRole('button', { name: `Delete ${someone}` }), 'Delete this user?', width);
    await page.getByLabel('Status').selectOption('pending_verification');
    await checkDialog(page, page.getByRole('button', { name: /^Reject / }).first(), 'Reject verification', width);

    // Cars: the new car (Reject car, Reject registration document, Delete), a car with photos
    // (the gallery), a rented car (Force return).
    await openTab(page, 'Cars', (panel) => panel.getByTestId('car-row').first());
    await page.getByLabel('Search cars').fill(car.car_model);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.getByTestId('car-row')).toHaveCount(1);
    await checkDialog(page, page.getByRole('button', { name: `Reject ${car.car_username}`, exact: true }), 'Reject car', width);
    await checkDialog(page, page.getByRole('button', { name: `Reject document of ${car.car_username}` }), 'Reject registration document', width);
    await checkDialog(page, page.getByRole('button', { name: `Delete ${car.car_username}` }), 'Delete this car?', width);
    await page.getByLabel('Search cars').fill('');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByLabel('Status').selectOption('rented');
    const forceReturn = page.getByRole('button', { name: /^Force Return / }).first();
    await expect(forceReturn).toBeVisible();
    await checkDialog(page, forceReturn, 'Force return', width);
    const photo = page.getByTestId('car-row').getByRole('button', { name: /open the (gallery|photo)$/ }).first();
    // The gallery is named after the car, as its photo is.
    await checkDialog(page, photo, (await photo.locator('img').getAttribute('alt'))!, width);

    // Bookings: a pending request (Approve, Reject) and a confirmed booking (Cancel).
    await openTab(page, 'Bookings', (panel) => panel.getByTestId('booking-row').first());
    await page.getByLabel('Status').selectOption('pending');
    await expect(page.getByTestId('booking-row').filter({ hasNotText: 'Pending' })).toHaveCount(0);
    await checkDialog(page, page.getByRole('button', { name: /^Approve / }).first(), 'Approve booking', width);
    await checkDialog(page, page.getByRole('button', { name: /^Reject / }).first(), 'Reject booking', width);
    await page.getByLabel('Status').selectOption('confirmed');
    await expect(page.getByTestId('booking-row').filter({ hasNotText: 'Confirmed' })).toHaveCount(0);
    await checkDialog(page, page.getByRole('button', { name: /^Cancel / }).first(), 'Cancel booking', width);

    // Finance and Settings.
    await openTab(page, 'Finance', (panel) => panel.getByTestId('finance-payout').first());
    await checkDialog(page, page.getByTestId('finance-payout').first().getByRole('button', { name: 'Mark paid' }), 'Mark payout paid', width);
    await openTab(page, 'Settings', (panel) => panel.getByLabel('Platform fee (%)'));
    await checkDialog(page, page.getByRole('button', { name: 'Clear System Cache' }), 'Clear the system cache?', width);
  });
}
