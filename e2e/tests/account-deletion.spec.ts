// Deleting one's own account (issue 24, POPIA s. 24; decision 050), in Chromium: a new member who
// asked host_johan for a trip deletes their account from Profile → Privacy and data, confirming
// with their password; they are signed out (the sign-in page says the account was deleted) and can no longer sign in, and host_johan sees "Former
// member" on the trip. The panel and the dialog are photographed at 1280 and 390 px
// (test-results/screens/account-deletion-*.png) and checked with axe.
import type { APIRequestContext } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { adminVerifyUser, apiToken, expect, expectNoAxeViolations, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

const SCREENS = 'test-results/screens';
const HOST = 'host_johan';

interface ListedCar {
  car_username: string;
  car_owner: string;
  status: string;
}

/** A pending request by `token` for one of the host's cars, far enough ahead to be free. */
async function requestTrip(request: APIRequestContext, token: string): Promise<string> {
  const list = await request.get(`/api/car/getCarList?limit=48&owner=${HOST}`);
  const cars = ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner === HOST);
  const start = addDays(E2E_TODAY, 45);
  for (const car of cars) {
    const res = await request.post('/api/booking/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { car_username: car.car_username, start_date: start, end_date: addDays(start, 2), start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
    });
    if (res.status() === 409 || res.status() === 400) continue;
    expect(res.ok(), `booking ${car.car_username}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: { booking_id: string } }).data.booking_id;
  }
  throw new Error(`No car of ${HOST} could be requested from ${start}`);
}

test('a member deletes their account from Privacy and data; they cannot sign in and their host sees "Former member"', async ({ page, request }) => {
  const username = uniqueName('zodwa');
  const email = `${username}@example.co.za`;
  const password = 'Karoo2027!';
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Zodwa Mthembu', email, username, password, terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  const token = await apiToken(request, username, password);
  const headers = { authorization: `Bearer ${token}` };
  const profile = await request.put(`/api/user/update/${username}`, {
    headers,
    data: { phone_number: '+27 72 555 3141', address: '8 Jan Smuts Ave, Parktown, Johannesburg, 2193', id_number: '9001015800085', bank_account: { account_number: '62098765432', bank_code: '250655' } },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  for (const type of ['id_document', 'driver_license', 'bank_confirmation_letter']) {
    const up = await request.post(`/api/user/${username}/upload-document`, {
      headers,
      multipart: { type, document: { name: `${type}.pdf`, mimeType: 'application/pdf', buffer: samplePdf(`${type} of ${username}`) } },
    });
    expect(up.status()).toBe(200);
  }
  await adminVerifyUser(request, username);
  const bookingNumber = await requestTrip(request, token);

  // The member deletes their account.
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, username, password);
  await page.goto('/profile/privacy#delete');
  const panel = page.locator('#delete');
  await expect(panel.getByRole('heading', { name: 'Delete your account' })).toBeVisible();
  await expect(panel.getByText('Your ID number and bank account details')).toBeVisible();
  await expect(panel.getByText(/Tax Administration Act 28 of 2011, s\. 29/)).toBeVisible();
  await expect(panel.getByText(/Your booking request that is not paid yet will be cancelled/)).toBeVisible();
  await panel.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page, 'privacy and data, delete your account');
  await panel.screenshot({ path: `${SCREENS}/account-deletion-panel-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await panel.scrollIntoViewIfNeeded();
  await panel.screenshot({ path: `${SCREENS}/account-deletion-panel-390.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await panel.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('not-my-password1');
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(dialog.getByText('Incorrect password')).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/account-deletion-dialog-390.png` });
  // Both buttons whole on a phone (a longer label once pushed Cancel out of the dialog).
  for (const name of ['Cancel', 'Delete for good']) {
    const box = (await dialog.getByRole('button', { name, exact: true }).boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoAxeViolations(page, 'delete account dialog, wrong password');
  await page.screenshot({ path: `${SCREENS}/account-deletion-dialog-1280.png` });
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page).toHaveURL(/\/login\?deleted=1$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeVisible();
  await expect(page.getByText('Welcome back')).toHaveCount(0);
  await expect(page.getByText('Please sign in to continue.')).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/account-deletion-done-1280.png` });

  // They can no longer sign in, by username or email.
  for (const name of [username, email]) {
    await page.goto('/login');
    await page.getByLabel('Username or Email').fill(name);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid credentials').first()).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
  }
  const again = await request.post('/api/user/login', { data: { username, password } });
  expect(again.status()).toBe(401);

  // Their host sees "Former member" on the trip.
  await loginThroughUi(page, HOST);
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: 'Received bookings' }).click();
  const cancelled = page.getByRole('button', { name: /^Cancelled/ });
  if ((await cancelled.count()) > 0) await cancelled.first().click();
  const card = page.getByTestId('booking-card').filter({ hasText: bookingNumber });
  await expect(card).toBeVisible();
  await expect(card.getByText(`Booking ${bookingNumber} · Renter Former member`)).toBeVisible();
  await expect(card.getByText('Zodwa Mthembu')).toHaveCount(0);
  await card.screenshot({ path: `${SCREENS}/account-deletion-host-card-1280.png` });
});
