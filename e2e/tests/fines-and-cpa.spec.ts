// Traffic fines (issue 34, decision 066) in the real app: host_thabo enters a fine on one of his
// demo cars' completed trips from its booking card; Karoo matches it to that trip and says so; the
// AARTO 07 nomination is downloaded and read (the renter's name and the notice in it); the renter
// sees the fine on their trip with its deadline; the admin sees it in the Bookings tab. The card is
// photographed at 1280 and 390 px (test-results/screens/fines-*.png) and checked with axe.
// (The CPA s. 17 waiver's journey, a late cancellation's fee asked back and refunded, is
// cpa-fee-waiver.spec.ts; here the admin's queue is shown, empty once that journey has decided.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, samplePdf, test } from './fixtures';

const HOST = 'host_thabo';
const SCREENS = 'test-results/screens';

interface Booking {
  id: string;
  booking_id: string;
  status: string;
  payment_status: string;
  car_owner: string;
  user_username: string;
  start_date: string;
  end_date: string;
  renter: { full_name: string | null; username: string } | null;
}

/**
 * A completed, paid trip of one of the host's cars from the demo data: one that ended before today,
 * so never a trip another spec on this worker's server completed today (bookings-journey returns
 * one early in the morning, and 13:00 of its first day is then after the car came back).
 */
async function completedTripOf(request: APIRequestContext): Promise<Booking> {
  const token = await apiToken(request, HOST);
  const res = await request.get('/api/booking/getAll', { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
  const trips = ((await res.json()) as { data: Booking[] }).data
    .filter((b) => b.car_owner === HOST && b.status === 'completed' && b.payment_status === 'paid' && b.end_date > b.start_date && b.end_date < E2E_TODAY)
    .sort((a, b) => b.start_date.localeCompare(a.start_date));
  expect(trips.length, 'a completed trip of host_thabo in the demo data').toBeGreaterThan(0);
  return trips[0]!;
}

test('a host enters a traffic fine, it is matched to the trip, the AARTO 07 nomination is downloaded; the renter and the admin see it', async ({ page, browser, request }) => {
  const trip = await completedTripOf(request);
  await loginThroughUi(page, HOST);
  await page.goto('/my-bookings');
  const card = page.getByRole('article', { name: `Booking ${trip.booking_id}` });
  await card.scrollIntoViewIfNeeded();
  const panel = card.getByRole('region', { name: 'Traffic fines' });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Enter a traffic fine' }).click();
  const form = panel.getByRole('form', { name: 'Enter a traffic fine' });
  const notice = `AARTO-E2E-${Date.now().toString().slice(-6)}`;
  await form.getByLabel('Notice number').fill(notice);
  await form.getByLabel('Date of the infringement').fill(trip.start_date);
  await form.getByLabel('Time').fill('13:00');
  await form.getByLabel('Place').fill('M1 South near Grayston Drive');
  await form.getByLabel('Amount (R)').fill('750');
  await form.getByLabel('Date the notice was served').fill(E2E_TODAY);
  await form.getByLabel('Photo or PDF of the notice').setInputFiles({ name: 'notice.pdf', mimeType: 'application/pdf', buffer: samplePdf('AARTO 03 infringement notice') });
  await form.getByRole('button', { name: 'Enter fine' }).click();
  await expect(page.getByText(`Fine entered and matched to trip ${trip.booking_id}; the renter has been told`)).toBeVisible();

  const fine = panel.getByTestId('traffic-fine').filter({ hasText: notice });
  await expect(fine.getByTestId('fine-status')).toHaveText('Open: nominate the driver');
  await expect(fine.getByTestId('fine-deadline')).toHaveText(/32 days left to nominate the driver/);
  await expectNoAxeViolations(page, 'the traffic fines on the booking card', panel);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/fines-host-1280.png` });

  const [download] = await Promise.all([page.waitForEvent('download'), fine.getByRole('button', { name: 'Download AARTO 07 nomination' }).click()]);
  expect(download.suggestedFilename()).toBe(`aarto-07-${notice}.pdf`);
  const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: readFileSync((await download.path())!) }).toString('utf8').replace(/\u00a0/g, ' ');
  expect(text).toMatch(/AARTO 07: Nomination of driver/);
  expect(text).toContain(notice);
  expect(text).toContain(trip.booking_id);
  expect(text).toMatch(/Signature of the owner/);
  if (trip.renter?.full_name) expect(text).toContain(trip.renter.full_name);
  execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', (await download.path())!, `${SCREENS}/fines-nomination`]);

  await page.setViewportSize({ width: 390, height: 844 });
  await fine.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/fines-host-390.png` });

  // The renter sees the fine on their trip, without the nomination, and can say they paid it.
  const renterContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  const renterPage = await renterContext.newPage();
  await loginThroughUi(renterPage, trip.user_username);
  await renterPage.goto('/my-bookings');
  const renterCard = renterPage.getByRole('article', { name: `Booking ${trip.booking_id}` });
  await renterCard.scrollIntoViewIfNeeded();
  const renterFine = renterCard.getByTestId('traffic-fine').filter({ hasText: notice });
  await expect(renterFine).toBeVisible();
  await expect(renterFine.getByRole('button', { name: 'Download AARTO 07 nomination' })).toHaveCount(0);
  await expect(renterFine.getByRole('button', { name: 'I paid it' })).toBeVisible();
  await renterFine.scrollIntoViewIfNeeded();
  await renterPage.screenshot({ path: `${SCREENS}/fines-renter-1280.png` });
  await renterPage.setViewportSize({ width: 390, height: 844 });
  await renterFine.scrollIntoViewIfNeeded();
  await renterPage.screenshot({ path: `${SCREENS}/fines-renter-390.png` });
  await renterContext.close();

  // The admin's Bookings tab lists it, with the CPA s. 17 queue above.
  const adminContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  const adminPage = await adminContext.newPage();
  await loginThroughUi(adminPage, 'admin');
  await adminPage.goto('/admin?tab=bookings');
  const fines = adminPage.getByRole('region', { name: 'Traffic fines' });
  await expect(fines.getByTestId('admin-fine').filter({ hasText: notice })).toContainText(`trip ${trip.booking_id}`);
  await expect(adminPage.getByRole('region', { name: 'Cancellation fee waivers (CPA s. 17)' })).toContainText('No requests to waive a cancellation fee.');
  await fines.scrollIntoViewIfNeeded();
  await adminPage.screenshot({ path: `${SCREENS}/fines-admin-1280.png` });
  await adminContext.close();
});
