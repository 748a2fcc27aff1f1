// The admin Finance tab (document 3, Admin panel "Finance"; decisions.md sections 5, 7 and 12): the
// seeded admin sees the platform revenue equal to getAppFee's total_app_fee (both ledger sums) and
// the money in and out, exports the transactions as CSV and marks one host's payouts paid with a
// reference. Screenshot at 1280 px.
// Paid is final (issue 18, decision 032): a paid payout is reversed with a reason in a dialog,
// checked with axe and shot at 1280 and 390 px, and the lists follow.
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
  // The money in and out of the period, from the ledger: the seeded payouts are paid out.
  await expect(page.getByRole('region', { name: 'Money in and out' })).toBeVisible();
  expect(randValue((await page.getByTestId('finance-flow-paid_out').locator('dd').textContent()) ?? '')).toBeGreaterThan(0);
  await expectNoAxeViolations(page, 'admin finance tab');
  await expect(page.getByText('+12% from last month')).toHaveCount(0);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-finance-1280.png', fullPage: true });

  // Export CSV: a download named after the period, header first.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^karoo-transactions-all-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  // A line per booking and day its money moved, only what moved (no state of today): a closed period's file never changes.
  expect(csv.split('\r\n')[0]).toBe('date,booking number,car,renter,host,charged,refunded,service fee,insurance,host fee,cancellation fee,host earnings,platform revenue,host penalty,paid out');

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

test('the admin reverses a paid payout with a reason; it is owed again and the reversal is listed', async ({ page }) => {
  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Finance' }).click();
  const paid = page.getByTestId('finance-paid-payout').first();
  await expect(paid).toBeVisible();
  const bookingNumber = (await paid.locator('.font-mono').textContent())!.trim();
  const host = (await paid.locator('p').first().locator('span').textContent())!.trim();
  await paid.getByRole('button', { name: `Reverse payout of ${bookingNumber}` }).click();

  const dialog = page.getByRole('dialog', { name: 'Reverse payout' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(bookingNumber);
  // The reason is required: the dialog says so, on the field, and sends nothing.
  await dialog.getByRole('button', { name: 'Reverse payout' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please give the reason for the reversal.');
  const reason = dialog.getByLabel('Reason (required)');
  await expect(reason).toHaveAttribute('aria-invalid', 'true');
  await expect(reason).toBeFocused();
  await reason.fill('Paid to the wrong bank account');
  await expectNoAxeViolations(page, 'reverse payout dialog', dialog);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expect(dialog).toBeInViewport();
    await page.screenshot({ path: `test-results/screens/admin-finance-reverse-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await dialog.getByRole('button', { name: 'Reverse payout' }).click();
  await expect(page.getByText('Payout reversed', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // The lists follow: no longer paid, listed as reversed with its reason, and owed to the host again.
  await expect(page.getByTestId('finance-paid-payout').filter({ hasText: bookingNumber })).toHaveCount(0);
  await expect(page.getByTestId('finance-payout-reversal').filter({ hasText: bookingNumber })).toContainText('Paid to the wrong bank account');
  await expect(page.getByTestId('finance-payout').filter({ hasText: host })).toBeVisible();
});
