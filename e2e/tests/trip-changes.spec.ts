// Changing a paid trip (issue 36, "Must show"; decision 081), in the real app: a renter extends a
// paid trip by a day and pays the difference once the host accepts on their card; another renter
// shortens theirs and gets back the refund the dialog showed. The amounts on screen are worked by
// hand: a R 600 car, a 10% service fee and a 25% host fee. The dialog and both cards are photographed
// at 1280 and 390 px (test-results/screens/trip-change-*.png) and checked with axe.
import type { Locator, Page } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';
import { acceptTrip, call, dismissToasts, newListedCar, newVerifiedMember, payTrip, shoot, type Member, type TermsCar, type Trip } from './money-journeys';

/** Text with rand as the screens write them ("R 1 980"): any space the formatter uses, or none between a label and its figure. */
const rand = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s*'));

async function bookingCard(page: Page, bookingNumber: string, asHost: boolean): Promise<Locator> {
  await page.goto('/my-bookings');
  if (asHost) await page.getByRole('button', { name: 'Received bookings' }).click();
  const card = page.getByRole('article', { name: `Booking ${bookingNumber}` });
  await expect(card).toBeVisible();
  return card;
}

/** A paid trip of `days` days from five days after the run's today, 09:00 to 17:00. */
async function paidTrip(request: Parameters<typeof newListedCar>[0], renter: Member, host: Member, car: TermsCar, days: number): Promise<Trip & { start: string; end: string }> {
  const start = addDays(E2E_TODAY, 5);
  const end = addDays(start, days);
  const trip = await call<Trip>(request, 'post', '/api/booking/create', renter.token, { car_username: car.car_username, start_date: start, end_date: end, start_time: '09:00', end_time: '17:00', is_hourly_booking: false });
  await acceptTrip(request, trip, host);
  await payTrip(request, trip, renter);
  return { ...trip, start, end };
}

test('a renter extends a paid trip by a day; the host accepts on their card and the difference is charged', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const host = await newVerifiedMember(request, 'zanele', 'Zanele Mokoena');
  const renter = await newVerifiedMember(request, 'johan', 'Johan van Wyk');
  const car = await newListedCar(request, host);
  const trip = await paidTrip(request, renter, host, car, 2);

  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, renter.username, renter.password);
  const card = await bookingCard(page, trip.booking_id, false);
  const changes = card.getByRole('region', { name: 'Trip changes' });
  await changes.getByRole('button', { name: 'Change trip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change trip' });
  await dialog.getByLabel('Return date').fill(addDays(trip.end, 1));
  // Two days (R 1 200 + R 120 fee = R 1 320) become three (R 1 800 + R 180 = R 1 980): R 660 more.
  const quote = dialog.getByTestId('trip-change-quote');
  await expect(quote).toContainText(rand('Trip now R 1 320'));
  await expect(quote).toContainText(rand('New trip (3 days) R 1 980'));
  await expect(quote).toContainText(rand('You pay now R 660'));
  await dialog.getByLabel('Message to the host (optional)').fill('My flight home moved to a day later.');
  await expectNoAxeViolations(page, 'the change trip dialog', dialog);
  await shoot(page, 'trip-change-dialog', dialog);
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Request Sent', { exact: true })).toBeVisible();
  await expect(changes.getByTestId('pending-trip-change')).toContainText('You asked to change the trip to');

  // The host, on their card: the request, their earnings' difference (R 600 less the 25% fee), Accept.
  const context = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  const hostPage = await context.newPage();
  await hostPage.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(hostPage, host.username, host.password);
  const hostCard = await bookingCard(hostPage, trip.booking_id, true);
  const pending = hostCard.getByTestId('pending-trip-change');
  await expect(pending).toContainText(rand('New trip total R 1 980 · your earnings +R 450'));
  await expect(pending).toContainText('My flight home moved to a day later.');
  await expectNoAxeViolations(hostPage, 'the host card with a change request', hostCard);
  await shoot(hostPage, 'trip-change-host', pending);
  await pending.getByRole('button', { name: 'Accept change' }).click();
  await expect(hostPage.getByText('Trip Changed', { exact: true })).toBeVisible();
  await expect(hostCard.getByTestId('trip-change').first()).toContainText(rand('Accepted'));
  await expect(hostCard.getByTestId('trip-change').first()).toContainText(rand('your earnings +R 450'));
  await context.close();

  // The renter: the trip's new total, and the charge.
  await page.reload();
  const after = page.getByRole('article', { name: `Booking ${trip.booking_id}` });
  await expect(after.getByTestId('trip-change').first()).toContainText(rand('R 660 charged'));
  await expect(after).toContainText(rand('R 1 980'));
  await dismissToasts(page);
  await shoot(page, 'trip-change-renter', after);
});

test('a renter shortens a paid trip by a day and gets back the refund the dialog showed', async ({ page, request }) => {
  test.setTimeout(180_000);
  const host = await newVerifiedMember(request, 'thandi', 'Thandi Nkosi');
  const renter = await newVerifiedMember(request, 'ruan', 'Ruan Pretorius');
  const car = await newListedCar(request, host);
  const trip = await paidTrip(request, renter, host, car, 3);

  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, renter.username, renter.password);
  const card = await bookingCard(page, trip.booking_id, false);
  await card.getByRole('region', { name: 'Trip changes' }).getByRole('button', { name: 'Change trip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change trip' });
  await dialog.getByLabel('Return date').fill(addDays(trip.end, -1));
  // Three days (R 1 980) become two (R 1 320), five days ahead: free, so all R 660 comes back.
  const quote = dialog.getByTestId('trip-change-quote');
  await expect(quote).toContainText(rand('You get back R 660'));
  await expect(quote).not.toContainText('Kept by the cancellation policy');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Request Sent', { exact: true })).toBeVisible();

  // The host accepts (as their card's Accept does); the renter sees the refund.
  const [change] = await call<{ id: string }[]>(request, 'get', `/api/booking/${trip.id}/changes`, host.token);
  await call(request, 'patch', `/api/booking/changes/${change!.id}/accept`, host.token, {});
  await page.reload();
  const after = page.getByRole('article', { name: `Booking ${trip.booking_id}` });
  await expect(after.getByTestId('trip-change').first()).toContainText(rand('R 660 refunded'));
  await expect(after).toContainText(rand('R 1 320'));
  await expect(after.getByTestId('booking-refund').first()).toContainText(rand('R 660'));
  await shoot(page, 'trip-change-refund', after);
});
