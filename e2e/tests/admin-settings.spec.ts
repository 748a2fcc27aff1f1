// The admin Settings tab (document 3, Settings; decisions.md section 8): the seeded admin changes
// the platform fee, sees the unsaved note, saves, reloads and still reads the new fee, which the
// public settings (the price breakdown's source) now carry; the fee goes back to 25 afterwards,
// since other journeys expect it.
import type { APIRequestContext } from '@playwright/test';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

async function putPlatformFee(request: APIRequestContext, fee: number) {
  const token = await apiToken(request, 'admin');
  const response = await request.put('/api/settings', { headers: { authorization: `Bearer ${token}` }, data: { platform_fee: fee } });
  expect(response.status()).toBe(200);
}

async function publicPlatformFee(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/settings');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { platform_fee: number } }).data.platform_fee;
}

test.afterEach(async ({ request }) => {
  // Whatever happened above, the suite's state is left as it was.
  await putPlatformFee(request, 25);
});

test('the admin changes the platform fee in Settings, saves it, and the change persists', async ({ page, request }) => {
  expect(await publicPlatformFee(request)).toBe(25);
  await loginThroughUi(page, 'admin');
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\?tab=settings$/);

  const fee = page.getByLabel('Platform fee (%)');
  await expect(fee).toHaveValue('25');
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expectNoAxeViolations(page, 'admin settings tab');
  await fee.fill('20');
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  // Held locally: nothing is sent before Save.
  expect(await publicPlatformFee(request)).toBe(25);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-settings-1280.png', fullPage: true });

  await page.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  await expect(page.getByText('All changes saved')).toBeVisible();
  expect(await publicPlatformFee(request)).toBe(20);

  await page.reload();
  await expect(page.getByLabel('Platform fee (%)')).toHaveValue('20');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/admin-settings-390.png', fullPage: true });

  // Back to 25 through the same screen.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel('Platform fee (%)').fill('25');
  await page.getByRole('button', { name: 'Save All Settings' }).click();
  await expect(page.getByText('All changes saved')).toBeVisible();
  await expect.poll(() => publicPlatformFee(request)).toBe(25);
});
