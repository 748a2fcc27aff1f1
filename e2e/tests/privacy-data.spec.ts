// Privacy and data (issue 24, decision 049) in the real app: sipho opens Privacy and data from his
// profile, sees what Karoo holds about him, asks for his data, waits while the job on the queue
// builds it, downloads the ZIP and the test opens it (data.json holds his account and his bookings,
// nobody else's account); then he says yes to marketing email and the choice is recorded with its
// time, and still there after a reload; then no again. Screens at 1280 and 390 px
// (test-results/screens/privacy-data-*.png), checked with axe.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

const PERSON = 'sipho';
const SCREENS = 'test-results/screens';

test('a person sees what is held, downloads their data as a ZIP and opens it, and changes their marketing choice', async ({ page }) => {
  mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, PERSON);
  await page.goto('/profile');
  await page.getByRole('link', { name: /Privacy and data/ }).click();
  await expect(page).toHaveURL(/\/profile\/privacy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy and data' })).toBeVisible();

  // What is held, counted from his real records.
  const held = page.getByRole('list', { name: 'Categories of personal information' });
  await expect(held.getByRole('heading', { name: 'Bookings and trips' })).toBeVisible();
  await expect(page.getByTestId('held-count-account')).toHaveText('1 record');
  await expect(page.getByTestId('held-count-bookings')).not.toHaveText('0 records');

  // Download everything: built in the background, then ready for 24 hours.
  const download = page.locator('#download');
  await download.getByRole('button', { name: 'Prepare my data' }).click();
  await expect(download.getByTestId('data-export')).toContainText(/Preparing|Ready/);
  await expect(download.getByTestId('data-export')).toContainText('Ready until', { timeout: 60_000 });
  await expectNoAxeViolations(page, 'Privacy and data');
  await page.screenshot({ path: `${SCREENS}/privacy-data-1280.png`, fullPage: true });

  const [file] = await Promise.all([page.waitForEvent('download'), download.getByRole('button', { name: 'Download ZIP' }).click()]);
  expect(file.suggestedFilename()).toMatch(/^karoo-data-sipho-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(await readFile(await file.path())));
  const data = JSON.parse(strFromU8(zip['data.json']!)) as { tables: Record<string, { rows: Record<string, unknown>[] }>; files: { path: string }[] };
  expect(data.tables.users!.rows).toEqual([expect.objectContaining({ username: PERSON })]);
  expect(data.tables.users!.rows[0]).not.toHaveProperty('password_hash');
  expect(data.tables.bookings!.rows.length).toBeGreaterThan(0);
  expect(data.tables.sessions!.rows.length).toBeGreaterThan(0);
  // Every file listed is in the ZIP.
  for (const listed of data.files) expect(Object.keys(zip)).toContain(listed.path);
  expect(JSON.stringify(data)).not.toContain('host_thabo@');

  // Marketing: unticked until he says yes, recorded with the time, kept after a reload.
  const marketing = page.locator('#marketing');
  const optIn = marketing.getByRole('checkbox', { name: /Email me Karoo news/ });
  await expect(optIn).not.toBeChecked();
  await optIn.check();
  await marketing.getByRole('button', { name: 'Save choice' }).click();
  await expect(marketing.getByTestId('marketing-recorded')).toContainText('You said yes on');
  await page.reload();
  await expect(page.locator('#marketing').getByRole('checkbox', { name: /Email me Karoo news/ })).toBeChecked();
  await page.locator('#marketing').getByRole('checkbox', { name: /Email me Karoo news/ }).uncheck();
  await page.locator('#marketing').getByRole('button', { name: 'Save choice' }).click();
  await expect(page.locator('#marketing').getByTestId('marketing-recorded')).toContainText('You said no on');

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy and data' })).toBeVisible();
  await expectNoAxeViolations(page, 'Privacy and data at 390 px');
  await page.screenshot({ path: `${SCREENS}/privacy-data-390.png`, fullPage: true });
});
