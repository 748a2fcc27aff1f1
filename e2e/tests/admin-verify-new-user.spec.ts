// The admin verifies a brand-new user (document 3, Users; decisions.md sections 2 and 12): someone
// signs up; the admin finds them in the Users tab, where Verify is disabled and says which
// documents are missing (in the row and in Manage Docs; decision 033). The user uploads the three
// required documents through the API; Manage Docs then reads that they are in, and Verify asks for
// confirmation before it verifies. The user's own profile then reads verified, and they have the
// "Account verified" notification and email. Screenshots of the disabled Verify with its reason
// at 1280 and 390 px.
import type { Locator, Page } from '@playwright/test';
import { apiToken, expect, latestMailTo, loginThroughUi, samplePdf, test, uniqueName } from './fixtures';

const REQUIRED: [type: string, label: string][] = [
  ['id_document', 'ID Document'],
  ['driver_license', "Driver's License"],
  ['bank_confirmation_letter', 'Bank Confirmation Letter'],
];
const MISSING_ALL = "Cannot verify: missing ID Document, Driver's License and Bank Confirmation Letter.";

/** Closes the toasts on screen, so that screenshots show the page under them. */
async function dismissToasts(page: Page) {
  const buttons = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 1_000 }).catch(() => undefined);
  await expect(buttons).toHaveCount(0);
}

async function findUser(page: Page, username: string): Promise<Locator> {
  await page.getByLabel('Search users').fill(username);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  return page.getByTestId('user-row').filter({ hasText: `@${username}` });
}

test("the admin verifies a new user's documents", async ({ page, request }) => {
  const username = uniqueName('thandi');
  const email = `${username}@example.co.za`;
  const password = 'Karoo2027!';
  const registered = await request.post('/api/user/register', {
    data: { full_name: 'Thandi Sithole', email, username, password, terms_accepted: true, privacy_accepted: true, role: 'user' },
  });
  expect(registered.status()).toBe(201);
  const token = await apiToken(request, username, password);
  const headers = { authorization: `Bearer ${token}` };

  // Signed up, no documents yet: pending verification, and Verify is disabled with the reason.
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/tab=users/);
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  let row = await findUser(page, username);
  await expect(row).toContainText('Thandi Sithole');
  await expect(row).toContainText(email);
  await expect(row).toContainText('Pending verification');
  const verify = row.getByRole('button', { name: `Verify ${username}` });
  await expect(verify).toBeDisabled();
  await expect(verify).toHaveAccessibleDescription(MISSING_ALL);
  await expect(row.getByText(MISSING_ALL)).toBeVisible();
  await dismissToasts(page);
  await verify.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/admin-verify-disabled-1280.png' });
  await page.screenshot({ path: '/tmp/karoo/h5-user-verify-disabled-1280.png' });

  // Manage Docs: all four "Not Uploaded", what is missing, and its Verify disabled too.
  await row.getByRole('button', { name: `Manage Docs of ${username}` }).click();
  let docs = page.getByRole('dialog', { name: 'User Documents' });
  await expect(docs.getByText('Not Uploaded', { exact: true })).toHaveCount(4);
  await expect(docs.getByText('Not ready to verify')).toBeVisible();
  await expect(docs.getByText(MISSING_ALL)).toBeVisible();
  await expect(docs.getByRole('button', { name: `Verify ${username}` })).toBeDisabled();
  await page.screenshot({ path: 'test-results/screens/admin-verify-docs-missing-1280.png' });
  await page.screenshot({ path: '/tmp/karoo/h5-user-docs-missing-1280.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: '/tmp/karoo/h5-user-docs-missing-390.png' });
  await docs.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(docs).toHaveCount(0);
  await verify.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/admin-verify-disabled-390.png' });
  await page.screenshot({ path: '/tmp/karoo/h5-user-verify-disabled-390.png' });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The server refuses it too (409 naming the documents), whatever the page shows.
  const adminToken = await apiToken(request, 'admin');
  const refused = await request.put(`/api/user/${username}/verification`, { headers: { authorization: `Bearer ${adminToken}` }, data: { verification_status: 'verified' } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toBe(`@${username}: ${MISSING_ALL}`);

  for (const [type, label] of REQUIRED) {
    const response = await request.post(`/api/user/${username}/upload-document`, {
      headers,
      multipart: { type, document: { name: `${type}.pdf`, mimeType: 'application/pdf', buffer: samplePdf(`${label} of ${username}`) } },
    });
    expect(response.status()).toBe(200);
  }
  const status = await request.get(`/api/user/${username}/verification-status`, { headers });
  const before = ((await status.json()) as { data: { verification_status: string; missing: string[] } }).data;
  expect(before.verification_status).toBe('pending_verification');

  await page.reload();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  row = await findUser(page, username);
  await expect(row).toContainText('Pending verification');
  await expect(row.getByRole('button', { name: `Verify ${username}` })).toBeEnabled();
  await expect(row.getByText(MISSING_ALL)).toHaveCount(0);

  await dismissToasts(page);
  // Manage Docs: the three required documents are in (proof of address is optional).
  await row.getByRole('button', { name: `Manage Docs of ${username}` }).click();
  docs = page.getByRole('dialog', { name: 'User Documents' });
  const items = docs.getByRole('list', { name: 'Documents' }).getByRole('listitem');
  for (const [type, label] of REQUIRED) {
    const item = items.filter({ hasText: label });
    await expect(item).toContainText('Uploaded');
    await expect(item).not.toContainText('Not Uploaded');
    await expect(item).toContainText('Required for verification');
    await expect(item).toContainText(`${type}.pdf`);
    await expect(item.getByRole('button', { name: `View ${label}` })).toBeVisible();
  }
  await expect(docs.getByText('Uploaded', { exact: true })).toHaveCount(3);
  await expect(items.filter({ hasText: 'Proof of Address' })).toContainText('Not Uploaded');
  await expect(items.filter({ hasText: 'Proof of Address' })).toContainText('Optional');
  await expect(docs.getByText('Ready to verify')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/admin-verify-new-user-docs-1280.png' });
  await docs.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(docs).toHaveCount(0);

  // Verify asks first; Cancel changes nothing.
  await row.getByRole('button', { name: `Verify ${username}` }).click();
  let confirm = page.getByRole('dialog', { name: 'Verify this user?' });
  await expect(confirm).toContainText(`Thandi Sithole (@${username}) gets full access`);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(row).toContainText('Pending verification');
  await row.getByRole('button', { name: `Verify ${username}` }).click();
  confirm = page.getByRole('dialog', { name: 'Verify this user?' });
  await confirm.getByRole('button', { name: 'Verify user' }).click();
  await expect(page.getByText('User verified', { exact: true })).toBeVisible();
  await expect(page.getByText(`@${username} now has full access.`)).toBeVisible();
  await expect(row).toContainText('Verified');
  await expect(row.getByRole('button', { name: `Verify ${username}` })).toHaveCount(0);
  await expect(row.getByRole('button', { name: `Reject ${username}` })).toHaveCount(0);

  // The user's own profile reads verified; they are told in the app and by email.
  const profile = await request.get(`/api/user/get/${username}`, { headers });
  expect(profile.status()).toBe(200);
  expect(((await profile.json()) as { data: { verification_status: string } }).data.verification_status).toBe('verified');
  const notifications = await request.get('/api/notifications', { headers });
  const list = ((await notifications.json()) as { data: { title: string; message: string }[] }).data;
  expect(list[0]).toMatchObject({ title: 'Account verified', message: 'Your Karoo account has been verified. You can now book cars and list your own.' });
  const mail = await latestMailTo(request, email);
  expect(mail.subject).toBe('Account verified');
  expect(mail.text).toContain('Your Karoo account has been verified.');
});
