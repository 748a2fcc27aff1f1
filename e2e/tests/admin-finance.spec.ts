// The admin Finance tab (document 3, Admin panel "Finance"; decisions.md sections 5 and 7): the
// seeded admin sees the platform revenue equal to getAppFee's total_app_fee, exports the
// transactions as CSV and marks one host's payouts paid with a reference. Screenshot at 1280 px.
import { readFile } from 'node:fs/promises';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

/** "R 3 345,67" (en-ZA) as 3345.67. */
const randValue = (text: string) => Number(text.replace(/[^\d,.-]/g, '').replace(/\.(?=\d{3})/g, '').replace(',', '.'));

test('the admin reads the finance figures, exports CSV and records a payout', async ({ page, request }) => {
  const token = await apiToken(request, 'admin');
  const appFee = await request.get('/api/earnings/earning/getAppFee', { headers: { authorization: `Bearer ${token}` } });
  expect(appFee.status()).toBe(200);
  const { total_app_fee } = ((await appFee.json()) as { data: { total_app_fee: number } }).data;

  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Finance' }).click();
  await expect(page).toHaveURL(/tab=finance/);

  const revenue = page.getByTestId('finance-card-platform_revenue').getByTestId('finance-card-value');
  await expect(revenue).toBeVisible();
  expect(randValue((await revenue.textContent()) ?? '')).toBeCloseTo(total_app_fee, 2);
  await expect(page.getByTestId('finance-transaction').first()).toBeVisible();
  await expectNoAxeViolations(page, 'admin finance tab');
  await expect(page.getByText('+12% from last month')).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-finance-1280.png', fullPage: true });

  // Export CSV: a download named after the period, header first.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^karoo-transactions-all-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('booking number,date,car,renter,host,total,service fee,insurance,pickup fee,host earnings,platform revenue,status,payout status');

  // Mark the first host's payouts paid with a reference.
  const payout = page.getByTestId('finance-payout').first();
  await expect(payout).toBeVisible();
  const host = (await payout.locator('p').first().locator('span').textContent())!.trim();
  await payout.getByRole('button', { name: 'Mark paid' }).click();
  const dialog = page.getByRole('dialog', { name: 'Mark payout paid' });
  await dialog.getByLabel('Payout reference').fill(`EFT-E2E-${Date.now().toString(36)}`);
  await dialog.getByRole('button', { name: 'Mark paid' }).click();
  await expect(page.getByText('Payout recorded', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('finance-payout').filter({ hasText: host })).toHaveCount(0);
});
