// Document 3's bookings-and-money journey in the real app on the demo database: a verified renter
// requests a car of host_thabo starting today (E2E_TODAY in clock.ts), the host accepts in My
// Bookings, a declined card leaves the booking confirmed, the renter pays in the sandbox checkout,
// the host marks the car returned, the renter reviews the trip and the host the renter (the reviews
// appear together); the host sees the earnings, the car page shows the review and both were notified.
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, freeCarOf, loginThroughUi, test } from './fixtures';

async function logout(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}

/** The newest booking card of a car on My Bookings. */
function cardOf(page: Page, carName: string) {
  return page.getByTestId('booking-card').filter({ hasText: carName }).first();
}

async function expectNotification(page: Page, title: string) {
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const list = page.getByRole('dialog', { name: 'Notifications list' });
  await expect(list.getByRole('button', { name: new RegExp(`^${title}`) }).first()).toBeVisible();
  await expectNoAxeViolations(page, 'notifications list');
  await page.keyboard.press('Escape');
}

test('request, accept, decline then pay, return, review; earnings, car review and notifications', async ({ page, request }) => {
  // 50 s on a quiet machine; a CI run beside other work once took 120 s, so the ceiling that catches a hang is 4× the quiet time.
  test.setTimeout(200_000);
  const car = await freeCarOf(request, 'host_thabo');
  const carName = `${car.car_make} ${car.car_model}`;
  const comment = `Lovely ${carName}, spotless and easy pickup ${Date.now().toString(36)}.`;

  // 1. sipho requests the car for today (a one-day rental, so it has started when the host returns it).
  await loginThroughUi(page, 'sipho');
  await page.goto(`/cars/${car.car_username}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(carName);
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('dialog', { name: 'Confirm Booking Request' }).getByRole('button', { name: 'Send Request' }).click();
  await page.getByRole('dialog', { name: 'Booking Request Sent' }).getByRole('button', { name: 'Done' }).click();

  await page.goto('/my-bookings');
  await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
  let card = cardOf(page, carName);
  await expect(card.getByText("Awaiting host's answer", { exact: true })).toBeVisible();
  await expect(card.getByText('Booking Request', { exact: true })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Cancel Booking' })).toBeVisible();
  await expectNoAxeViolations(page, 'my bookings');
  await logout(page);

  // 2. host_thabo accepts it.
  await loginThroughUi(page, 'host_thabo');
  await expectNotification(page, 'New booking request');
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: 'Received bookings' }).click();
  await page.getByRole('button', { name: /^Requested/ }).click();
  card = cardOf(page, carName);
  await expect(card.getByText(/^New request · answer by \w{3} \d{1,2} \w{3,4}, \d{2}:\d{2}$/)).toBeVisible();
  await card.getByRole('button', { name: 'View details' }).click();
  await expect(card.getByText(/^Host fee \(\d+(\.\d+)?% of rental( and pickup)?\)$/)).toBeVisible();
  await expectNoAxeViolations(page, 'my bookings, received booking details');
  await card.getByLabel('Message to the renter (optional)').fill('See you at the pickup point!');
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('Booking Confirmed', { exact: true })).toBeVisible();
  await logout(page);

  // 3. sipho: a declined card leaves the booking confirmed; then the test card pays.
  await loginThroughUi(page, 'sipho');
  await expectNotification(page, 'Booking accepted');
  await page.goto('/my-bookings');
  card = cardOf(page, carName);
  await expect(card.getByText(/^Accepted · pay by \w{3} \d{1,2} \w{3,4}, \d{2}:\d{2}$/)).toBeVisible();
  await expect(card.getByText(/Expires in/)).toBeVisible();
  await card.getByRole('button', { name: 'Pay now' }).click();
  let checkout = page.getByRole('dialog', { name: 'Secure checkout' });
  await expect(checkout.getByText('Test mode — no real money moves')).toBeVisible();
  await expectNoAxeViolations(page, 'checkout dialog');
  await checkout.getByLabel('Card number').fill('4000000000000002');
  await expect(checkout.getByLabel('Card number')).toHaveValue('4000 0000 0000 0002');
  await checkout.getByLabel('Expiry (MM/YY)').fill('1230');
  await checkout.getByLabel('CVV').fill('123');
  await checkout.getByRole('button', { name: /^Pay R/ }).click();
  await expect(checkout.getByText('Your card was declined.')).toBeVisible();
  await checkout.getByRole('button', { name: 'Close dialog' }).click();
  await expect(page.getByText('Payment window closed. Booking not activated.')).toBeVisible();
  await page.reload();
  card = cardOf(page, carName);
  await expect(card.getByText(/^Accepted · pay by /)).toBeVisible();

  await card.getByRole('button', { name: 'Pay now' }).click();
  checkout = page.getByRole('dialog', { name: 'Secure checkout' });
  await checkout.getByLabel('Card number').fill('4084 0840 8408 4081');
  await checkout.getByLabel('Expiry (MM/YY)').fill('12/30');
  await checkout.getByLabel('CVV').fill('123');
  await checkout.getByRole('button', { name: /^Pay R/ }).click();
  await expect(page.getByText('Payment Successful', { exact: true })).toBeVisible();
  await expect(checkout).toHaveCount(0);
  card = cardOf(page, carName);
  // A one-day rental from today: paid and under way, never "Active".
  await expect(card.getByText(/^On trip · return \w{3} \d{1,2} \w{3,4}$/)).toBeVisible();
  await expect(card.getByText('Active', { exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page, 'my bookings, active');
  await logout(page);

  // 4. host_thabo marks the car returned.
  await loginThroughUi(page, 'host_thabo');
  await expectNotification(page, 'Booking paid');
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: /^Paid/ }).click();
  card = cardOf(page, carName);
  await card.getByRole('button', { name: 'Mark as Returned' }).click();
  const returnDialog = page.getByRole('dialog', { name: 'Mark as Returned' });
  await returnDialog.getByLabel('Condition notes').fill('Returned clean with a full tank.');
  await returnDialog.getByRole('button', { name: 'Confirm Return' }).click();
  await expect(page.getByText('Booking Completed', { exact: true })).toBeVisible();
  await logout(page);

  // 5. sipho reviews the trip.
  await loginThroughUi(page, 'sipho');
  await expectNotification(page, 'Trip completed');
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: /^Completed/ }).click();
  card = cardOf(page, carName);
  await card.getByRole('button', { name: 'Leave a review' }).click();
  const review = page.getByRole('dialog', { name: 'Leave a review' });
  await expect(review.getByTestId('rating-label')).toHaveText('Excellent');
  await review.getByRole('button', { name: 'Submit Review' }).click();
  await expect(review.getByText('Please write a comment about your trip.')).toBeVisible();
  await expectNoAxeViolations(page, 'review dialog, error shown');
  await review.getByRole('radio', { name: /^4 stars/ }).click();
  await expect(review.getByTestId('rating-label')).toHaveText('Very Good');
  await review.getByLabel('Your review').fill(comment);
  await expect(review.getByText(`${comment.length}/500`)).toBeVisible();
  await review.getByRole('button', { name: 'Submit Review' }).click();
  await expect(page.getByText('Review Submitted', { exact: true })).toBeVisible();
  await expect(cardOf(page, carName).getByRole('button', { name: 'Leave a review' })).toHaveCount(0);
  // Reviews go both ways and appear together (decision 043): not on the car's page yet.
  await page.goto(`/cars/${car.car_username}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(comment)).toHaveCount(0);
  await logout(page);

  // 6. host_thabo is told he can review sipho; he does, and both reviews appear.
  await loginThroughUi(page, 'host_thabo');
  await expectNotification(page, 'You can review now');
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: /^Completed/ }).click();
  card = cardOf(page, carName);
  await card.getByRole('region', { name: 'Reviews' }).getByRole('button', { name: 'Review the renter' }).click();
  const hostReview = page.getByRole('dialog', { name: 'Review the renter' });
  await hostReview.getByRole('radio', { name: /^5 stars/ }).click();
  await hostReview.getByLabel('Your review').fill('Sipho returned the car clean and on time.');
  await hostReview.getByRole('button', { name: 'Submit Review' }).click();
  await expect(hostReview).toBeHidden();
  await expect(cardOf(page, carName).getByRole('region', { name: 'Reviews' }).getByText(comment)).toBeVisible();

  // The car's page shows sipho's review now that both are in.
  await page.goto(`/cars/${car.car_username}`);
  await expect(page.getByText(comment)).toBeVisible();
  await expect(page.getByText(/\(\d+ reviews?\)/).first()).toBeVisible();
  await expectNoAxeViolations(page, 'car detail with reviews');

  // 7. host_thabo sees the earnings of the trip.
  await page.goto('/earnings');
  await expect(page.getByRole('heading', { name: 'Earnings', exact: true })).toBeVisible();
  await expect(page.getByText('Total Revenue')).toBeVisible();
  await expectNoAxeViolations(page, 'earnings');
  const row = page.getByTestId('earning-row').filter({ hasText: carName }).first();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: /^Invoice for booking/ }).click();
  const invoice = page.getByRole('dialog', { name: /^Invoice INV-/ });
  await expect(invoice.getByText('Your earnings', { exact: true }).first()).toBeVisible();
  // The invoice names the car, the renter and the host, and the host fee at the booking's rate.
  await expect(invoice.getByText(new RegExp(`^\\d{4} ${carName}$`))).toBeVisible();
  await expect(invoice.getByText(/ · plate /)).toBeVisible();
  await expect(invoice.getByText('(sipho)')).toBeVisible();
  await expect(invoice.getByText('(host_thabo)')).toBeVisible();
  await expect(invoice.getByText(/^Host fee \(\d+(\.\d+)?% of rental( and pickup)?\)$/)).toBeVisible();
  await expect(invoice.getByText(car.car_username)).toHaveCount(0);
  await expectNoAxeViolations(page, 'invoice dialog');
  await invoice.getByRole('button', { name: 'Close', exact: true }).click();
});
