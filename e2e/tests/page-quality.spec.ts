// Page quality the suite can hold steadily (issue 11): layout shift (CLS) on the landing page, the
// browse page and a car page, at a phone's size and a laptop's, and no console warnings on the way.
// Timing scores (Lighthouse performance) are too noisy on a shared machine to enforce here; see
// `npm run lighthouse`.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const CLS_LIMIT = 0.05;

/** Sums the page's layout shifts without recent input (what CLS counts), from the first paint. */
async function trackLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: { value: number; nodes: string[] }[] };
    w.__cls = 0;
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        w.__shifts.push({
          value: entry.value,
          nodes: (entry.sources ?? []).map((s) => {
            const el = s.node as Element | null | undefined;
            return el && 'outerHTML' in el ? el.outerHTML.slice(0, 120) : String(s.node?.nodeName ?? '?');
          }),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function layoutShift(page: Page): Promise<{ cls: number; shifts: { value: number; nodes: string[] }[] }> {
  // Let late images, fonts and queries settle before reading.
  await page.waitForLoadState('networkidle');
  // On the page's own events rather than a fixed pause: fonts loaded, every image that is loading
  // decoded (or failed), then two frames for the layout they cause to be laid out and reported. A
  // lazy image off the screen never starts loading, so its decode() would never settle: it is
  // left out (it has its width and height, so it cannot shift the page when it comes).
  await page.evaluate(async () => {
    await document.fonts.ready;
    const loading = Array.from(document.images).filter((image) => {
      if (image.complete) return false;
      if (image.loading !== 'lazy') return true;
      const box = image.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight;
    });
    await Promise.all(loading.map((image) => image.decode().catch(() => null)));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  const result = await page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: { value: number; nodes: string[] }[] };
    return { cls: w.__cls, shifts: w.__shifts };
  });
  // PRINT_CLS=1 prints the figures (for the closing note of a performance change).
  if (process.env.PRINT_CLS) console.log(`CLS ${page.viewportSize()?.width}px ${new URL(page.url()).pathname}: ${result.cls.toFixed(4)}`);
  return result;
}

async function firstCarUrl(page: Page): Promise<string> {
  const response = await page.request.get('/api/car/getCarList?limit=1');
  const body = (await response.json()) as { data: { car_username: string }[] };
  return `/cars/${body.data[0]!.car_username}`;
}

for (const [device, viewport] of [
  ['phone', { width: 412, height: 823 }],
  ['laptop', { width: 1350, height: 940 }],
] as const) {
  test.describe(`layout shift on a ${device}`, () => {
    test.use({ viewport });

    test('the landing page', async ({ page }) => {
      await trackLayoutShifts(page);
      await page.goto('/');
      await expect(page.getByTestId('vehicle-count')).toHaveText(/^\d+$/);
      const { cls, shifts } = await layoutShift(page);
      expect(cls, JSON.stringify(shifts, null, 1)).toBeLessThan(CLS_LIMIT);
    });

    test('the browse page, opened and after Load more', async ({ page }) => {
      await trackLayoutShifts(page);
      await page.goto('/cars');
      await expect(page.getByTestId('vehicle-card')).toHaveCount(12);
      const first = await layoutShift(page);
      expect(first.cls, JSON.stringify(first.shifts, null, 1)).toBeLessThan(CLS_LIMIT);
      await page.getByRole('button', { name: 'Load more vehicles' }).click();
      await expect(page.getByTestId('vehicle-card')).toHaveCount(24);
      // Shifts right after the click are input-driven and not counted; the total stays low.
      const after = await layoutShift(page);
      expect(after.cls, JSON.stringify(after.shifts, null, 1)).toBeLessThan(CLS_LIMIT);
    });

    test('a car page', async ({ page }) => {
      const url = await firstCarUrl(page);
      await trackLayoutShifts(page);
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const { cls, shifts } = await layoutShift(page);
      expect(cls, JSON.stringify(shifts, null, 1)).toBeLessThan(CLS_LIMIT);
    });
  });
}

test('opening the app on a lazy page logs no warning (React Router HydrateFallback)', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') messages.push(message.text());
  });
  for (const url of ['/', '/cars', await firstCarUrl(page), '/login', '/register']) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
  }
  expect(messages.filter((m) => /HydrateFallback/.test(m))).toEqual([]);
});
