// What every page shares, in the real browser: no page breaks the content security policy (an
// eval in a bundle, an inline style the policy refuses), files are files (robots.txt, a missing
// chunk is a 404, not the app), the landing page's count is the browse count, and a car without
// reviews says "New".
import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, loginThroughUi, test } from './fixtures';

/** Collects every content-security-policy violation the page reports, from the event and the console. */
async function watchPolicy(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (/Content Security Policy|Refused to (evaluate|apply|load|execute)/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.exposeFunction('karooReportViolation', (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { karooReportViolation: (t: string) => void }).karooReportViolation(
        `${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return violations;
}

async function firstListedCar(page: Page): Promise<string> {
  const response = await page.request.get('/api/car/getCarList?limit=1');
  const body = (await response.json()) as { data: { car_username: string }[] };
  return body.data[0]!.car_username;
}

test('no page breaks the content security policy (guest pages, the API reference, signed-in pages)', async ({ page }) => {
  const violations = await watchPolicy(page);
  const car = await firstListedCar(page);
  const visit = async (path: string, ready: () => Promise<void>) => {
    await page.goto(path);
    await ready();
  };
  await visit('/', () => expect(page.getByTestId('vehicle-count')).toHaveText(/^\d+$/));
  await visit('/cars', () => expect(page.getByTestId('vehicle-card').first()).toBeVisible());
  // The filter panel and the booking panel load the forms bundle (zod): no eval.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await visit(`/cars/${car}`, () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await visit('/login', () => expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible());
  await visit('/register', () => expect(page.getByRole('button', { name: 'Continue' })).toBeVisible());
  await visit('/forgot-password', () => expect(page.getByRole('button', { name: 'Send Reset Link' })).toBeVisible());
  await visit('/terms', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await visit('/api/docs', () => expect(page.locator('.swagger-ui .info')).toBeVisible());

  await loginThroughUi(page, 'host_thabo');
  for (const path of ['/dashboard', '/my-bookings', '/profile', '/host-dashboard', '/earnings', '/become-host']) {
    await visit(path, () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible());
  }
  await visit(`/cars/${car}`, () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  expect(violations).toEqual([]);
});

test('files are files: robots.txt is text, a missing chunk or photo is a 404, not the app', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/text\/plain/);
  expect(await robots.text()).toContain('Disallow: /api/');
  for (const path of ['/assets/index-missing.js', '/uploads/cars/missing.webp']) {
    const missing = await request.get(path);
    expect(missing.status(), path).toBe(404);
    expect(await missing.text()).not.toContain('<div id="root">');
  }
});

test('the landing page counts what /cars lists, and the average rating is real', async ({ page, request }) => {
  const stats = (await (await request.get('/api/review/getStats')).json()) as { data: { average: number; count: number } };
  await page.goto('/');
  await expect(page.getByTestId('vehicle-count')).toHaveText(/^\d+$/);
  const count = Number(await page.getByTestId('vehicle-count').textContent());
  expect(count).toBeGreaterThan(0);
  await expect(page.getByTestId('average-rating')).toHaveText(stats.data.count ? stats.data.average.toFixed(1) : 'New');
  await page.getByRole('link', { name: 'Browse Cars', exact: true }).click();
  await expect(page.getByTestId('vehicle-count')).toHaveText(`${count} vehicles available`);
});

test('a host\'s money agrees on every screen: Earnings, My Bookings and the dashboards show the server\'s stored sums', async ({ page, request }) => {
  const token = ((await (await request.post('/api/user/login', { data: { username: 'host_thabo', password: 'Demo@1234' } })).json()) as { data: { token: string } }).data.token;
  const headers = { authorization: `Bearer ${token}` };
  const stats = ((await (await request.get('/api/booking/getStats?as=owner', { headers })).json()) as { data: { total_revenue: number; total_earnings: number } }).data;
  // As the shared formatter writes rand: "R 1 250", or "R 455,50" when there are cents.
  const rand = (amount: number) => {
    const digits = Number.isInteger(amount) ? 0 : 2;
    const text = new Intl.NumberFormat('en-ZA', { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(amount);
    return new RegExp(`R\\s?${text.replace(/\s/g, '\\s?')}`);
  };
  expect(stats.total_revenue).toBeGreaterThan(0);

  await loginThroughUi(page, 'host_thabo');
  await page.goto('/earnings');
  const summary = page.getByRole('region', { name: 'Earnings summary' });
  await expect(summary.getByText('Total Revenue').locator('..').locator('..')).toContainText(rand(stats.total_revenue));
  await expect(summary.getByText('Your Earnings').locator('..').locator('..')).toContainText(rand(stats.total_earnings));

  await page.goto('/my-bookings');
  await expect(page.getByRole('region', { name: 'Booking summary' })).toContainText(rand(stats.total_revenue));
  await page.goto('/host-dashboard');
  await expect(page.getByText('Total Earnings').locator('..')).toContainText(rand(stats.total_earnings));
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Statistics' })).toContainText(rand(stats.total_earnings));
});
