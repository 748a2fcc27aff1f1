// Deposits and trip charges after a trip (issue 34; decisions 064, 065, 070) in the real app, with a
// host, a renter and a car of their own: the car page and the checkout show the R 3 500 deposit and
// when it comes back; the trip is checked in and out and returned (through the API, as the trip
// screens' own spec does on screen); the host's Add trip charges offers fuel (2/8 of a 48-litre tank
// at R 23.45 a litre: R 281,40) and 120 extra km (320 km on a one-day trip of 200 km a day, at
// R 3.50: R 420) worked out from the records; the renter accepts R 701,40 and it is paid from the
// deposit; a cleaning charge of R 450 is disputed and the admin decides R 250 with a reason; once
// the claim window has closed (the server's test clock moved 73 hours on, the sweep job run) the
// rest of the deposit, R 2 548,60, goes back to the card. And (decision 073) a renter whose saved card
// is declined for the R 1 500 of a R 5 000 damage claim beyond the deposit pays it through the
// claim's payment link on screen, and the host reads it owed, then paid. Screenshots at 1280 and
// 390 px (test-results/screens/charges-*.png) and axe on each new state.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { E2E_NOW } from './clock';
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';
import {
  acceptTrip,
  advanceServerClock,
  call,
  DECLINES_LATER_CARD,
  dismissToasts,
  newListedCar,
  newVerifiedMember,
  payTrip,
  recordTrip,
  requestTripToday,
  resetServerClock,
  returnCar,
  runJob,
  shoot,
  type Member,
} from './money-journeys';

/** Rand as the screens write them ("R 3 500", "R 701,40"), any space the formatter uses. */
const rand = (text: string) => new RegExp(text.replace(/ /g, '\\s'));
/** The same, with the text's own brackets and full stops taken literally. */
const randText = (text: string) => rand(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

async function signedInPage(page: Page, who: Member) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, who.username, who.password);
}

async function bookingCard(page: Page, bookingNumber: string, asHost: boolean): Promise<Locator> {
  await page.goto('/my-bookings');
  if (asHost) await page.getByRole('button', { name: 'Received bookings' }).click();
  const card = page.getByRole('article', { name: `Booking ${bookingNumber}` });
  await expect(card).toBeVisible();
  return card;
}

const receiptPhoto = () => sharp({ create: { width: 320, height: 240, channels: 3, background: '#a0522d' } }).jpeg().toBuffer();

test.afterEach(async ({ request }) => {
  // The next spec on this worker's server reads the run's own time again.
  await resetServerClock(request);
});

test('a deposit on the car page and at checkout; fuel and 120 extra km accepted and paid from it; a disputed cleaning charge decided by the admin; the rest released', async ({ page, browser, request }) => {
  test.setTimeout(300_000);
  const host = await newVerifiedMember(request, 'lindiwe', 'Lindiwe Khumalo');
  const renter = await newVerifiedMember(request, 'pieter', 'Pieter Botha');
  const car = await newListedCar(request, host);
  const carName = `${car.car_make} ${car.car_model}`;

  // The car page: the deposit and the distance in the trip terms, and with dates the deposit's day back.
  await signedInPage(page, renter);
  await page.goto(`/cars/${car.car_username}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(carName);
  const terms = page.getByTestId('car-trip-terms');
  await expect(terms).toContainText(rand('R 3 500 deposit, charged with the trip and back 72 hours after the return if nothing is claimed'));
  await expect(terms).toContainText(rand('200 km a day included, then R 3,50 a km'));
  await page.getByRole('button', { name: 'Today', exact: true }).click();
  const deposit = page.getByTestId('price-deposit');
  await expect(deposit).toContainText(/R\s3\s500 deposit, back by \w{3} \d{1,2} \w{3} if nothing is claimed/);
  await expectNoAxeViolations(page, 'the car page with its deposit');
  await shoot(page, 'charges-car-page-deposit', deposit);

  // The request (today 06:00 to tomorrow 06:00) and the host's yes, through the API; the renter pays on screen.
  const trip = await requestTripToday(request, renter, car);
  await bookingCard(page, trip.booking_id, false);
  await acceptAndPayOnScreen(page, trip, host, request);

  // The trip: the host checks in (Full, 42 000 km) and out (6/8, 42 320 km), then marks it returned.
  await recordTrip(request, trip, host, 'check_in', 42_000, 8);
  await recordTrip(request, trip, host, 'check_out', 42_320, 6);
  await returnCar(request, host, car, 42_320);

  // The host's charges, worked out from the records.
  const context = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await context.clock.install({ time: E2E_NOW });
  const hostPage = await context.newPage();
  await signedInPage(hostPage, host);
  let hostCard = await bookingCard(hostPage, trip.booking_id, true);
  let charges = hostCard.getByRole('region', { name: 'Deposit and trip charges' });
  await expect(charges.getByTestId('deposit-summary')).toContainText(rand('Deposit R 3 500: R 3 500 held until'));
  await charges.getByRole('button', { name: 'Add trip charges' }).click();
  let form = charges.getByRole('form', { name: 'Add trip charges' });
  const fuel = form.getByRole('checkbox', { name: /^Fuel/ });
  const km = form.getByRole('checkbox', { name: /^Extra kilometres/ });
  await expect(fuel).toBeChecked();
  await expect(km).toBeChecked();
  await expect(form).toContainText(rand('R 281,40'));
  await expect(form).toContainText(rand('R 420'));
  await expect(form).toContainText(/120 km/);
  await expect(form).toContainText(rand('at R 23,45 a litre'));
  await expect(form).toContainText(rand('120 km at R 3,50'));
  await form.getByLabel('What happened (optional)').fill('Returned with a quarter tank less and 320 km on the clock.');
  await expectNoAxeViolations(hostPage, 'the Add trip charges form', charges);
  await shoot(hostPage, 'charges-host-add-form', form);
  await form.getByRole('button', { name: 'File charges' }).click();
  await expect(hostPage.getByText('Trip Charges Filed', { exact: true })).toBeVisible();
  const firstClaim = charges.getByTestId('trip-claim').first();
  await expect(firstClaim).toContainText(rand('Trip charges of R 701,40'));
  await expect(firstClaim).toContainText('Waiting for the renter');

  // The renter accepts: paid from the deposit.
  await page.reload();
  let renterCharges = page.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByRole('region', { name: 'Deposit and trip charges' });
  let claim = renterCharges.getByTestId('trip-claim').first();
  await expect(claim).toContainText(rand('Trip charges of R 701,40'));
  await expect(claim).toContainText(/Answer by .*; unanswered, the charges are accepted\./);
  await expectNoAxeViolations(page, 'the renter’s claim to answer', renterCharges);
  await shoot(page, 'charges-renter-answer', claim);
  await claim.getByRole('button', { name: /^Accept R/ }).click();
  await expect(page.getByText('Charges Accepted', { exact: true })).toBeVisible();
  await expect(claim.getByTestId('claim-outcome')).toContainText(rand('Accepted. Paid R 701,40 from the deposit.'));
  await expect(renterCharges.getByTestId('deposit-summary')).toContainText(rand('Deposit R 3 500: R 701,40 paid trip charges · R 2 798,60 held until'));
  await dismissToasts(page);
  await expectNoAxeViolations(page, 'the accepted claim', renterCharges);
  await shoot(page, 'charges-renter-accepted', renterCharges);

  // A second claim, for cleaning, with a photo of the receipt: the renter disputes it.
  await hostPage.reload();
  hostCard = hostPage.getByRole('article', { name: `Booking ${trip.booking_id}` });
  charges = hostCard.getByRole('region', { name: 'Deposit and trip charges' });
  await charges.getByRole('button', { name: 'Add trip charges' }).click();
  form = charges.getByRole('form', { name: 'Add trip charges' });
  await expect(form).toContainText('The records show no fuel, extra kilometres or late return to charge.');
  await form.getByLabel('Cleaning (R)').fill('450');
  await form.getByLabel('Photos, receipts or a quote').setInputFiles({ name: 'valet-receipt.jpg', mimeType: 'image/jpeg', buffer: await receiptPhoto() });
  await form.getByLabel('What happened (optional)').fill('Sand and dog hair on the back seats; the valet charged R 450.');
  await form.getByRole('button', { name: 'File charges' }).click();
  await expect(hostPage.getByText('Trip Charges Filed', { exact: true })).toBeVisible();

  await page.reload();
  renterCharges = page.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByRole('region', { name: 'Deposit and trip charges' });
  claim = renterCharges.getByTestId('trip-claim').filter({ hasText: 'Cleaning' });
  await claim.getByRole('button', { name: 'Dispute' }).click();
  await claim.getByLabel('Why you dispute the charges').fill('Only a little sand from the beach; a full valet was not needed.');
  await expectNoAxeViolations(page, 'the dispute form', claim);
  await shoot(page, 'charges-renter-dispute', claim);
  await claim.getByRole('button', { name: 'Send dispute' }).click();
  await expect(page.getByText('Charges Disputed', { exact: true })).toBeVisible();
  await expect(claim).toContainText('Disputed: Karoo will decide');

  // The admin decides R 250 with a reason, beside both sides' words and the host's photo.
  const adminContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await adminContext.clock.install({ time: E2E_NOW });
  const adminPage = await adminContext.newPage();
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(adminPage, 'admin');
  await adminPage.goto('/admin?tab=bookings');
  const disputed = adminPage.getByTestId('disputed-claim').filter({ hasText: trip.booking_id });
  await expect(disputed).toContainText(rand('R 450 claimed'));
  await expect(disputed).toContainText('Only a little sand from the beach');
  await expect(disputed).toContainText('the valet charged R 450');
  const decide = disputed.getByRole('form', { name: `Decide the claim on ${trip.booking_id}` });
  await decide.getByLabel('Amount (R)').fill('250');
  await decide.getByLabel('Reason').fill('Some cleaning was needed, not a full valet');
  await expectNoAxeViolations(adminPage, 'the disputed claim with its decide form', disputed);
  await shoot(adminPage, 'charges-admin-decide', disputed);
  await decide.getByRole('button', { name: 'Decide' }).click();
  await expect(adminPage.getByText('Claim decided', { exact: true })).toBeVisible();
  await expect(adminPage.getByTestId('disputed-claim').filter({ hasText: trip.booking_id })).toHaveCount(0);

  await page.reload();
  renterCharges = page.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByRole('region', { name: 'Deposit and trip charges' });
  claim = renterCharges.getByTestId('trip-claim').filter({ hasText: 'Cleaning' });
  await expect(claim.getByTestId('claim-outcome')).toContainText(rand('Karoo decided R 250: Some cleaning was needed, not a full valet. Paid R 250 from the deposit.'));
  await expect(renterCharges.getByTestId('deposit-summary')).toContainText(rand('Deposit R 3 500: R 951,40 paid trip charges · R 2 548,60 held until'));

  // 73 hours on, the claim window has closed: the sweep sends the rest back to the card.
  await advanceServerClock(request, 73, [page]);
  await runJob(request, 'trip-charges.sweep');
  // Three days on, the renter's session has ended: they sign in again.
  await signedInPage(page, renter);
  await expect(async () => {
    await page.goto('/my-bookings');
    await expect(page.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByTestId('deposit-summary')).toContainText(
      rand('Deposit R 3 500: R 951,40 paid trip charges · R 2 548,60 back to the card.'),
      { timeout: 2_000 },
    );
  }).toPass({ timeout: 60_000 });
  renterCharges = page.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByRole('region', { name: 'Deposit and trip charges' });
  await expectNoAxeViolations(page, 'the deposit released', renterCharges);
  await shoot(page, 'charges-renter-released', renterCharges);
  await context.close();
  await adminContext.close();
});

test('a card declined for the damage beyond the deposit: the renter pays the R 1 500 still owed through the payment link', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const host = await newVerifiedMember(request, 'thandi', 'Thandi Zulu');
  const renter = await newVerifiedMember(request, 'johan', 'Johan Smit');
  const car = await newListedCar(request, host);
  // Through the API: the trip paid with the card that is declined when charged again, the car back,
  // R 5 000 of damage claimed and accepted: R 3 500 from the deposit, the card declines R 1 500.
  const trip = await requestTripToday(request, renter, car);
  await acceptTrip(request, trip, host);
  await payTrip(request, trip, renter, DECLINES_LATER_CARD);
  await returnCar(request, host, car, 41_200);
  const filed = await request.post(`/api/booking/${trip.id}/claims`, {
    headers: { authorization: `Bearer ${host.token}` },
    multipart: {
      claim: JSON.stringify({ items: [{ kind: 'damage', amount: 5000 }], statement: 'A dented rear bumper; the panel beater quoted R 5 000.' }),
      evidence: { name: 'quote.jpg', mimeType: 'image/jpeg', buffer: await receiptPhoto() },
    },
  });
  expect(filed.status(), await filed.text()).toBe(201);
  const claimId = ((await filed.json()) as { data: { id: string } }).data.id;
  const settled = await call<{ owed: number; payment_state: string }>(request, 'post', `/api/claims/${claimId}/answer`, renter.token, { answer: 'accept' });
  expect(settled).toMatchObject({ owed: 1500, payment_state: 'card_declined' });

  // The host reads what the renter still owes, and has nothing to pay.
  const hostContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await hostContext.clock.install({ time: E2E_NOW });
  const hostPage = await hostContext.newPage();
  await signedInPage(hostPage, host);
  const hostClaim = (await bookingCard(hostPage, trip.booking_id, true)).getByTestId('trip-claim');
  await expect(hostClaim.getByTestId('claim-outcome')).toContainText(randText("Paid R 3 500 from the deposit. The renter's card was declined: R 1 500 still owed by the renter."));
  await expect(hostClaim.getByRole('button', { name: /^Pay R/ })).toHaveCount(0);
  await shoot(hostPage, 'charges-link-host-owed', hostClaim);

  // The renter pays it on screen: the checkout of exactly R 1 500, then the claim reads paid.
  await signedInPage(page, renter);
  const charges = (await bookingCard(page, trip.booking_id, false)).getByRole('region', { name: 'Deposit and trip charges' });
  const claim = charges.getByTestId('trip-claim');
  await expect(claim.getByTestId('claim-outcome')).toContainText(randText('The card was declined (Declined by the bank: insufficient funds): R 1 500 is still owed.'));
  await expectNoAxeViolations(page, 'the claim the card declined, with its Pay button', charges);
  await shoot(page, 'charges-link-renter-owed', claim);
  await claim.getByRole('button', { name: rand('^Pay R 1 500$') }).click();
  const checkout = page.getByRole('dialog', { name: 'Secure checkout' });
  await expect(checkout.getByTestId('checkout-amount')).toHaveText(rand('^R 1 500$'));
  await expect(checkout.getByTestId('checkout-purpose')).toContainText(`trip charges of booking ${trip.booking_id}`);
  await expectNoAxeViolations(page, 'the checkout of the claim’s payment link', checkout);
  await shoot(page, 'charges-link-checkout');
  await checkout.getByLabel('Card number').fill('4084 0840 8408 4081');
  await checkout.getByLabel('Expiry (MM/YY)').fill('12/30');
  await checkout.getByLabel('CVV').fill('123');
  await checkout.getByRole('button', { name: /^Pay R/ }).click();
  await expect(page.getByText('Trip Charges Paid', { exact: true })).toBeVisible();
  await expect(claim.getByTestId('claim-outcome')).toContainText(randText('Accepted. Paid R 3 500 from the deposit and R 1 500 from the card.'));
  await expect(claim.getByTestId('claim-outcome')).not.toContainText('still owed');
  await expect(claim.getByRole('button', { name: /^Pay R/ })).toHaveCount(0);
  await dismissToasts(page);
  await shoot(page, 'charges-link-renter-paid', claim);

  await hostPage.reload();
  await expect(hostPage.getByRole('article', { name: `Booking ${trip.booking_id}` }).getByTestId('claim-outcome')).toContainText(randText('Paid R 3 500 from the deposit and R 1 500 from the card.'));
  await hostContext.close();
});

/** The host accepts (API); the renter pays on screen: the checkout's amount is the trip and the deposit. */
async function acceptAndPayOnScreen(page: Page, trip: { id: string; booking_id: string }, host: Member, request: APIRequestContext) {
  await acceptTrip(request, trip, host);
  await page.reload();
  const card = page.getByRole('article', { name: `Booking ${trip.booking_id}` });
  await card.getByRole('button', { name: 'Pay now' }).click();
  const checkout = page.getByRole('dialog', { name: 'Secure checkout' });
  await expect(checkout.getByTestId('checkout-deposit')).toContainText(/R\s3\s500 deposit, back by \w{3} \d{1,2} \w{3} if nothing is claimed/);
  await expectNoAxeViolations(page, 'the checkout with its deposit', checkout);
  await shoot(page, 'charges-checkout-deposit');
  await checkout.getByLabel('Card number').fill('4084 0840 8408 4081');
  await checkout.getByLabel('Expiry (MM/YY)').fill('12/30');
  await checkout.getByLabel('CVV').fill('123');
  await checkout.getByRole('button', { name: /^Pay R/ }).click();
  await expect(page.getByText('Payment Successful', { exact: true })).toBeVisible();
  await dismissToasts(page);
}
