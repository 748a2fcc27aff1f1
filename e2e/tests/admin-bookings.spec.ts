// The admin Bookings tab (document 3, Bookings): the seeded admin sees the counters and the
// oversight warning, filters Pending (the demo data holds a few recent requests), approves one
// request (its row then shows Confirmed), and the audit log has a booking.confirmed row for it.
// Screenshot at 1280 px.
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

test('the admin filters pending bookings, approves one, and the approval is audited', async ({ page, request }) => {
  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Bookings' }).click();
  await expect(page).toHaveURL(/tab=bookings/);
  await expect(page.getByText('Access to booking details is for customer support, dispute resolution and oversight.', { exact: false })).toBeVisible();
  const counters = page.getByLabel('Booking counters');
  await expect(counters).toBeVisible();
  await expect(counters.getByText('Cancelled/Rejected')).toBeVisible();
  await expect(page.getByTestId('booking-row').first()).toBeVisible();
  await expectNoAxeViolations(page, 'admin bookings tab');

  // Filter Pending on the server: every row is pending and offers Approve.
  await page.getByLabel('Status').selectOption('pending');
  const rows = page.getByTestId('booking-row');
  await expect(rows.first()).toContainText('Pending');
  await expect(rows.filter({ hasNotText: 'Pending' })).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-bookings-1280.png', fullPage: true });

  const first = rows.first();
  const bookingId = (await first.locator('p.font-mono').textContent())!.trim();
  expect(bookingId).toMatch(/^K[RT][A-Z0-9]+$/);
  await first.getByRole('button', { name: `Approve ${bookingId}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve booking' });
  await dialog.getByLabel('Message to the renter (optional)').fill('Approved by Karoo support');
  await dialog.getByRole('button', { name: 'Approve booking' }).click();
  await expect(page.getByText('Booking Confirmed', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The booking now shows Confirmed (all statuses, found by its number).
  await page.getByLabel('Status').selectOption('');
  await page.getByLabel('Search bookings').fill(bookingId.toLowerCase());
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const approved = page.getByTestId('booking-row').filter({ hasText: bookingId });
  await expect(page.getByTestId('booking-row')).toHaveCount(1);
  await expect(approved).toContainText('Confirmed');
  await expect(approved.getByRole('button', { name: `Approve ${bookingId}` })).toHaveCount(0);
  // Confirmed and unpaid: the admin may still cancel it.
  await expect(approved.getByRole('button', { name: `Cancel ${bookingId}` })).toBeVisible();

  // The audit log has the approval.
  const token = await apiToken(request, 'admin');
  const response = await request.get('/api/admin/audit?action=booking.confirmed', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  const { data } = (await response.json()) as { data: { action: string; target_label: string | null; reason: string | null }[] };
  const entry = data.find((e) => e.target_label === bookingId);
  expect(entry, `audit rows: ${JSON.stringify(data.map((e) => e.target_label))}`).toBeDefined();
  expect(entry!.action).toBe('booking.confirmed');
  expect(entry!.reason).toBe('Approved by Karoo support');
});
