// The admin panel (document 3, Admin panel): the seeded admin signs in, lands on /admin and reads
// the Dashboard's counters, the same numbers the API counts; Refresh reloads them; a customer is
// sent away by the route guard.
import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

/** The parts of GET /api/admin/overview this journey reads. */
interface AdminOverview {
  counters: Record<'total_users' | 'total_cars' | 'total_bookings' | 'pending_user_verification' | 'pending_car_verification', number>;
  recent_users: { username: string }[];
  debug: { api_version: string; database: string };
}

const COUNTERS: [keyof AdminOverview['counters'], string][] = [
  ['total_users', 'Total Users'],
  ['total_cars', 'Total Cars'],
  ['total_bookings', 'Total Bookings'],
  ['pending_user_verification', 'Pending User Verification'],
  ['pending_car_verification', 'Pending Car Verification'],
];

async function fetchOverview(request: APIRequestContext): Promise<AdminOverview> {
  const token = await apiToken(request, 'admin');
  const response = await request.get('/api/admin/overview', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: AdminOverview }).data;
}

const counterValue = (page: Page, label: string) =>
  page.getByLabel('Platform counters').locator('div', { has: page.getByText(label, { exact: true }) }).locator('dd');

test('the admin signs in to the Dashboard, reads the counters the API counts, and refreshes them', async ({ page, request }) => {
  const expected = await fetchOverview(request);
  expect(expected.counters.total_users).toBeGreaterThanOrEqual(5);
  expect(expected.counters.total_cars).toBeGreaterThan(0);

  await loginThroughUi(page, 'admin');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Panel' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Dashboard' })).toHaveAttribute('aria-selected', 'true');
  await expectNoAxeViolations(page, 'admin dashboard tab');

  for (const [key, label] of COUNTERS) {
    await expect(counterValue(page, label).last()).toHaveText(expected.counters[key].toLocaleString('en-ZA'));
  }
  const recent = page.getByRole('region', { name: 'Recent Activity' });
  await expect(recent.getByRole('listitem')).toHaveCount(5);
  await expect(recent.getByRole('listitem').first()).toContainText(`@${expected.recent_users[0]!.username}`);
  const debug = page.getByRole('region', { name: 'Debug Info' });
  await expect(debug).toContainText('embedded PGlite');
  await expect(debug).toContainText(expected.debug.api_version);

  // Refresh asks the server again: a new request for the overview, and the page stays put.
  const reloaded = page.waitForResponse((r) => r.url().endsWith('/api/admin/overview') && r.status() === 200);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await reloaded;
  await expect(counterValue(page, 'Total Users').last()).toHaveText(expected.counters.total_users.toLocaleString('en-ZA'));

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-1280.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/admin-390.png', fullPage: true });
});

test('an administrator\'s settings change shows in the Audit Log tab with the values before and after', async ({ page, request }) => {
  const token = await apiToken(request, 'admin');
  const headers = { authorization: `Bearer ${token}` };
  // Two changes through the API (the Settings tab is a later release): on, then back off.
  expect((await request.put('/api/settings', { headers, data: { smsNotifications: true } })).status()).toBe(200);
  expect((await request.put('/api/settings', { headers, data: { smsNotifications: false } })).status()).toBe(200);

  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Audit Log' }).click();
  await expect(page).toHaveURL(/tab=audit/);
  await expectNoAxeViolations(page, 'admin audit log tab');
  await page.getByLabel('Action').selectOption('settings.changed');
  // Newest first: our two changes are the latest settings changes (other journeys may have made more).
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toContainText(/smsNotifications:\s*true\s*→\s*false/);
  await expect(rows.first()).toContainText('Changed the settings');
  await expect(rows.first()).toContainText('@admin');
  await expect(rows.nth(1)).toContainText(/smsNotifications:\s*false\s*→\s*true/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-audit-1280.png', fullPage: true });
});

test('a customer opening /admin is sent away by the guard', async ({ page }) => {
  await loginThroughUi(page, 'sipho');
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Admin Panel' })).toHaveCount(0);
});
