// Issue 32, decision 060: the dates searched on /cars travel to the car page's booking panel and
// each card says the trip's total; the landing page's search and a car page's reviews work with no
// JavaScript at all; a phone has a List / Map toggle whose state is in the URL (Back returns to the
// list). Screenshots of the browse page with dates and of the phone's map go to test-results/.
import { test as scriptlessTest } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { expect, test } from './fixtures';

const START = addDays(E2E_TODAY, 10);
const END = addDays(E2E_TODAY, 13);
const day = (date: string) => new Intl.DateTimeFormat('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

test('the dates chosen on /cars are on each card as a total and start the car page’s booking panel', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  // The server renders the totals (its settings are in the page's state): hydration changes nothing.
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  const html = await (await page.request.get(`/cars?start=${START}&end=${END}`)).text();
  expect(html).toMatch(/data-testid="card-trip-total"[^>]*>R\u00a0[\d\u00a0]+(,\d\d)? for 3 days</);
  // 13:00: a time every demo car's first pickup location (the host's home) lists, so it binds (decision 059).
  await page.goto(`/cars?start=${START}&end=${END}&pickupTime=13:00&returnTime=15:00`);
  const card = page.getByTestId('vehicle-card').first();
  await expect(card.getByTestId('card-trip-total')).toHaveText(/^R\s[\d\s]+(,\d\d)? for 3 days$/);
  expect(problems).toEqual([]);
  await page.screenshot({ path: testInfo.outputPath('browse-dates-1280.png') });

  await card.getByRole('link', { name: /^Book / }).click();
  await expect(page).toHaveURL(new RegExp(`/cars/[^?]+\\?start=${START}&end=${END}&pickupTime=13%3A00&returnTime=15%3A00$`));
  await expect(page.getByRole('button', { name: /Pickup date/ })).toContainText(day(START));
  await expect(page.getByRole('button', { name: /Return date/ })).toContainText(day(END));
  await expect(page.getByLabel('Pickup time')).toHaveValue('13:00');
  await expect(page.getByLabel('Return time')).toHaveValue('15:00');
  await expect(page.getByTestId('price-breakdown')).toBeVisible();

  // Editing the dates keeps the address on them without adding history: Back leaves the car page.
  await page.getByRole('button', { name: 'Tomorrow' }).click();
  await expect(page).toHaveURL(new RegExp(`start=${addDays(E2E_TODAY, 1)}&end=${addDays(E2E_TODAY, 2)}`));
  await page.goBack();
  await expect(page).toHaveURL(/\/cars\?start=/);
  await expect(page.getByTestId('vehicle-card').first()).toBeVisible();
});

// Playwright's own test: the fixtures' clock and their wait for a hydrated page need scripts, and
// nothing here reads the time.
scriptlessTest.describe('without JavaScript', () => {
  scriptlessTest.use({ javaScriptEnabled: false });

  scriptlessTest('the landing page’s search lands on the results, and a car page has its reviews', async ({ page }) => {
    await page.goto('/');
    const search = page.getByRole('search');
    await search.getByRole('combobox', { name: 'Where do you want to pick up a car?' }).fill('Durban');
    await search.getByRole('combobox').press('Enter');
    await expect(page).toHaveURL(/\/cars\?location=Durban$/);
    const cards = page.getByTestId('vehicle-card');
    await expect(cards.first()).toBeVisible();
    for (const text of await cards.allTextContents()) expect(text).toContain('Durban');

    await cards.first().getByRole('link', { name: /^Book / }).click();
    const reviews = page.getByRole('region', { name: /review/i });
    await expect(reviews).toBeVisible();
    await expect(reviews).not.toContainText('Loading reviews');
    await expect(reviews).toContainText(/No reviews yet|out of 5 stars|\d\.\d · \d+ reviews?/);
  });
});

test('a phone shows the results on the map and back as a list, the choice in the URL', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/cars');
  const toggle = page.getByRole('group', { name: 'Show results as' });
  await expect(toggle).toBeVisible();
  await expect(page.getByTestId('vehicle-card').first()).toBeVisible();
  await toggle.getByRole('button', { name: 'Map' }).click();
  await expect(page).toHaveURL(/\/cars\?map=1$/);
  const map = page.getByTestId('car-map');
  await expect(map).toBeVisible();
  // The same map as on a laptop: clusters or price pills from /car/map.
  await expect(map.locator('.karoo-cluster-marker, .karoo-price-marker').first()).toBeVisible();
  await expect(page.getByTestId('vehicle-card').first()).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('browse-map-390.png') });

  await page.goBack();
  await expect(page).toHaveURL(/\/cars$/);
  await expect(toggle.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('vehicle-card').first()).toBeVisible();
  await expect(page.getByTestId('car-map')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('browse-list-390.png') });

  // A laptop has no toggle: the map sits beside the list.
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(toggle).toBeHidden();
});
