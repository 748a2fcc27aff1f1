// The `test` every spec uses (each browser context starts its clock at E2E_NOW, as the server
// does), and helpers for journeys: sign in through the UI, and a few API calls for steps whose
// screens belong to later releases (an admin verifying a user, reading the mail outbox).
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type BrowserContext, type Locator, type Page, type Request } from '@playwright/test';
import { E2E_NOW } from './clock';

export { expect };

/** The requests each page has sent and not yet seen answered (an SPA's queries long after its load event). */
const pendingRequests = new WeakMap<Page, Set<Request>>();

/** Counts a context's requests in flight per page, so a check can wait for the page's network to be quiet. */
export function trackRequests(context: BrowserContext) {
  const pending = (request: Request) => {
    let page: Page;
    try {
      page = request.frame().page();
    } catch {
      return new Set<Request>(); // a worker's request: no page waits on it
    }
    if (!pendingRequests.has(page)) pendingRequests.set(page, new Set());
    return pendingRequests.get(page)!;
  };
  // The live stream (GET /api/live, server-sent events) stays open for the page's life: it is not
  // a request the page waits on.
  const isStream = (request: Request) => new URL(request.url()).pathname === '/api/live';
  context.on('request', (request) => {
    if (!isStream(request)) pending(request).add(request);
  });
  context.on('requestfinished', (request) => pending(request).delete(request));
  context.on('requestfailed', (request) => pending(request).delete(request));
}

/**
 * A server-rendered page (/, /cars, a car page) is there to read before its code has run: /boot.js
 * loads the code after the page's load event (decision 052), and React then hydrates it. A click
 * before then does nothing, as it would for a visitor. So every page of a context waits, after
 * `goto` and `reload`, until such a page is live (`<html data-ready>`, set by main.tsx), as a
 * visitor who waits to see the page would.
 */
const waitingContexts = new WeakSet<BrowserContext>();

export function waitForLivePages(context: BrowserContext) {
  if (waitingContexts.has(context)) return;
  waitingContexts.add(context);
  const live = async (page: Page) => {
    await page.waitForFunction(() => !document.getElementById('karoo-code') || document.documentElement.dataset.ready === 'true', undefined, { timeout: 20_000 });
  };
  const wrap = (page: Page) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (response?.headers()['content-type']?.includes('text/html')) await live(page);
      return response;
    };
    page.reload = async (options) => {
      const response = await reload(options);
      if (response?.headers()['content-type']?.includes('text/html')) await live(page);
      return response;
    };
  };
  for (const page of context.pages()) wrap(page);
  context.on('page', wrap);
}

/**
 * Playwright's test with the browser's clock installed at E2E_NOW. After install the page's time
 * runs on at real speed (timers, TanStack Query, toasts behave as usual); only the start is fixed.
 */
/** The first worker's server port (playwright.config.ts starts one server per worker, on the ports after it). */
const FIRST_PORT = Number(process.env.E2E_PORT ?? 3100);

/**
 * The server of the worker at `parallelIndex`: each worker has its own, on a fresh demo database
 * (playwright.config.ts), so two workers never share the demo accounts' bookings and messages.
 */
export function workerOrigin(parallelIndex: number): string {
  return `http://localhost:${FIRST_PORT + parallelIndex}`;
}

export const test = base.extend({
  // Every page, API request and context of a test talks to its own worker's server.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use, testInfo) => {
    await use(workerOrigin(testInfo.parallelIndex));
  },
  context: async ({ context }, use) => {
    await context.clock.install({ time: E2E_NOW });
    trackRequests(context);
    waitForLivePages(context);
    await use(context);
  },
  // Contexts a test opens itself (a second person in another browser) wait for live pages too.
  browser: [
    async ({ browser }, use, workerInfo) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext({ baseURL: workerOrigin(workerInfo.parallelIndex), ...options });
        waitForLivePages(context);
        return context;
      };
      await use(browser);
    },
    { scope: 'worker' },
  ],
});

export const DEMO_PASSWORD = 'Demo@1234';

export async function loginThroughUi(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

export async function apiToken(request: APIRequestContext, username: string, password = DEMO_PASSWORD): Promise<string> {
  const response = await request.post('/api/user/login', { data: { username, password } });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { token: string } };
  return body.data.token;
}

/** A listed demo car, as the car list answers it. */
export interface ListedCar {
  car_username: string;
  car_make: string;
  car_model: string;
  car_owner: string;
  status: string;
}

/** A listed car of the host that nobody holds from today on (no booking, no block on its calendar). */
export async function freeCarOf(request: APIRequestContext, owner: string): Promise<ListedCar> {
  const list = await request.get(`/api/car/getCarList?limit=48&owner=${owner}`);
  expect(list.status()).toBe(200);
  const cars = ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner === owner && car.status === 'available');
  for (const car of cars) {
    const held = await request.get(`/api/car/${car.car_username}/availability`);
    if (((await held.json()) as { data: unknown[] }).data.length === 0) return car;
  }
  throw new Error(`No free car of ${owner}`);
}

export async function adminVerifyUser(request: APIRequestContext, username: string) {
  const token = await apiToken(request, 'admin');
  const response = await request.put(`/api/user/${username}/verification`, {
    headers: { authorization: `Bearer ${token}` },
    data: { verification_status: 'verified' },
  });
  expect(response.status()).toBe(200);
}

/** The newest mail to an address, read from the outbox (no SMTP in the end-to-end run). */
export async function latestMailTo(request: APIRequestContext, email: string): Promise<{ subject: string; text: string }> {
  const token = await apiToken(request, 'admin');
  const response = await request.get(`/api/admin/outbox?to=${encodeURIComponent(email)}&limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { subject: string; text: string }[] };
  expect(body.data.length).toBeGreaterThan(0);
  return body.data[0]!;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/** A small valid PDF, generated in memory. */
export function samplePdf(title: string): Buffer {
  const text = `BT /F1 14 Tf 60 740 Td (${title}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/**
 * Waits until the page is what a user would see if they stopped and looked: no request of the page
 * in flight for a quarter of a second (`waitForLoadState('networkidle')` only knows the first load,
 * not a query sent after a click), web fonts loaded, and no scroll moving (a smooth `scrollTo` is
 * not an animation, and under load it takes longer than a check). Gives up waiting after
 * `timeout` and checks the page as it is: a page that never settles still gets checked.
 */
export async function waitForSettledPage(page: Page, timeout = 10_000) {
  const deadline = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if ((pendingRequests.get(page)?.size ?? 0) > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= 250) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await page
    .evaluate(async (limit) => {
      await document.fonts.ready;
      const positions = () => [window.scrollX, window.scrollY, ...Array.from(document.querySelectorAll('*'), (e) => e.scrollTop + e.scrollLeft)].join();
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const end = performance.now() + limit;
      let last = positions();
      for (let still = 0; still < 3 && performance.now() < end; ) {
        await frame();
        const now = positions();
        still = now === last ? still + 1 : 0;
        last = now;
      }
    }, Math.max(0, deadline - Date.now()))
    .catch(() => undefined);
}

/**
 * Stops every CSS transition and animation where it would end while `check` runs, then lets them
 * run again. A colour mid-fade (a hover, a selection, a toast coming in) is not what a user reads,
 * and axe would measure whichever frame it happened to catch.
 */
async function withoutMotion<T>(page: Page, check: () => Promise<T>): Promise<T> {
  const style = await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; animation: none !important; }' });
  try {
    // Animations started from script (the Web Animations API) are finished the same way.
    await page.evaluate(() => {
      for (const animation of document.getAnimations()) {
        try {
          animation.finish();
        } catch {
          // An infinite animation (a spinner) cannot finish; it has no end state to check.
        }
      }
    });
    return await check();
  } finally {
    await style.evaluate((element) => (element as Element).remove()).catch(() => undefined);
  }
}

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core (WCAG 2.0, 2.1 and 2.2, levels A and AA) on the settled page (no request in
 * flight, no transition, animation or scroll running) and fails on any violation, naming the
 * rule, its impact and the first elements concerned. Called at each page of the journeys, so a
 * new accessibility problem fails `npm test`, and only a real one: the same page gives the same
 * answer on a quiet machine and a loaded one. `within` limits the check to part of the page.
 */
export async function expectNoAxeViolations(page: Page, name: string, within?: Locator) {
  await waitForSettledPage(page);
  // axe takes CSS selectors: the part to check is marked for the time of the check.
  if (within) await within.evaluate((element) => element.setAttribute('data-axe-scope', ''));
  const results = await withoutMotion(page, () => {
    const builder = new AxeBuilder({ page }).withTags(AXE_TAGS);
    return (within ? builder.include('[data-axe-scope]') : builder).analyze();
  }).finally(() => within?.evaluate((element) => element.removeAttribute('data-axe-scope')).catch(() => undefined));
  // Target size (2.5.8) without the map's price markers: cars in one city overlap on a map, and
  // each car has its own full-size "Show on the map" and "Book" buttons (the rule's "equivalent"
  // exception). The markers still go through every other rule. (One axe pass, filtered here,
  // rather than a second pass for this one rule: axe is the slowest step of a journey.)
  const violations = results.violations
    .map((v) => (v.id === 'target-size' ? { ...v, nodes: v.nodes.filter((n) => !n.html.includes('leaflet-marker-icon')) } : v))
    .filter((v) => v.nodes.length > 0);
  const report = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join(' ').trim()}`).join('\n')}`,
  );
  expect(report, `axe violations on ${name}`).toEqual([]);
}

/**
 * A control and its label read well in every state a user can put it in: as it is, under the
 * pointer, focused from the keyboard, and (for a checkbox, a toggle or a chip) switched on and
 * switched on under the pointer. axe runs on `region` (the control's group) in each state. The
 * control is left switched on.
 */
export async function expectReadableInEveryState(page: Page, control: Locator, region: Locator, name: string) {
  await page.mouse.move(0, 0);
  await expectNoAxeViolations(page, `${name}, default`, region);
  await control.hover();
  await expectNoAxeViolations(page, `${name}, hover`, region);
  await page.mouse.move(0, 0);
  // Keyboard focus (focus-visible): the control is reached with Tab from the element before it.
  await control.evaluate((element) => (element as HTMLElement).focus());
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  await expect(control).toBeFocused();
  await expectNoAxeViolations(page, `${name}, keyboard focus`, region);
  await control.click();
  await page.mouse.move(0, 0);
  await expectNoAxeViolations(page, `${name}, on`, region);
  await control.hover();
  await expectNoAxeViolations(page, `${name}, on and hovered`, region);
  await page.mouse.move(0, 0);
}
