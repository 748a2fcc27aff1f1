// The admin car creator (document 3, "Admin car creator"; issue 10): the admin opens the creator,
// creates the Quick Test Car and a Custom Car for a host, and finds both in the Cars table waiting
// for verification, their Verify disabled and saying what is missing: the creator makes up
// neither a photo nor a registration document (issue 18, decision 033). The Custom Car's Create
// button stays disabled until Make, Model and Username are filled. Screenshots of the open creator
// at 1280 and 390 px.
import { expect, expectNoAxeViolations, loginThroughUi, test, uniqueName } from './fixtures';

test('the admin creates the Quick Test Car and a Custom Car from the Cars tab', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, 'admin');
  await page.getByRole('tab', { name: 'Cars' }).click();
  await expect(page.getByTestId('car-row').first()).toBeVisible();

  await page.getByRole('button', { name: 'Open Car Creator' }).click();
  await expect(page.getByText('2023 Toyota Fortuner 2.8 GD-6')).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/admin-car-creator-1280.png', fullPage: false });
  await expectNoAxeViolations(page, 'admin car creator, Quick Test Car');
  await page.getByRole('button', { name: 'Create Test Car' }).click();
  await expect(page.getByText('Car created', { exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Custom Car' }).click();
  const form = page.getByRole('form', { name: 'Custom Car' });
  const create = form.getByRole('button', { name: 'Create Car' });
  await expect(create).toBeDisabled();
  await expectNoAxeViolations(page, 'admin car creator, Custom Car');
  await expect(form.getByText('Please fill in all required fields (Make, Model, Username)')).toBeVisible();
  const carUsername = uniqueName('vw-polo-vivo-');
  await page.getByLabel('Owner username').fill('host_lerato');
  await form.getByLabel('Make *').fill('Volkswagen');
  await form.getByLabel('Model *').fill('Polo Vivo');
  await form.getByLabel('Car Username *').fill(carUsername);
  await form.getByLabel('Daily rate (R)').fill('380');
  await form.getByLabel('Bluetooth').check();
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page.getByText(`${carUsername} for @host_lerato is waiting for verification in the table below. It needs a photo and an approved registration document first.`)).toBeVisible();

  await page.getByLabel('Search cars').fill('Polo Vivo');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const custom = page.getByTestId('car-row').filter({ hasText: carUsername });
  await expect(custom).toContainText('@host_lerato');
  await expect(custom).toContainText('Pending verification');
  await expect(custom).toContainText('Sedan');
  const nothingYet = 'Cannot verify: the registration document is not uploaded; the car has no photo (at least one is needed).';
  await expect(custom.getByRole('button', { name: `Verify ${carUsername}`, exact: true })).toBeDisabled();
  await expect(custom.getByText(nothingYet)).toBeVisible();

  await page.getByLabel('Search cars').fill('Fortuner 2.8');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const quick = page.getByTestId('car-row').filter({ hasText: '2023 Toyota Fortuner 2.8 GD-6' }).first();
  await expect(quick).toContainText('@admin');
  await expect(quick).toContainText(/TEST [A-Z0-9]{6}/);
  await expect(quick).toContainText('Pending verification');
  await expect(quick.getByRole('button', { name: /^Verify / })).toBeDisabled();
  await expect(quick.getByText(nothingYet)).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Quick Test Car' }).click();
  await page.screenshot({ path: 'test-results/screens/admin-car-creator-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
