// The admin Users tab (document 3, Users; issue 10): the seeded admin finds naledi (pending
// verification in the demo data) by search and filters, reloads and sees the same view (the view
// is in the URL, issue 19), verifies her after confirming (decision 033), adds a user who starts
// with documents needed (pending_upload), and deletes them again (decision 050: erased, no sign-in).
// Screenshots at 1280 and 390 px.
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

test('the admin searches, verifies a pending user, adds a user and deletes them from the Users tab', async ({ page }) => {
  await loginThroughUi(page, 'admin');
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/tab=users/);
  await expect(page.getByLabel('User counters')).toBeVisible();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await expectNoAxeViolations(page, 'admin users tab');

  // Search and filter on the server: a different case still finds her.
  await page.getByLabel('Status').selectOption('pending_verification');
  await page.getByLabel('Role').selectOption('customer');
  await page.getByLabel('Search users').fill('NALEDI');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/[?&]q=NALEDI/);
  const naledi = page.getByTestId('user-row').filter({ hasText: '@naledi' });
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(naledi).toContainText('Pending verification');
  await expect(page.getByText(/1 user · page 1 of 1/)).toBeVisible();

  // The view is the address: a reload (or the link, shared) shows the same filtered list.
  const address = page.url();
  expect(new URL(address).searchParams.toString()).toBe('tab=users&status=pending_verification&role=customer&q=NALEDI');
  await page.reload();
  await expect(page).toHaveURL(address);
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Search users')).toHaveValue('NALEDI');
  await expect(page.getByLabel('Status')).toHaveValue('pending_verification');
  await expect(page.getByLabel('Role')).toHaveValue('customer');
  await expect(page.getByTestId('user-row')).toHaveCount(1);
  await expect(naledi).toContainText('Pending verification');
  await expect(page.getByText(/1 user · page 1 of 1/)).toBeVisible();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/screens/admin-users-1280.png', fullPage: true });

  // Verify asks first (decision 033); once verified she no longer matches the pending filter.
  await naledi.getByRole('button', { name: 'Verify naledi' }).click();
  await page.getByRole('dialog', { name: 'Verify this user?' }).getByRole('button', { name: 'Verify user' }).click();
  await expect(page.getByText('User verified', { exact: true })).toBeVisible();
  await expect(page.getByTestId('user-row')).toHaveCount(0);
  await page.getByLabel('Status').selectOption('');
  await expect(naledi).toContainText('Verified');
  await expect(naledi.getByRole('button', { name: 'Verify naledi' })).toHaveCount(0);
  await page.getByLabel('Role').selectOption('');

  // Add a user: they start with documents needed.
  const username = `e2e_${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Add User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add User' });
  await dialog.getByLabel('Username').fill(username);
  await dialog.getByLabel('Email').fill(`${username}@example.co.za`);
  await dialog.getByLabel('Full name').fill('Ayanda Zulu');
  await dialog.getByLabel('Phone number').fill('+27 82 555 7788');
  await dialog.getByLabel('Password').fill('Secret@123');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('User created', { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await page.getByLabel('Search users').fill(username);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const added = page.getByTestId('user-row').filter({ hasText: `@${username}` });
  await expect(added).toContainText('Documents needed');
  await expect(added).toContainText('Ayanda Zulu');

  await added.getByRole('button', { name: `Manage Docs of ${username}` }).click();
  const docs = page.getByRole('dialog', { name: 'User Documents' });
  await expect(docs.getByText('Not Uploaded')).toHaveCount(4);
  await page.screenshot({ path: 'test-results/screens/admin-users-docs-1280.png' });
  await page.keyboard.press('Escape');
  await expect(docs).toHaveCount(0);

  // Delete them (decision 050): asked first, then erased; they can no longer sign in.
  await added.getByRole('button', { name: `Delete ${username}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this user?' });
  await expect(confirm).toContainText('erased everywhere');
  await confirm.getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByText('User deleted', { exact: true })).toBeVisible();
  await expect(page.getByTestId('user-row').filter({ hasText: `@${username}` })).toHaveCount(0);
  const signIn = await page.request.post('/api/user/login', { data: { username, password: 'Secret@123' } });
  expect(signIn.status()).toBe(401);

  await page.getByLabel('Search users').fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByTestId('user-row').first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/admin-users-390.png', fullPage: true });
});
