// The public pages as a crawler and a phone see them (issue 22, decision 044): a car page fetched
// with no JavaScript already shows its car, price and city, with its title, preview image and
// JSON-LD; each public page then hydrates without a React error or warning in the console (a
// hydration mismatch is reported as a console error by main.tsx, and fails here); a signed-in
// visitor never sees "Sign In" in the header of a server-rendered page; an unknown car is a 404 page.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, loginThroughUi, test, waitForSettledPage } from './fixtures';

const rand = new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', minimumFractionDigits: 0, maximumFractionDigits: 0 });

interface ListedCar {
  car_username: string;
  car_make?: string;
  car_model?: string;
  title?: string;
  car_rent_price?: number;
  price_per_day?: number;
  pickup_location: string;
}

async function firstListedCar(request: APIRequestContext): Promise<ListedCar> {
  const response = await request.get('/api/car/getCarList?limit=1');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: ListedCar[] };
  expect(body.data.length).toBe(1);
  return body.data[0]!;
}

/** Console errors and warnings, and uncaught errors, from the moment the page opens. */
function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

test('a crawler without JavaScript reads a car page: its car, price, city, title, preview image and JSON-LD', async ({ request }) => {
  const car = await firstListedCar(request);
  const price = rand.format(car.car_rent_price ?? car.price_per_day ?? 0);
  const response = await request.get(`/cars/${car.car_username}`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/text\/html/);
  const html = await response.text();
  const root = /<div id="root">([\s\S]*)<\/div><script type="application\/json"/.exec(html)?.[1] ?? '';
  const make = car.car_make ?? car.title!.split(' ')[0]!;
  expect(root).toContain(make);
  expect(root).toContain(price);
  expect(root).toContain(car.pickup_location);
  expect(html).toMatch(new RegExp(`<title>[^<]*${price}/day[^<]*</title>`));
  expect(html).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+"/);
  expect(html).toContain('<script type="application/ld+json">');
  const ld = JSON.parse(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1]!) as { '@type': string; offers: { priceCurrency: string } };
  expect(ld['@type']).toBe('Car');
  expect(ld.offers.priceCurrency).toBe('ZAR');

  const missing = await request.get('/cars/no-such-car-000000');
  expect(missing.status()).toBe(404);
  expect(await missing.text()).toContain('Car Not Found');
});

test('each public page hydrates with no React error or warning in the console', async ({ page, request }) => {
  const car = await firstListedCar(request);
  const problems = watchConsole(page);
  for (const url of ['/', '/cars', '/cars?location=Cape%20Town&type=SUV', `/cars/${car.car_username}`, '/cars/no-such-car-000000']) {
    const response = await page.goto(url);
    const missing = url.includes('no-such-car');
    expect(response?.status(), url).toBe(missing ? 404 : 200);
    // Hydrated: the header's account corner, left empty by the server, now offers Sign In.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
    if (missing) await expect(page.getByRole('heading', { name: 'Car Not Found' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    // The missing car's page is itself a 404, which Chromium notes in the console; nothing else may be there.
    const own404 = 'error: Failed to load resource: the server responded with a status of 404 (Not Found)';
    expect(missing ? problems.filter((p, i) => !(p === own404 && problems.indexOf(own404) === i)) : problems, url).toEqual([]);
    problems.length = 0;
  }
  // The page is live after hydration: a link navigates on the client.
  await page.goto(`/cars/${car.car_username}`);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(page).toHaveTitle(/\/day — Karoo$/);
  await page.getByRole('link', { name: 'Back to vehicles' }).click();
  await expect(page).toHaveURL(/\/cars$/);
  // Another page opened in the app does not keep the car's title.
  await expect(page).toHaveTitle('Karoo — Car rental from local hosts');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(problems).toEqual([]);
});

test('a signed-in visitor never sees Sign In in the header of a server-rendered page', async ({ page, request }) => {
  const car = await firstListedCar(request);
  await loginThroughUi(page, 'sipho');
  // Records whether a Sign In link ever appears in the header, from the first parsed byte.
  await page.addInitScript(() => {
    const w = window as unknown as { __sawSignIn: boolean };
    w.__sawSignIn = false;
    new MutationObserver(() => {
      const header = document.querySelector('header');
      // The server's placeholder is the same link, invisible and hidden from assistive technology.
      const shown = (a: HTMLAnchorElement) => a.textContent?.trim() === 'Sign In' && !a.classList.contains('invisible');
      if (header && Array.from(header.querySelectorAll('a')).some(shown)) w.__sawSignIn = true;
    }).observe(document, { childList: true, subtree: true });
  });
  const problems = watchConsole(page);
  for (const url of ['/', `/cars/${car.car_username}`]) {
    await page.goto(url);
    await expect(page.getByRole('button', { name: /User menu for/ })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __sawSignIn: boolean }).__sawSignIn), url).toBe(false);
  }
  // Signed in, the page holds its live stream open (decision 083): "network idle" never comes.
  await waitForSettledPage(page);
  expect(problems).toEqual([]);
});
