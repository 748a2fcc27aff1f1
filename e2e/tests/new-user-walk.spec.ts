// Issue 18, what a new user met, walked again at 1280 and 390 px: every option of the booking panel
// in view without a scroll area of its own, time selects a thumb can hit, registration's second
// step at the top with its heading focused, sort by distance when the browser keeps the position,
// bookings in plain words, a host's cars described as renters see them, earnings that tell two cars
// apart and an invoice that names who and what. Each screen is photographed (SHOTS_DIR).
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

const SHOTS_DIR = process.env.SHOTS_DIR ?? 'test-results/walk';
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

async function shot(page: Page, name: string, fullPage = true) {
  await page.screenshot({ path: `${SHOTS_DIR}/${name}-${page.viewportSize()!.width}.png`, fullPage });
}

/** A listed car whose insurance plans include Premium Cover (the option the old panel cut off). */
async function carWithPremiumCover(request: APIRequestContext): Promise<string> {
  const list = await request.get('/api/car/getCarList?limit=48');
  const cars = ((await list.json()) as { data: { car_username: string; insurance_options: { name: string }[]; pickup_options: unknown[] }[] }).data;
  const car = cars.find((c) => c.insurance_options.some((o) => o.name === 'Premium Cover') && c.pickup_options.length >= 2) ?? cars.find((c) => c.insurance_options.some((o) => o.name === 'Premium Cover'));
  expect(car, 'a demo car with Premium Cover').toBeTruthy();
  return car!.car_username;
}

/** Elements inside `selector` that scroll on their own (content taller than the box, overflow auto or scroll). */
async function nestedScrollers(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll('*'))]
      .filter((el) => {
        const style = getComputedStyle(el);
        return /(auto|scroll)/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
      })
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
  );
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('the booking panel shows every option, no scroll area inside it; hourly times are 44 px or taller', async ({ page, request }) => {
      const username = await carWithPremiumCover(request);
      await loginThroughUi(page, 'sipho');
      await page.goto(`/cars/${username}`);
      const panel = page.getByRole('complementary', { name: 'Booking' });
      await expect(panel.getByRole('button', { name: 'Book Now' })).toBeAttached();
      expect(await nestedScrollers(page, 'aside#booking')).toEqual([]);

      // Premium Cover is reached by the page's own scroll and shown whole.
      const premium = panel.getByText('Premium Cover').first();
      await premium.scrollIntoViewIfNeeded();
      await expect(premium).toBeInViewport();
      const insurance = panel.getByTestId('insurance-options');
      const box = (await insurance.boundingBox())!;
      expect(await insurance.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(1);
      expect(box.height).toBeGreaterThan(0);

      if (viewport.width === 1280) {
        // Sticky and taller than the window: scrolled down, its end (Book Now) comes into view and stays.
        await page.mouse.wheel(0, 3000);
        await expect(panel.getByRole('button', { name: 'Book Now' })).toBeInViewport();
      }

      await panel.getByRole('button', { name: 'Hourly', exact: true }).click();
      for (const label of ['Pickup time', 'Return time']) {
        const select = panel.getByLabel(label);
        const size = (await select.boundingBox())!;
        expect(size.height, `${label} height`).toBeGreaterThanOrEqual(44);
      }
      await panel.getByLabel('Pickup time').scrollIntoViewIfNeeded();
      await shot(page, 'car-page-hourly', false);
      await premium.scrollIntoViewIfNeeded();
      await shot(page, 'car-page-premium-cover', false);
    });

    test('registration: Continue shows step 2 from the top, its heading focused and clear of the header', async ({ page }) => {
      await page.goto('/register');
      await page.getByLabel('Full Name').fill('Ama Dube');
      await page.getByLabel('Email').fill(`ama${Date.now().toString(36)}@example.co.za`);
      await page.getByLabel('Username').fill(`ama${Date.now().toString(36)}`);
      await page.getByLabel('Password', { exact: true }).fill('Karoo2026!');
      await page.getByLabel('Confirm Password', { exact: true }).fill('Karoo2026!');
      await page.getByRole('button', { name: 'Continue' }).scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'Continue' }).click();
      const heading = page.getByRole('heading', { name: 'Terms & Privacy' });
      await expect(heading).toBeFocused();
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
      const header = await page.locator('header').first().boundingBox();
      const top = (await heading.boundingBox())!.y;
      expect(top).toBeGreaterThanOrEqual((header?.y ?? 0) + (header?.height ?? 0));
      await shot(page, 'register-step-2', false);
    });

    test('sort by distance with the position refused: said in the page, a base city to sort from, the URL as the state', async ({ page }) => {
      // The browser refuses the position (as when a person clicks Block).
      await page.addInitScript(() => {
        Object.defineProperty(navigator, 'geolocation', {
          configurable: true,
          value: { getCurrentPosition: (_ok: unknown, refuse: (e: { code: number; message: string }) => void) => setTimeout(() => refuse({ code: 1, message: 'User denied Geolocation' }), 50) },
        });
      });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto('/cars');
      await expect(page.getByTestId('vehicle-count')).toContainText('available');
      await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByLabel('Sort by', { exact: true }).selectOption('DISTANCE');
      const region = page.getByRole('region', { name: 'Sort by distance' });
      await expect(region.getByRole('status')).toContainText('Your browser did not share your location. To sort by distance, choose a city to measure from.');
      expect(dialogs).toEqual([]);
      await expect(page).toHaveURL(/[?&]sort=DISTANCE/);
      await expect(page.getByLabel('Sort by', { exact: true })).toHaveValue('DISTANCE');
      await expectNoAxeViolations(page, 'browse, distance without a position');
      await region.scrollIntoViewIfNeeded();
      await shot(page, 'browse-distance-refused', false);

      await region.getByLabel('Sort from a city').selectOption('Cape Town');
      await expect(page).toHaveURL(/[?&]near=Cape\+Town/);
      await expect(region).toHaveCount(0);
      await expect(page.getByTestId('vehicle-count')).toContainText('nearest to Cape Town first');
      await expect(page.getByText('Distance from Cape Town')).toBeVisible();
      // The first card is a Cape Town car; a reload keeps the order (the URL is the state).
      await expect(page.getByTestId('vehicle-card').first()).toContainText('Cape Town');
      await page.reload();
      await expect(page.getByTestId('vehicle-count')).toContainText('nearest to Cape Town first');
      await shot(page, 'browse-distance-cape-town', false);
    });

    test('my bookings say where each trip stands: a paid trip days away is "Paid · starts", never "Active"', async ({ page }) => {
      await loginThroughUi(page, 'sipho');
      await page.goto('/my-bookings');
      const cards = page.getByTestId('booking-card');
      await expect(cards.first()).toBeVisible();
      await expect(page.getByText('Booking Request', { exact: true })).toHaveCount(0);
      await expect(page.getByText('Active', { exact: true })).toHaveCount(0);
      await expect(page.getByText("Awaiting host's answer").first()).toBeVisible();
      await expect(page.getByText(/^On trip · return /).first()).toBeVisible();
      await expect(page.getByText(/^Accepted · pay by /).first()).toBeVisible();
      await expect(page.getByText('Declined by the host').first()).toBeVisible();
      await expectNoAxeViolations(page, 'my bookings');
      await cards.first().scrollIntoViewIfNeeded();
      await shot(page, 'my-bookings-renter', false);

      // kagiso paid for a trip 9 days away.
      await page.context().clearCookies();
      await page.evaluate(() => window.localStorage.clear());
      await loginThroughUi(page, 'kagiso');
      await page.goto('/my-bookings');
      await expect(page.getByText(/^Paid · starts \w{3} \d{1,2} \w{3,4}$/).first()).toBeVisible();
      await expect(page.getByText('Active', { exact: true })).toHaveCount(0);
      await page.getByText(/^Paid · starts /).first().scrollIntoViewIfNeeded();
      await shot(page, 'my-bookings-paid-upcoming', false);
    });

    test('a host with a car awaiting verification reads what renters will see', async ({ page }) => {
      await loginThroughUi(page, 'host_johan');
      await page.goto('/host-dashboard');
      const pending = page.locator('article', { hasText: 'Pending verification' }).first();
      await expect(pending).toBeVisible();
      await expect(pending.getByText('Renters can find and book it')).toHaveCount(0);
      await expect(pending.getByText(/Our team is reviewing this car\./)).toBeVisible();
      await expect(pending.getByText(/once it is verified|after it is verified/).last()).toBeVisible();
      await pending.scrollIntoViewIfNeeded();
      await shot(page, 'host-dashboard-pending', false);
      await page.goto('/earnings');
      await expect(page.getByText(/^\d+ listed on Karoo/)).toBeVisible();
      await page.getByText(/^\d+ listed on Karoo/).scrollIntoViewIfNeeded();
      await shot(page, 'earnings-host-johan', false);
    });

    test('earnings tell cars apart by plate; the invoice names the car, renter and host, and the host fee at its rate', async ({ page }) => {
      await loginThroughUi(page, 'host_thabo');
      await page.goto('/earnings');
      const byCar = page.getByRole('region', { name: 'Earnings by car' });
      await expect(byCar.getByRole('listitem').first()).toBeVisible();
      const plates = await byCar.locator('li .font-mono').allTextContents();
      expect(plates.length).toBeGreaterThan(0);
      expect(new Set(plates).size).toBe(plates.length);
      await byCar.scrollIntoViewIfNeeded();
      await shot(page, 'earnings', false);
      await page.getByRole('button', { name: /^Invoice for booking/ }).first().click();
      const invoice = page.getByRole('dialog', { name: /^Invoice INV-/ });
      await expect(invoice.getByText(/^Host fee \(\d+(\.\d+)?% of rental( and pickup)?\)$/)).toBeVisible();
      await expect(invoice.getByText('(host_thabo)')).toBeVisible();
      await expect(invoice.getByText(/ · plate /)).toBeVisible();
      await expect(invoice.getByText('Platform fee')).toHaveCount(0);
      await expectNoAxeViolations(page, 'invoice');
      await shot(page, 'invoice', false);
    });

    test('finance names the fees at the rates they were taken at', async ({ page }) => {
      await loginThroughUi(page, 'admin');
      await page.goto('/admin?tab=finance');
      const breakdown = page.getByRole('region', { name: 'Revenue breakdown' });
      await expect(breakdown.getByText(/^Host fees \(/)).toBeVisible();
      await expect(page.getByText('Each booking keeps the rates it was made at.', { exact: false })).toBeVisible();
      await breakdown.scrollIntoViewIfNeeded();
      await shot(page, 'finance-breakdown', false);
    });
  });
}
