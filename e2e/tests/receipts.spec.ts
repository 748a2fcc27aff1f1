// Receipts and invoices (issue 20 "Receipts", decision 040) in the real app: ruan books a car of
// host_ayanda for today, host_ayanda accepts, ruan pays with the sandbox test card (all through the
// API, as the checkout does); ruan downloads the receipt from My Bookings; the host returns the car,
// then downloads the invoice from My Bookings and from Earnings. Each PDF is read back with
// pdftotext (the amounts are the booking's own) and rendered to PNG beside the screenshots
// (test-results/screens/receipt-*.png) to look at.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Download, Locator, Page } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, freeCarOf, loginThroughUi, test } from './fixtures';

const RENTER = 'ruan';
const HOST = 'host_ayanda';
const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };
const SCREENS = 'test-results/screens';

interface PaidBooking {
  id: string;
  booking_id: string;
  total_price: number;
  deposit: number;
  car_owner_earnings: number;
}

async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'patch', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: { authorization: `Bearer ${token}` }, ...(method === 'get' ? {} : { data: data ?? {} }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** Rand as the app writes them ("R 1 250", "R 172,50"), with plain spaces as pdftotext gives them. */
function rand(amount: number): string {
  const cents = !Number.isInteger(amount);
  return new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', minimumFractionDigits: cents ? 2 : 0, maximumFractionDigits: cents ? 2 : 0 })
    .format(amount)
    .replace(/\s/g, ' ');
}

/** Clicks the link, waits for the PDF, keeps it and its first page as PNG; answers its text. */
async function downloadPdf(page: Page, link: Locator, name: string): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  mkdirSync(SCREENS, { recursive: true });
  const file = `${SCREENS}/${name}.pdf`;
  await download.saveAs(file);
  expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
  execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', '-singlefile', file, `${SCREENS}/${name}`]);
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8').replace(/\u00a0/g, ' ');
  return { download, text };
}

/** The amount at the end of the line that starts with `label` ("R0" when pdftotext drops the space). */
function amountOn(text: string, label: string): string {
  const line = text.split('\n').map((l) => l.trim()).find((l) => l.startsWith(label));
  expect(line, `a line "${label}" in:\n${text}`).toBeDefined();
  return /(-?R ?[\d ]*\d(?:,\d{2})?)$/.exec(line!)![1]!;
}

async function logout(page: Page) {
  await page.evaluate(() => window.localStorage.clear());
}

test('the renter downloads the receipt and the host the invoice of a paid trip, from My Bookings and Earnings', async ({ page, request }) => {
  test.setTimeout(120_000);
  const car = await freeCarOf(request, HOST);
  const renter = await apiToken(request, RENTER);
  const host = await apiToken(request, HOST);
  const created = await call<{ id: string }>(request, 'post', '/api/booking/create', renter, {
    car_username: car.car_username,
    start_date: E2E_TODAY,
    end_date: addDays(E2E_TODAY, 1),
    start_time: '09:00',
    end_time: '17:00',
    is_hourly_booking: false,
  });
  await call(request, 'patch', `/api/booking/approve/${created.id}`, host, {});
  const session = await call<{ reference: string }>(request, 'post', `/api/booking/${created.id}/payment-session`, renter);
  await call(request, 'post', '/api/payments/sandbox/charge', renter, { ...CARD, reference: session.reference });
  // As the host sees it: the host's earnings are not the renter's to read.
  const booking = await call<PaidBooking>(request, 'get', `/api/booking/${created.id}`, host);

  // ruan: the receipt of the paid trip, from the booking's card.
  await loginThroughUi(page, RENTER);
  await page.goto('/my-bookings');
  let card = page.getByRole('article', { name: `Booking ${booking.booking_id}` });
  const receiptLink = card.getByRole('button', { name: 'Download receipt' });
  await expect(receiptLink).toBeVisible();
  await expect(card.getByRole('button', { name: 'Download invoice' })).toHaveCount(0);
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/receipt-my-bookings-1280.png` });
  await expectNoAxeViolations(page, 'my bookings with a receipt link');
  const receipt = await downloadPdf(page, receiptLink, 'receipt-renter');
  expect(receipt.download.suggestedFilename()).toBe(`karoo-receipt-${booking.booking_id}.pdf`);
  expect(receipt.text).toContain('Receipt');
  expect(receipt.text).toMatch(new RegExp(`Booking no\\.\\s+${booking.booking_id}`));
  expect(receipt.text).toContain('Ruan Botha');
  expect(receipt.text).toContain('Ayanda Ngcobo');
  expect(receipt.text).toContain(`${car.car_make} ${car.car_model}`);
  expect(amountOn(receipt.text, 'Total trip price')).toBe(rand(booking.total_price));
  // The deposit is charged with the trip (decision 064) and named on the receipt as its own line.
  expect(amountOn(receipt.text, 'Deposit, with the card payment')).toBe(rand(booking.deposit));
  expect(amountOn(receipt.text, 'Net amount paid')).toBe(rand(booking.total_price + booking.deposit));
  expect(receipt.text).toContain('Karoo is not registered for VAT; no VAT is charged.');

  await page.setViewportSize({ width: 390, height: 844 });
  card = page.getByRole('article', { name: `Booking ${booking.booking_id}` });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole('button', { name: 'Download receipt' })).toBeInViewport();
  await page.screenshot({ path: `${SCREENS}/receipt-my-bookings-390.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await logout(page);

  // host_ayanda: the trip is returned, then the invoice from My Bookings and from Earnings.
  await call(request, 'patch', `/api/car/returnCar/${car.car_username}`, host, { condition_notes: 'Returned clean.' });
  await loginThroughUi(page, HOST);
  await page.goto('/my-bookings');
  await page.getByRole('button', { name: 'Received bookings' }).click();
  card = page.getByRole('article', { name: `Booking ${booking.booking_id}` });
  const invoiceLink = card.getByRole('button', { name: 'Download invoice' });
  await expect(invoiceLink).toBeVisible();
  await expect(card.getByRole('button', { name: 'Download receipt' })).toHaveCount(0);
  const invoice = await downloadPdf(page, invoiceLink, 'receipt-host-invoice');
  expect(invoice.download.suggestedFilename()).toBe(`karoo-invoice-${booking.booking_id}.pdf`);
  expect(invoice.text).toContain('Invoice');
  expect(invoice.text).toMatch(/Status\s+Completed on /);
  expect(amountOn(invoice.text, 'Paid by the renter')).toBe(rand(booking.total_price));
  expect(amountOn(invoice.text, 'Your share')).toBe(rand(booking.car_owner_earnings));
  expect(amountOn(invoice.text, 'Still to be paid to you')).toBe(rand(booking.car_owner_earnings));

  await page.goto('/earnings');
  const row = page.getByTestId('earning-row').filter({ hasText: booking.booking_id });
  const earningsLink = row.getByRole('button', { name: `Download invoice for booking ${booking.booking_id}` });
  await expect(earningsLink).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SCREENS}/receipt-earnings-1280.png` });
  await expectNoAxeViolations(page, 'earnings with invoice downloads');
  const fromEarnings = await downloadPdf(page, earningsLink, 'receipt-earnings-invoice');
  expect(fromEarnings.download.suggestedFilename()).toBe(`karoo-invoice-${booking.booking_id}.pdf`);
  expect(amountOn(fromEarnings.text, 'Your share')).toBe(rand(booking.car_owner_earnings));

  await page.setViewportSize({ width: 390, height: 844 });
  await row.scrollIntoViewIfNeeded();
  await expect(earningsLink).toBeInViewport();
  await page.screenshot({ path: `${SCREENS}/receipt-earnings-390.png` });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
});
