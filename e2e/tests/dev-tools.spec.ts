// Developer tools (decisions.md section 10): the seeded admin runs the API Connection Test, whose
// login tests sign in with the demo accounts the server offers, and uses the API Playground.
import { expect, expectNoAxeViolations, loginThroughUi, test, uniqueName } from './fixtures';

test.use({ viewport: { width: 1280, height: 900 } });

test('the admin runs the API tests: every test passes, the logins against the demo accounts', async ({ page }) => {
  await loginThroughUi(page, 'admin');
  await page.goto('/api-test');
  await expect(page.getByRole('heading', { name: 'API Connection Test' })).toBeVisible();
  await page.getByRole('button', { name: 'Run API Tests' }).click();

  await expect(page.getByText('6 passed, 0 failed, 0 skipped')).toBeVisible();
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  for (const name of ['Health check', 'Car list', 'Cars call (admin)', 'Users call', 'Login test 1', 'Login test 2']) {
    await expect(row(name).getByText('Passed')).toBeVisible();
    await expect(row(name).getByRole('cell').nth(1)).toHaveText('200');
  }
  await expect(row('Login test 1')).toContainText('signed in as host_thabo (host)');
  await expect(row('Login test 2')).toContainText('signed in as sipho (customer)');
  await expectNoAxeViolations(page, 'api-test at 1280 px');
  await page.screenshot({ path: 'test-results/screens/devtools-api-test.png', fullPage: true });
  // On a phone the results table scrolls sideways inside the page: it must be reachable by keyboard.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoAxeViolations(page, 'api-test at 390 px');
  await page.screenshot({ path: 'test-results/screens/devtools-api-test-390.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // The test logins did not replace the admin's own session.
  await page.goto('/api-playground');
  await expect(page.getByRole('heading', { name: 'API Playground' })).toBeVisible();
  await expectNoAxeViolations(page, 'api-playground');
});

test('the admin creates a user in the playground, then meets a validation message', async ({ page }) => {
  await loginThroughUi(page, 'admin');
  await page.goto('/api-playground');
  await page.getByRole('tab', { name: 'Users' }).click();
  const username = uniqueName('pg');
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Email').fill(`${username}@example.co.za`);
  await page.getByLabel('Full name').fill('Playground Person');
  await page.getByLabel('Phone number').fill('+27 82 555 0199');
  await page.getByLabel('Address').fill('1 Long St, Cape Town, 8001');
  await page.getByLabel('Password', { exact: true }).fill('Karoo-pass-1');
  await page.getByRole('button', { name: 'Create User' }).click();

  await expect(page.getByText('Operation completed successfully!')).toBeVisible();
  await expect(page.getByLabel('Server response')).toContainText(`"username": "${username}"`);
  await page.screenshot({ path: 'test-results/screens/devtools-playground.png', fullPage: true });

  await page.getByRole('button', { name: 'Delete User' }).click();
  await expect(page.getByText('Delete User needs a username')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Cars' }).click();
  await page.getByRole('button', { name: 'Update Location' }).click();
  await expect(page.getByText('Update Location needs a car username')).toBeVisible();
  await expect(page.getByText('Update Location needs a location')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/devtools-playground-cars.png', fullPage: true });
});
