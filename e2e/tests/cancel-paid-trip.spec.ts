// Cancelling a paid trip by the published policy (issue 20, "Must show"), in the real app: every
// cancel dialog shows, before anyone confirms, what each side gets back or pays (the amounts on
// screen are checked against the server's quote, which the same shared function computes, and
// worked out by hand where the policy is simple):
// (a) a renter cancels inside the free window: everything back, the refund on My Bookings and in a
//     notification, and the host's earnings do not count the trip;
// (b) a renter cancels late: the fee is shown before confirming, and the host's earnings show their
//     share of it. "Late" needs the server's clock a day and a half after the payment (a trip paid
//     less than 25 hours before its start is free for an hour after payment, so a trip starting
//     soon is not late yet): this test runs its own server on a fresh database, pays, stops it, and
//     starts it again on the same database with its clock moved on, as time would;
// (c) a host cancels and sees the penalty (the renter gets everything back);
// (d) an administrator cancels with a chosen amount and a reason.
// Each dialog is photographed at 1280 and 390 px (test-results/screens/cancel-trip-*.png) and
// checked with axe. Payments go through the sandbox with the test card, as the checkout does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as playwrightRequest, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { addDays, E2E_NOW, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test, trackRequests } from './fixtures';

const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };
const SCREENS = 'test-results/screens';

interface ListedCar {
  car_username: string;
  car_make: string;
  car_model: string;
  car_owner: string;
}

interface PaidBooking {
  id: string;
  booking_id: string;
  total_price: number;
  subtotal: number;
  carName: string;
}

interface Quote {
  can_cancel: boolean;
  refund: number;
  fee: number;
  host_share: number;
  platform_share: number;
  host_penalty: number;
  free_until: string;
  policy: string;
}

async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'patch', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, ...(method === 'get' ? {} : { data: data ?? {} }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/**
 * A trip of one of `owner`'s cars from `start` for `days` days, requested by `renter`, accepted by
 * the host and paid with the sandbox's test card. Tries the host's cars in turn until one is free.
 */
async function paidTrip(request: APIRequestContext, renterName: string, owner: string, start: string, days: number): Promise<PaidBooking> {
  const renter = await apiToken(request, renterName);
  const host = await apiToken(request, owner);
  const list = await request.get(`/api/car/getCarList?limit=48&owner=${owner}`);
  const cars = ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner === owner);
  for (const car of cars) {
    const res = await request.post('/api/booking/create', {
      headers: { authorization: `Bearer ${renter}` },
      data: { car_username: car.car_username, start_date: start, end_date: addDays(start, days), start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
    });
    if (res.status() === 409) continue;
    expect(res.ok(), `booking ${car.car_username}: ${res.status()} ${await res.text()}`).toBe(true);
    const booking = ((await res.json()) as { data: Omit<PaidBooking, 'carName'> }).data;
    await call(request, 'patch', `/api/booking/approve/${booking.id}`, host);
    const session = await call<{ reference: string }>(request, 'post', `/api/booking/${booking.id}/payment-session`, renter);
    const charge = await call<{ status: string }>(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: session.reference });
    expect(charge.status).toBe('success');
    return { ...booking, carName: `${car.car_make} ${car.car_model}` };
  }
  throw new Error(`No car of ${owner} is free from ${start}`);
}

async function quoteOf(request: APIRequestContext, username: string, bookingId: string, query = ''): Promise<Quote> {
  return call<Quote>(request, 'get', `/api/booking/${bookingId}/cancellation${query}`, await apiToken(request, username));
}

async function earningsOf(request: APIRequestContext, username: string): Promise<number> {
  return (await call<{ total_earnings: number }>(request, 'get', '/api/earnings/earning/getSummary', await apiToken(request, username))).total_earnings;
}

async function logout(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}

/** The rand formatter's text of an amount ("R 1 155", "R 231,50"), as a pattern: spaces of any kind. */
function randSource(amount: number): string {
  const [whole, cents] = Math.abs(amount).toFixed(2).split('.') as [string, string];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '\\s');
  return `R\\s${grouped}${cents === '00' ? '' : `,${cents}`}`;
}

/** Exactly the amount ("-R 350" for a deduction). */
const randPattern = (amount: number, minus = false) => new RegExp(`^${minus ? '-' : ''}${randSource(amount)}$`);
/** The amount inside a longer text. */
const randIn = (amount: number) => new RegExp(`${randSource(amount)}(?![\\d,])`);

/** The amount on one row of a dialog's amounts (AmountRows), by its test id. */
function amountOf(dialog: Locator, testId: string): Locator {
  return dialog.getByTestId(testId).locator('dd');
}

/**
 * Photographs the open dialog at 1280 and at 390 px (there with `amounts` scrolled into view: the
 * body scrolls between the title and the buttons), checks it with axe at both, and leaves the page
 * at 1280.
 */
async function photographDialog(page: Page, dialog: Locator, name: string, amounts: Locator) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, `${name} dialog, 1280`, dialog);
  await page.screenshot({ path: `${SCREENS}/cancel-trip-${name}-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(dialog).toBeVisible();
  // Nothing wider than the phone: the amounts and buttons fit.
  expect(await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await amounts.scrollIntoViewIfNeeded();
  // The confirm button stays on screen whatever the body's length.
  await expect(dialog.getByRole('button', { name: /^(Cancel trip|Report no-show)$/ })).toBeInViewport();
  await expectNoAxeViolations(page, `${name} dialog, 390`, dialog);
  await page.screenshot({ path: `${SCREENS}/cancel-trip-${name}-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function expectNotification(page: Page, title: string) {
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const list = page.getByRole('dialog', { name: 'Notifications list' });
  await expect(list.getByRole('button', { name: new RegExp(`^${title}`) }).first()).toBeVisible();
  await page.keyboard.press('Escape');
}

function cardOf(page: Page, bookingNumber: string): Locator {
  return page.getByRole('article', { name: `Booking ${bookingNumber}` });
}

test('(a) a renter cancels a paid trip inside the free window: everything back, on My Bookings and in a notification; the host earns nothing from it', async ({ page, request }) => {
  test.setTimeout(150_000);
  const before = await earningsOf(request, 'host_lerato');
  // Far after every other journey's dates: free to cancel until the day before.
  const trip = await paidTrip(request, 'aisha', 'host_lerato', addDays(E2E_TODAY, 250), 2);
  const quote = await quoteOf(request, 'aisha', trip.id);
  expect([quote.can_cancel, quote.refund, quote.fee]).toEqual([true, trip.total_price, 0]);

  await loginThroughUi(page, 'aisha');
  await page.goto('/my-bookings');
  const card = cardOf(page, trip.booking_id);
  await card.getByRole('button', { name: 'Cancel trip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel your trip?' });
  await expect(amountOf(dialog, 'cancel-refund')).toHaveText(randPattern(trip.total_price));
  await expect(dialog.getByTestId('cancel-fee')).toHaveCount(0);
  await expect(dialog.getByTestId('free-window')).toHaveText(/^Free cancellation until \w{3} \d{1,2} \w{3,4}, 09:00$/);
  await expect(dialog).toContainText(quote.policy);
  await photographDialog(page, dialog, 'renter-free', dialog.getByTestId('cancel-refund'));

  await dialog.getByRole('button', { name: 'Cancel trip' }).click();
  await expect(page.getByText('Trip Cancelled', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // My Bookings: cancelled, by whom, and the refund with its state (the sandbox accepts at once).
  await expect(card.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(card.getByTestId('trip-cancellation')).toContainText('You cancelled this trip');
  await expect(card.getByTestId('trip-cancellation')).toContainText('all of it is refunded');
  const refund = card.getByTestId('booking-refund');
  await expect(refund).toContainText(/^(Refunded R\s?[\d\s]+ on |Refund on its way: R\s?[\d\s]+)/);
  await expect(refund).toContainText(randIn(trip.total_price));
  await expect(card.getByRole('button', { name: 'Cancel trip' })).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/cancel-trip-renter-cancelled-1280.png` });
  await expectNoAxeViolations(page, 'my bookings, a cancelled paid trip');
  await expectNotification(page, 'Trip cancelled');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/cancel-trip-renter-cancelled-390.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await logout(page);

  // The host's earnings do not count the trip: the same as before it was booked.
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, 'host_lerato');
  await expectNotification(page, 'Trip cancelled');
  await page.goto('/earnings');
  const earnings = page.getByRole('region', { name: 'Earnings summary' }).getByText('Your Earnings').locator('xpath=../..');
  await expect(earnings).toContainText(randIn(before));
  expect(await earningsOf(request, 'host_lerato')).toBe(before);
});

test('(c) a host cancels a paid trip: the renter gets everything back, the host sees the penalty from their next payout', async ({ page, request }) => {
  test.setTimeout(150_000);
  // More than 24 hours ahead: the early penalty (R 250 in the demo settings).
  const trip = await paidTrip(request, 'sipho', 'host_thabo', addDays(E2E_TODAY, 255), 3);
  const quote = await quoteOf(request, 'host_thabo', trip.id);
  expect([quote.refund, quote.host_penalty]).toEqual([trip.total_price, 250]);

  await loginThroughUi(page, 'host_thabo');
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: 'Received bookings' }).click();
  const card = cardOf(page, trip.booking_id);
  await card.getByRole('button', { name: 'Cancel trip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this trip?' });
  await expect(amountOf(dialog, 'cancel-refund')).toHaveText(randPattern(trip.total_price));
  await expect(amountOf(dialog, 'cancel-penalty')).toHaveText(randPattern(250));
  await expect(dialog.getByTestId('penalty-note')).toHaveText(/^R\s250 will be deducted from your next payout\.$/);
  await photographDialog(page, dialog, 'host', dialog.getByTestId('penalty-note'));

  await dialog.getByRole('button', { name: 'Cancel trip' }).click();
  await expect(page.getByText('Trip Cancelled', { exact: true })).toBeVisible();
  await expect(card.getByTestId('trip-cancellation')).toContainText('You cancelled this trip');
  await expect(card.getByTestId('trip-cancellation')).toContainText(/A R\s250 cancellation penalty will be deducted from your next payout\./);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/cancel-trip-host-cancelled-1280.png` });
  await expectNoAxeViolations(page, 'my bookings, a trip the host cancelled');
  await logout(page);

  // The renter was told, and gets everything back.
  await loginThroughUi(page, 'sipho');
  await expectNotification(page, 'Trip cancelled');
  await page.goto('/my-bookings');
  const renterCard = cardOf(page, trip.booking_id);
  await expect(renterCard.getByTestId('trip-cancellation')).toContainText('The host cancelled this trip');
  await expect(renterCard.getByTestId('booking-refund')).toContainText(/R\s?[\d\s]+/);
});

test('(d) an administrator cancels a paid trip with a chosen amount and a reason, seeing live what each side gets', async ({ page, request }) => {
  test.setTimeout(150_000);
  const trip = await paidTrip(request, 'aisha', 'host_lerato', addDays(E2E_TODAY, 262), 4);
  const amount = 300;
  const quote = await quoteOf(request, 'admin', trip.id, `?refund=amount&refund_amount=${amount}`);
  expect([quote.refund, quote.fee]).toEqual([amount, trip.total_price - amount]);
  const reason = 'The car was not roadworthy at pickup; the renter agreed to this refund.';

  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Bookings' }).click();
  await page.getByLabel('Search bookings').fill(trip.booking_id);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByTestId('booking-row').filter({ hasText: trip.booking_id });
  await row.getByRole('button', { name: `Cancel trip ${trip.booking_id}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel paid trip' });
  // The full refund first, then an amount: the figures follow the choice as it is typed.
  await expect(amountOf(dialog, 'admin-cancel-refund')).toHaveText(randPattern(trip.total_price));
  await dialog.getByRole('radio', { name: /An amount/ }).check();
  await dialog.getByLabel('Amount to refund (R)').fill(String(amount));
  await expect(amountOf(dialog, 'admin-cancel-refund')).toHaveText(randPattern(quote.refund));
  await expect(amountOf(dialog, 'admin-cancel-fee')).toHaveText(randPattern(quote.fee));
  await expect(amountOf(dialog, 'admin-cancel-host-share')).toHaveText(randPattern(quote.host_share));
  await expect(amountOf(dialog, 'admin-cancel-platform-share')).toHaveText(randPattern(quote.platform_share));
  // A reason is required with an amount.
  await dialog.getByRole('button', { name: 'Cancel trip' }).click();
  await expect(dialog.getByText('Give a reason for this amount: the renter and the host are told it.')).toBeVisible();
  await dialog.getByLabel('Reason (required)').fill(reason);
  await photographDialog(page, dialog, 'admin', dialog.getByTestId('admin-cancel-platform-share'));

  await dialog.getByRole('button', { name: 'Cancel trip' }).click();
  await expect(page.getByText('Trip Cancelled', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText('Cancelled');
  await expect(row.getByText(/^Refund R\s300 \((refunded|pending)\)$/)).toBeVisible();

  // Audited with the money and the reason.
  const token = await apiToken(request, 'admin');
  const audit = await request.get('/api/admin/audit?action=booking.cancelled', { headers: { authorization: `Bearer ${token}` } });
  expect(audit.status()).toBe(200);
  const rows = ((await audit.json()) as { data: { target_label: string | null; reason: string | null; after: Record<string, unknown> | null }[] }).data;
  const entry = rows.find((e) => e.target_label === trip.booking_id);
  expect(entry?.reason).toBe(reason);
  expect(entry?.after).toMatchObject({ rule: 'admin_amount', refund_cents: amount * 100 });
  // No refund failed along the way: the Finance tab's watch list says so in one line.
  await page.getByRole('tab', { name: 'Finance' }).click();
  await expect(page.getByText('No failed refunds.')).toBeVisible();
  await logout(page);

  // The renter reads it on My Bookings.
  await loginThroughUi(page, 'aisha');
  await page.goto('/my-bookings');
  const card = cardOf(page, trip.booking_id);
  await expect(card.getByTestId('trip-cancellation')).toContainText('Karoo cancelled this trip');
  await expect(card.getByTestId('booking-refund')).toContainText(/R\s300/);
});

// ---- (b): the server's clock moved on between the payment and the cancellation ----

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built app on its own port and embedded database, with its clock starting at `now`. */
class OwnServer {
  readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'karoo-e2e-cancel-'));
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get origin() {
    return `http://localhost:${this.port}`;
  }

  async start(now: string) {
    this.child = spawn(process.execPath, [path.join(ROOT, 'apps/api/dist/server.js')], {
      cwd: ROOT,
      // 'ipc': the server sends { type: 'listening' } the moment it listens (apps/api/src/server.ts).
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        KAROO_TEST_NOW: now,
        PORT: String(this.port),
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        SMTP_URL: '',
        SEED_DEMO: 'true',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '100000',
      },
    });
    // On the server's word, or its exit; the test's own timeout bounds the wait, not a guess of the machine's speed.
    const child = this.child;
    await new Promise<void>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`The test's own server exited (${code}) before it listened on port ${this.port}`));
      child.once('exit', onExit);
      child.on('message', (message: { type?: string }) => {
        if (message?.type !== 'listening') return;
        child.off('exit', onExit);
        resolve();
      });
    });
  }

  async stop() {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

test('(b) a late renter cancellation shows the fee before confirming, and the host earns their share of it', async ({ browser }) => {
  test.setTimeout(240_000);
  const server = new OwnServer(await freePort());
  const api = await playwrightRequest.newContext({ baseURL: server.origin });
  try {
    // Sunday 08:00: the renter books Wednesday 09:00 for three days and pays now.
    await server.start(E2E_NOW);
    const before = await earningsOf(api, 'host_lerato');
    const trip = await paidTrip(api, 'aisha', 'host_lerato', addDays(E2E_TODAY, 3), 3);
    expect((await quoteOf(api, 'aisha', trip.id)).fee).toBe(0);
    await server.stop();

    // Tuesday 10:00: the free window ended at 09:00 (24 hours before the start); 23 hours to go.
    const later = '2027-01-26T10:00:00+02:00';
    await server.start(later);
    const quote = await quoteOf(api, 'aisha', trip.id);
    // A trip of more than two days: the fee is one day's average rental, in whole rand.
    expect(quote.fee).toBe(Math.round(trip.subtotal / 3));
    expect(quote.refund).toBe(trip.total_price - quote.fee);
    expect(quote.host_share).toBeGreaterThan(0);

    const context = await browser.newContext({ baseURL: server.origin, locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
    await context.clock.install({ time: later });
    trackRequests(context);
    const page = await context.newPage();
    await loginThroughUi(page, 'aisha');
    await page.goto('/my-bookings');
    const card = cardOf(page, trip.booking_id);
    await card.getByRole('button', { name: 'Cancel trip' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel your trip?' });
    await expect(dialog.getByTestId('free-window')).toHaveText('Free cancellation ended Tue 26 Jan, 09:00');
    await expect(amountOf(dialog, 'cancel-fee')).toHaveText(randPattern(quote.fee, true));
    await expect(amountOf(dialog, 'cancel-refund')).toHaveText(randPattern(quote.refund));
    // The server and the screen agree: no "the server's amounts apply" note.
    await expect(dialog.getByText(/amounts that apply/)).toHaveCount(0);
    await photographDialog(page, dialog, 'renter-late', dialog.getByTestId('cancel-refund'));

    await dialog.getByRole('button', { name: 'Cancel trip' }).click();
    await expect(page.getByText('Trip Cancelled', { exact: true })).toBeVisible();
    await expect(card.getByTestId('trip-cancellation')).toContainText(new RegExp(`the cancellation fee of ${randSource(quote.fee)} is kept`));
    await expect(card.getByTestId('booking-refund')).toContainText(/R\s?[\d\s]+/);
    await logout(page);

    // The host: the cancellation on the booking, and their share of the fee in their earnings.
    await loginThroughUi(page, 'host_lerato');
    await page.goto('/my-bookings');
    await page.getByRole('button', { name: 'Received bookings' }).click();
    await expect(cardOf(page, trip.booking_id).getByTestId('trip-cancellation')).toContainText(new RegExp(`You earn ${randSource(quote.host_share)} of the`));
    await cardOf(page, trip.booking_id).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/cancel-trip-host-late-share-1280.png` });
    await page.goto('/earnings');
    const earnings = page.getByRole('region', { name: 'Earnings summary' }).getByText('Your Earnings').locator('xpath=../..');
    await expect(earnings).toContainText(randIn(before + quote.host_share));
    expect(await earningsOf(api, 'host_lerato')).toBe(before + quote.host_share);
    await expectNoAxeViolations(page, 'earnings with a cancellation fee share');
    await context.close();
  } finally {
    await api.dispose();
    await server.stop();
  }
});
