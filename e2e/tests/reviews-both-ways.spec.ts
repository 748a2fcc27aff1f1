// Reviews both ways (issue 21, decision 043) in the real app, two browsers at once: ruan's paid trip
// of a host_ayanda car (today 06:00 to tomorrow 06:00) is returned by the host, so it is completed
// at the run's now. The host reviews the renter first and reads that the review appears when ruan
// reviews, or on the window's last day; ruan reviews the car; then both cards show both reviews
// together. Screenshots at 1280 and 390 px (test-results/screens/reviews-*.png); axe on each.
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { addDays, E2E_NOW, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, freeCarOf, loginThroughUi, test } from './fixtures';

const RENTER = 'ruan';
const HOST = 'host_ayanda';
const SCREENS = 'test-results/screens';

/** A trip of today 06:00 to tomorrow 06:00, accepted, paid with the sandbox card and returned now. */
async function completedTripToday(request: APIRequestContext): Promise<{ id: string; booking_id: string; renterName: string }> {
  const car = await freeCarOf(request, HOST);
  const renter = { authorization: `Bearer ${await apiToken(request, RENTER)}` };
  const host = { authorization: `Bearer ${await apiToken(request, HOST)}` };
  const created = await request.post('/api/booking/create', {
    headers: renter,
    data: { car_username: car.car_username, start_date: E2E_TODAY, end_date: addDays(E2E_TODAY, 1), start_time: '06:00', end_time: '06:00', is_hourly_booking: false },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const booking = ((await created.json()) as { data: { id: string; booking_id: string; renter: { full_name: string } } }).data;
  const approved = await request.patch(`/api/booking/approve/${booking.id}`, { headers: host, data: {} });
  expect(approved.ok(), await approved.text()).toBe(true);
  const session = await request.post(`/api/booking/${booking.id}/payment-session`, { headers: renter });
  expect(session.ok(), await session.text()).toBe(true);
  const { reference } = ((await session.json()) as { data: { reference: string } }).data;
  const charged = await request.post('/api/payments/sandbox/charge', { headers: renter, data: { reference, card_number: '4084084084084081', expiry: '12/39', cvv: '123' } });
  expect(charged.ok(), await charged.text()).toBe(true);
  const returned = await request.patch(`/api/car/returnCar/${car.car_username}`, { headers: host, data: {} });
  expect(returned.ok(), await returned.text()).toBe(true);
  return { id: booking.id, booking_id: booking.booking_id, renterName: booking.renter.full_name };
}

async function newSignedInPage(browser: Browser, username: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await context.clock.install({ time: E2E_NOW });
  const page = await context.newPage();
  await loginThroughUi(page, username);
  return page;
}

async function bookingCard(page: Page, bookingNumber: string, asHost: boolean): Promise<Locator> {
  await page.goto('/my-bookings');
  if (asHost) await page.getByRole('button', { name: 'Received bookings' }).click();
  return page.getByRole('article', { name: `Booking ${bookingNumber}` });
}

/** Photographs the page at 1280 and 390 px with `target` in view. */
async function screens(page: Page, target: Locator, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/${name}-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await target.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/${name}-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Fills and sends the review dialog: stars and a comment. */
async function writeReview(page: Page, title: string, stars: number, comment: string, shot: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: new RegExp(`^${stars} stars?`) }).click();
  await dialog.getByLabel('Your review').fill(comment);
  await expectNoAxeViolations(page, `the ${title} dialog`, dialog);
  await screens(page, dialog, shot);
  await dialog.getByRole('button', { name: 'Submit Review' }).click();
  await expect(dialog).toBeHidden();
}

test('after a completed trip host and renter review each other; the reviews appear together', async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const trip = await completedTripToday(request);
  const hostPage = await newSignedInPage(browser, HOST);
  await hostPage.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, RENTER);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The host reviews the renter first; theirs waits for ruan's.
  const hostCard = await bookingCard(hostPage, trip.booking_id, true);
  const hostReviews = hostCard.getByRole('region', { name: 'Reviews' });
  await hostReviews.getByRole('button', { name: 'Review the renter' }).click();
  await writeReview(hostPage, 'Review the renter', 5, 'Ruan brought the car back clean and on time.', 'reviews-host-dialog');
  await expect(hostReviews.getByText(new RegExp(`^Your review will appear when ${trip.renterName} reviews you, or on \\d+ \\w+ \\d{4}\\.$`))).toBeVisible();
  await expectNoAxeViolations(hostPage, 'the waiting review', hostReviews);
  await screens(hostPage, hostReviews, 'reviews-host-waiting');

  // ruan does not see the host's review yet; he reviews the car.
  const renterCard = await bookingCard(page, trip.booking_id, false);
  const renterReviews = renterCard.getByRole('region', { name: 'Reviews' });
  await expect(renterReviews.getByText(/Reviews appear together once you both have reviewed/)).toBeVisible();
  await expect(renterReviews.getByText('Ruan brought the car back clean')).toHaveCount(0);
  await renterCard.getByRole('button', { name: 'Leave a review' }).click();
  await writeReview(page, 'Leave a review', 4, 'Smooth handover and a tidy car.', 'reviews-renter-dialog');

  // Both reviews, together, on both cards.
  await expect(renterReviews.getByText(/Smooth handover and a tidy car/)).toBeVisible();
  await expect(renterReviews.getByText(/Ruan brought the car back clean and on time/)).toBeVisible();
  await expect(renterReviews.getByText(/will appear/)).toHaveCount(0);
  await expectNoAxeViolations(page, 'both reviews on the renter\u2019s card', renterReviews);
  await screens(page, renterReviews, 'reviews-together-renter');

  const shown = (await bookingCard(hostPage, trip.booking_id, true)).getByRole('region', { name: 'Reviews' });
  await expect(shown.getByText(/Smooth handover and a tidy car/)).toBeVisible();
  await expect(shown.getByText(/Ruan brought the car back clean and on time/)).toBeVisible();
  await screens(hostPage, shown, 'reviews-together-host');

  // ruan's next request: before accepting, the host reads his record (the host's review, now shown).
  const car = await freeCarOf(request, HOST);
  const asked = await request.post('/api/booking/create', {
    headers: { authorization: `Bearer ${await apiToken(request, RENTER)}` },
    data: { car_username: car.car_username, start_date: addDays(E2E_TODAY, 10), end_date: addDays(E2E_TODAY, 12), is_hourly_booking: false },
  });
  expect(asked.ok(), await asked.text()).toBe(true);
  const next = ((await asked.json()) as { data: { booking_id: string } }).data;
  const request_ = await bookingCard(hostPage, next.booking_id, true);
  const record = request_.getByTestId('renter-record');
  await expect(record.getByText(/^★ 5\.0 · \d+ trips$/)).toBeVisible();
  await expect(request_.getByRole('button', { name: 'Accept' })).toBeVisible();
  await record.getByText('What hosts said (1)').click();
  await expect(record.getByText(/Ruan brought the car back clean and on time/)).toBeVisible();
  await expectNoAxeViolations(hostPage, 'the request card with the renter’s record', request_);
  await screens(hostPage, request_, 'reviews-request-renter-record');
});
