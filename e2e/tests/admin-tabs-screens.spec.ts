// Every admin tab (admin-tabs.ts: Dashboard, Users, Cars, Bookings, Finance, Analytics, Audit Log,
// Settings) with its real data on screen (no skeleton or spinner left, photos loaded and none
// broken, charts done drawing) at 1280x900 and 390x844: a full-page screenshot of each
// (test-results/screens/admin-tabs-<tab>-<width>.png; "tabs" keeps them apart from the tab
// journeys' own admin-<tab>-<width>.png), and at 390 px the page itself does not scroll sideways
// (a wide table may scroll inside its own overflow container). axe (WCAG A and AA) passes on each
// tab at both widths.
import type { Locator, Page } from '@playwright/test';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test, uniqueName } from './fixtures';

interface TabCheck {
  id: string;
  label: string;
  /** Shown once the tab's data is in. */
  ready: (panel: Locator) => Locator;
}

const TABS: TabCheck[] = [
  { id: 'dashboard', label: 'Dashboard', ready: (panel) => panel.getByLabel('Platform counters') },
  { id: 'users', label: 'Users', ready: (panel) => panel.getByTestId('user-row').first() },
  { id: 'cars', label: 'Cars', ready: (panel) => panel.getByTestId('car-row').first() },
  { id: 'bookings', label: 'Bookings', ready: (panel) => panel.getByTestId('booking-row').first() },
  { id: 'finance', label: 'Finance', ready: (panel) => panel.getByTestId('finance-transaction').first() },
  { id: 'analytics', label: 'Analytics', ready: (panel) => panel.getByTestId('analytics-city').first() },
  // The test creates a user first, so even on a fresh server the log has a row (and its table is
  // checked at 390 px, where it scrolls sideways).
  { id: 'audit', label: 'Audit Log', ready: (panel) => panel.getByTestId('audit-row').first() },
  { id: 'settings', label: 'Settings', ready: (panel) => panel.getByLabel('Platform fee (%)') },
];

/** The tab's data is in: its marker is visible, and no skeleton, spinner or loading status is left. */
async function waitForData(page: Page, tab: TabCheck) {
  const panel = page.getByRole('tabpanel');
  await expect(tab.ready(panel)).toBeVisible();
  await expect(panel.locator('.animate-pulse, .animate-spin')).toHaveCount(0);
  await expect(panel.getByRole('status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
}

/**
 * What a screenshot should show is all there: lazy photos below the fold are loaded (the page is
 * scrolled through, then back to the top) and none is broken, and the charts have finished
 * animating and resizing (their drawing is the same twice in a row).
 */
async function settle(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 400) {
      window.scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    window.scrollTo(0, 0);
  });
  await expect.poll(() => page.evaluate(() => Array.from(document.images).filter((image) => !image.complete).length)).toBe(0);
  const broken = await page.evaluate(() => Array.from(document.images).filter((image) => image.naturalWidth === 0).map((image) => image.src));
  expect(broken, 'broken images').toEqual([]);
  let previous = '';
  await expect
    .poll(
      async () => {
        const drawing = await page.evaluate(() =>
          Array.from(document.querySelectorAll('svg path, svg rect'))
            // A line is drawn by its dash array (recharts), a bar grows by its size.
            .map((shape) => `${shape.getAttribute('d') ?? `${shape.getAttribute('width')}x${shape.getAttribute('height')}`} ${shape.getAttribute('stroke-dasharray') ?? ''}`)
            .join('|'),
        );
        const same = drawing === previous;
        previous = drawing;
        return same;
      },
      { intervals: [400] },
    )
    .toBe(true);
}

/** Closes the toasts on screen, so that screenshots show the page under them. */
async function dismissToasts(page: Page) {
  const buttons = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 1_000 }).catch(() => undefined);
  await expect(buttons).toHaveCount(0);
}

/** What sticks out to the right of a 390 px page: the outermost elements wider than the viewport, described. */
function overflowingElements(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const box = element.getBoundingClientRect();
      if (box.right <= width + 0.5 || box.width === 0) continue;
      // Inside a scrolling container that itself fits: not the page's overflow.
      let clipped = false;
      for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (/(auto|scroll|hidden|clip)/.test(style.overflowX) && parent.getBoundingClientRect().right <= width + 0.5) {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      const parentOverflows = element.parentElement && element.parentElement !== document.body && element.parentElement.getBoundingClientRect().right > width + 0.5;
      if (parentOverflows) continue;
      const name = element.tagName.toLowerCase() + (element.id ? `#${element.id}` : '') + (element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).slice(0, 6).join('.')}` : '');
      found.push(`${name} (right edge ${Math.round(box.right)} px, width ${Math.round(box.width)} px): "${(element.textContent ?? '').trim().slice(0, 60)}"`);
    }
    return found;
  });
}

test('every admin tab shows its data at 1280 and 390 px, and no tab scrolls the page sideways on a phone', async ({ page, request }) => {
  // Sixteen settled screens and axe passes: a minute on a quiet machine, more on a loaded one.
  test.setTimeout(240_000);
  // An administrator action (creating a user), so the Audit Log has a row even on a fresh server.
  const newcomer = uniqueName('audit');
  const created = await request.post('/api/user/create', {
    headers: { authorization: `Bearer ${await apiToken(request, 'admin')}` },
    data: { username: newcomer, email: `${newcomer}@example.co.za`, name: 'Audit Newcomer', password: 'Karoo2026!' },
  });
  expect(created.status(), await created.text()).toBe(201);
  await page.setViewportSize({ width: 1280, height: 900 });
  await loginThroughUi(page, 'admin');
  await expect(page).toHaveURL(/\/admin$/);
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveText(TABS.map((tab) => tab.label));

  const overflows: string[] = [];
  const axeFailures: string[] = [];
  for (const tab of TABS) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('tab', { name: tab.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(tab.id === 'dashboard' ? `tab=dashboard|/admin$` : `tab=${tab.id}`));
    await expect(page.getByRole('tab', { name: tab.label, exact: true })).toHaveAttribute('aria-selected', 'true');
    await waitForData(page, tab);
    await dismissToasts(page);
    await settle(page);
    await page.screenshot({ path: `test-results/screens/admin-tabs-${tab.id}-1280.png`, fullPage: true });
    await expectNoAxeViolations(page, `admin ${tab.id} tab at 1280 px`).catch((error: Error) => axeFailures.push(error.message));

    await page.setViewportSize({ width: 390, height: 844 });
    await waitForData(page, tab);
    await settle(page);
    await page.screenshot({ path: `test-results/screens/admin-tabs-${tab.id}-390.png`, fullPage: true });
    await expectNoAxeViolations(page, `admin ${tab.id} tab at 390 px`).catch((error: Error) => axeFailures.push(error.message));
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > 390) overflows.push(`${tab.label}: scrollWidth ${scrollWidth} px; ${(await overflowingElements(page)).join('; ')}`);
  }
  // Every tab checked before failing, so one run names all the tabs that overflow or fail axe.
  expect(axeFailures, axeFailures.join('\n')).toEqual([]);
  expect(overflows, overflows.join('\n')).toEqual([]);
});
