// Hosts paid by themselves (issue 35; decisions 068, 069, 070) in the real app, with a host, a
// renter and a car of their own: the host adds a Standard Bank account ending 1111 on Earnings,
// sees the holder's name the bank returned (the sandbox's "S NAIDOO") and confirms it, and chooses
// to be paid after each trip; a paid trip is checked in and out and returned (through the API); its
// share waits out the claim window; 73 hours on (the server's test clock) the payouts job sends it,
// and the sandbox bank refuses the first credit to a …1111 account; the admin sees the failed
// transfer in Finance and retries it, and it is paid; the host sees both transfers and downloads
// January's statement, looked at as an image (test-results/screens/payouts-statement.png).
// Screenshots at 1280 and 390 px (test-results/screens/payouts-*.png) and axe on each new state.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { E2E_NOW } from './clock';
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';
import {
  acceptTrip,
  advanceServerClock,
  dismissToasts,
  newListedCar,
  newVerifiedMember,
  payTrip,
  recordTrip,
  requestTripToday,
  resetServerClock,
  returnCar,
  runJob,
  SCREENS,
  shoot,
  type Member,
} from './money-journeys';

async function openPayouts(page: Page, who: Member) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, who.username, who.password);
  await page.goto('/earnings');
  const card = page.getByRole('region', { name: 'Payouts' });
  await expect(card).toBeVisible();
  return card;
}

test.afterEach(async ({ request }) => {
  // The next spec on this worker's server reads the run's own time again.
  await resetServerClock(request);
});

test('a host adds a checked bank account; a completed trip is paid by the job; the failed transfer is retried by the admin; the month’s statement', async ({ page, browser, request }) => {
  test.setTimeout(300_000);
  const host = await newVerifiedMember(request, 'thandeka', 'Thandeka Naidoo');
  const renter = await newVerifiedMember(request, 'johan', 'Johan Smit');
  const car = await newListedCar(request, host);

  // The bank account: checked with the bank, the holder's name shown, saved only once confirmed.
  let payouts = await openPayouts(page, host);
  await expect(payouts).toContainText('No payouts sent yet.');
  await payouts.getByRole('combobox', { name: 'Bank', exact: true }).selectOption({ label: 'Standard Bank' });
  await payouts.getByLabel('Account number').fill('6200 123 1111');
  await payouts.getByRole('button', { name: 'Check account' }).click();
  await expect(payouts.getByText('Account holder: S NAIDOO')).toBeVisible();
  await expect(payouts).toContainText('Standard Bank · account ····1111');
  await expectNoAxeViolations(page, 'the bank account to confirm', payouts);
  await shoot(page, 'payouts-account-confirm', payouts.getByText('Account holder: S NAIDOO'));
  await payouts.getByRole('button', { name: 'Confirm and save' }).click();
  await expect(page.getByText('Bank account saved', { exact: true })).toBeVisible();
  await expect(payouts).toContainText('Standard Bank ····1111');
  await expect(payouts).toContainText('Account holder: S NAIDOO');
  await payouts.getByRole('combobox', { name: 'Paid' }).selectOption('trip');
  await expect(payouts).toContainText('After each trip (next business day)');

  // A trip: paid, checked in and out by the host, returned. Its share waits out the claim window.
  const trip = await requestTripToday(request, renter, car);
  await acceptTrip(request, trip, host);
  await payTrip(request, trip, renter);
  await recordTrip(request, trip, host, 'check_in', 41_000, 8);
  await recordTrip(request, trip, host, 'check_out', 41_180, 8);
  await returnCar(request, host, car, 41_180);
  await page.reload();
  payouts = page.getByRole('region', { name: 'Payouts' });
  await expect(payouts).toContainText(new RegExp(`Not payable yet: ${trip.booking_id} R\\s[\\d\\s]+(,\\d{2})? from Wed 27 Jan`));
  await dismissToasts(page);
  await expectNoAxeViolations(page, 'the payouts card with an account and a trip waiting', payouts);
  await shoot(page, 'payouts-host-waiting', payouts);

  // Wednesday, 73 hours on: the claim window has closed with no claim, and it is a business day.
  // The run sends one transfer; the sandbox bank refuses the first credit to a …1111 account.
  await advanceServerClock(request, 73, [page]);
  await runJob(request, 'payouts.run');
  await runJob(request, 'payouts.sync');

  const adminContext = await browser.newContext({ locale: 'en-ZA', timezoneId: 'Africa/Johannesburg' });
  await adminContext.clock.install({ time: E2E_NOW });
  const adminPage = await adminContext.newPage();
  await adminPage.clock.setSystemTime(new Date(Date.parse(E2E_NOW) + 73 * 3_600_000));
  await adminPage.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(adminPage, 'admin');
  await adminPage.goto('/admin?tab=finance');
  const transfers = adminPage.getByRole('region', { name: 'Payout transfers' });
  const failed = transfers.getByRole('listitem').filter({ hasText: host.username }).filter({ hasText: 'Failed' });
  await expect(failed).toHaveCount(1);
  await expect(failed).toContainText('The bank refused the credit (account dormant).');
  await expect(failed).toContainText('Standard Bank ····1111');
  await expectNoAxeViolations(adminPage, 'the payout transfers with a failed one', transfers);
  await shoot(adminPage, 'payouts-admin-failed', failed);
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(adminPage.getByText('Sent again', { exact: true })).toBeVisible();
  const hostTransfers = transfers.getByRole('listitem').filter({ hasText: host.username });
  await expect(hostTransfers.filter({ hasText: 'Paid' })).toHaveCount(1);
  await expect(hostTransfers.filter({ hasText: 'Failed · sent again' })).toHaveCount(1);
  await dismissToasts(adminPage);
  await expectNoAxeViolations(adminPage, 'the payout transfers after the retry', transfers);
  await shoot(adminPage, 'payouts-admin-retried', hostTransfers.first());

  // The host (signed in again three days on) sees both transfers and downloads January's statement.
  payouts = await openPayouts(page, host);
  const rows = payouts.getByRole('listitem').filter({ hasText: '····1111' });
  await expect(rows.filter({ hasText: 'Paid' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Failed' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Failed' })).toContainText('The bank refused the credit (account dormant).');
  await expect(payouts.getByTestId('next-payout')).toHaveText('Nothing is owed to you now.');
  await expectNoAxeViolations(page, 'the payouts card with its transfers', payouts);
  await shoot(page, 'payouts-host-transfers', payouts.getByRole('heading', { name: 'Transfers' }));
  const [download] = await Promise.all([page.waitForEvent('download'), payouts.getByRole('button', { name: 'Statement 2027-01' }).click()]);
  const file = `${SCREENS}/payouts-statement.pdf`;
  await download.saveAs(file);
  expect((await readFile(file)).subarray(0, 5).toString()).toBe('%PDF-');
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', file, `${SCREENS}/payouts-statement`]);
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString('utf8');
  expect(text).toContain(trip.booking_id);
  expect(text).toMatch(/Paid/);
  await adminContext.close();
});
