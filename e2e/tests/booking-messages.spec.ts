// Booking messages (issue 21, decision 041) in the real app, two browsers at once: ruan asks for a
// car of host_ayanda (through the API), then each opens the booking's Messages from My Bookings in
// their own browser context; each sees the other's message appear without reloading, carried by
// the live stream (decision 083): while it is open nothing polls, so the message can only come
// through it. The booking is unpaid, so ruan's phone number is hidden from the host, with the reason. Screenshots at 1280 and 390 px (test-results/screens/messages-*.png); axe on
// the conversation.
import type { Page } from '@playwright/test';
import { MESSAGE_POLL_MS } from '@karoo/shared';
import { addDays, E2E_NOW, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, freeCarOf, loginThroughUi, test, waitForSettledPage } from './fixtures';

const RENTER = 'ruan';
const HOST = 'host_ayanda';
const SCREENS = 'test-results/screens';
const PHONE_HIDDEN = '[phone hidden until the booking is paid]';

async function openConversation(page: Page, bookingNumber: string, asHost: boolean) {
  await page.goto('/my-bookings');
  if (asHost) await page.getByRole('button', { name: 'Received bookings' }).click();
  const card = page.getByRole('article', { name: `Booking ${bookingNumber}` });
  await card.getByRole('button', { name: /^Messages/ }).click();
  return page.getByRole('dialog', { name: `Messages · ${bookingNumber}` });
}

test('the renter and the host message each other about a booking, each seeing the other\u2019s words appear', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const car = await freeCarOf(request, HOST);
  const renterToken = await apiToken(request, RENTER);
  const res = await request.post('/api/booking/create', {
    headers: { authorization: `Bearer ${renterToken}` },
    data: { car_username: car.car_username, start_date: addDays(E2E_TODAY, 20), end_date: addDays(E2E_TODAY, 22), start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const booking = ((await res.json()) as { data: { id: string; booking_id: string } }).data;

  // Two browsers at once: the renter's (the test's own page) and the host's.
  const hostContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await hostContext.clock.install({ time: E2E_NOW });
  const hostPage = await hostContext.newPage();
  await Promise.all([loginThroughUi(page, RENTER), loginThroughUi(hostPage, HOST)]);
  // Each signed-in page opens its live stream (GET /api/live, server-sent events) once loaded.
  const streams = [page, hostPage].map((p) => p.waitForResponse((r) => new URL(r.url()).pathname === '/api/live' && r.status() === 200));
  const [renterDialog, hostDialog] = await Promise.all([openConversation(page, booking.booking_id, false), openConversation(hostPage, booking.booking_id, true)]);
  await expect(renterDialog.getByText(/No messages yet/)).toBeVisible();
  await expect(hostDialog.getByText(/No messages yet/)).toBeVisible();
  for (const stream of await Promise.all(streams)) expect(stream.headers()['content-type']).toContain('text/event-stream');
  for (const p of [page, hostPage]) {
    await expect(p.locator('html')).toHaveAttribute('data-live', 'open');
    // The stream's `ready` reads the conversation again: let that finish before watching.
    await waitForSettledPage(p);
  }

  // While the stream is open the host's conversation does not poll: no request for it in longer than
  // a poll's interval. So what appears next came through the stream.
  const conversationReads: number[] = [];
  hostPage.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === `/api/booking/${booking.id}/messages`) conversationReads.push(Date.now());
  });
  await hostPage.waitForTimeout(MESSAGE_POLL_MS + 1_000);
  expect(conversationReads).toEqual([]);

  // The renter writes; the host's open conversation shows it, the phone number hidden until payment.
  await renterDialog.getByLabel('Your message').fill('Hi! Could I collect the car at 09:00? Call me on 082 555 1234.');
  await renterDialog.getByRole('button', { name: 'Send' }).click();
  await expect(renterDialog.getByText(`Call me on ${PHONE_HIDDEN}`, { exact: false })).toBeVisible();
  await expect(hostDialog.getByText(`Hi! Could I collect the car at 09:00? Call me on ${PHONE_HIDDEN}.`)).toBeVisible({ timeout: 15_000 });
  await expect(hostDialog.getByText(/hidden until the booking is paid, so that nobody is talked into paying outside Karoo/)).toBeVisible();

  // The host answers; the renter sees it appear.
  await hostDialog.getByLabel('Your message').fill('Yes, 09:00 is fine. See you then.');
  await hostDialog.getByRole('button', { name: 'Send' }).click();
  await expect(renterDialog.getByText('Yes, 09:00 is fine. See you then.')).toBeVisible({ timeout: 15_000 });
  await expect(hostDialog.getByRole('button', { name: /Report this message from/ })).toBeVisible();

  await page.screenshot({ path: `${SCREENS}/messages-renter-1280.png` });
  await hostPage.screenshot({ path: `${SCREENS}/messages-host-1280.png` });
  await expectNoAxeViolations(page, 'the renter\u2019s conversation', renterDialog);
  await expectNoAxeViolations(hostPage, 'the host\u2019s conversation', hostDialog);

  for (const p of [page, hostPage]) await p.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/messages-renter-390.png` });
  await hostPage.screenshot({ path: `${SCREENS}/messages-host-390.png` });
  await expect(renterDialog.getByRole('button', { name: 'Send' })).toBeInViewport();
  for (const p of [page, hostPage]) expect(await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, 'the renter\u2019s conversation at 390 px', renterDialog);
  await hostContext.close();
});
