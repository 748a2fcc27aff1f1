// Trip rules and long-trip discounts (issue 23, decision 048) in Chromium: a host sets a 2-day
// minimum and a 10% weekly discount on one car from Manage Details; a renter reads them on the car
// page, finds the day after the pickup greyed as "Minimum trip: 2 days.", books 8 days and sees
// the weekly discount as a line of the price, in the confirmation and on the stored booking. The
// host panel and the breakdown are photographed at 1280 and 390 px
// (test-results/screens/trip-rules-*.png). The car's rules are put back to the defaults at the end.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { addDays, E2E_NOW, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

const SCREENS = 'test-results/screens';
// A host whose cars no other journey books.
const HOST = 'host_johan';
const RENTER = 'priya';
const DEFAULT_RULES = {
  min_days: 1,
  max_days: null,
  min_hours: 1,
  max_hours: 24,
  advance_notice_hours: 0,
  booking_window_months: null,
  weekly_discount_percent: 0,
  monthly_discount_percent: 0,
};

interface ListedCar {
  id: string;
  car_username: string;
  car_rent_price: number;
  car_owner: string;
}

async function hostCar(request: APIRequestContext): Promise<ListedCar> {
  const list = await request.get(`/api/car/getCarList?limit=48&owner=${HOST}`);
  const cars = ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner === HOST);
  expect(cars.length).toBeGreaterThan(0);
  return cars[0]!;
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}

/** Opens a booking calendar and shows the month of `date`. */
async function openCalendarAt(page: Page, label: RegExp, date: string) {
  const calendar = page.getByRole('dialog', { name: /choose/i });
  // The car page is rendered on the server: a click before the page is hydrated opens nothing, so
  // click until the calendar shows.
  await expect(async () => {
    if (!(await calendar.isVisible())) await page.getByRole('button', { name: label }).click();
    await expect(calendar).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  const shown = (await calendar.getAttribute('data-month'))!;
  const steps = monthsBetween(shown, date.slice(0, 7));
  for (let i = 0; i < Math.abs(steps); i++) await calendar.getByRole('button', { name: steps > 0 ? 'Next month' : 'Previous month' }).click();
  await expect(calendar).toHaveAttribute('data-month', date.slice(0, 7));
  return calendar;
}

/**
 * Photographs `region` at 1280 and 390 px, checking it fits the phone and passes axe. With `show`,
 * the page's viewport is photographed with that part scrolled into view (a region taller than its
 * scrolling dialog would be cut off as an element).
 */
async function photograph(page: Page, region: Locator, name: string, show?: Locator) {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await region.scrollIntoViewIfNeeded();
    await expect(region).toBeVisible();
    expect(await region.evaluate((el) => el.scrollWidth <= el.clientWidth + 1), `${name} fits at ${width} px`).toBe(true);
    await expectNoAxeViolations(page, `${name}, ${width}`, region);
    if (show) {
      await show.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SCREENS}/trip-rules-${name}-${width}.png` });
    } else {
      await region.screenshot({ path: `${SCREENS}/trip-rules-${name}-${width}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a host sets a 2-day minimum and a weekly discount; a renter is told the minimum and books 8 days with the discount in the breakdown', async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  const car = await hostCar(request);
  const hostToken = await apiToken(request, HOST);
  try {
    // ---- The host ----
    await loginThroughUi(page, HOST);
    await page.goto('/host-dashboard');
    const card = page.getByTestId(`fleet-car-${car.car_username}`);
    await card.getByRole('button', { name: 'Manage Details' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Trip Rules and Discounts' }).click();
    const panel = dialog.getByTestId('trip-rules-editor');
    await panel.getByLabel('Minimum (days)').fill('2');
    await panel.getByLabel('Weekly, 7+ days (%)').fill('10');
    // The form refuses what the server refuses, in its words, before sending.
    await panel.getByLabel('Maximum (days)').fill('1');
    await panel.getByRole('button', { name: 'Save trip rules' }).click();
    await expect(panel.getByText('The maximum trip cannot be shorter than the minimum.')).toBeVisible();
    await panel.getByLabel('Maximum (days)').fill('');
    await expect(panel.getByTestId('discount-preview')).toContainText('(10% off');
    await photograph(page, panel, 'host-panel', panel.getByTestId('discount-preview'));
    await panel.getByRole('button', { name: 'Save trip rules' }).click();
    await expect(page.getByText('Trip Rules Saved')).toBeVisible();
    const saved = await request.get(`/api/car/getCarDetails/${car.car_username}`);
    expect(((await saved.json()) as { data: { trip_rules: typeof DEFAULT_RULES } }).data.trip_rules).toMatchObject({ min_days: 2, weekly_discount_percent: 10 });

    // ---- The renter, in a context of their own ----
    const renterContext = await browser.newContext();
    await renterContext.clock.install({ time: new Date(E2E_NOW) });
    const renterPage = await renterContext.newPage();
    await loginThroughUi(renterPage, RENTER);
    await renterPage.goto(`/cars/${car.car_username}`);
    await expect(renterPage.getByTestId('car-trip-rules')).toContainText('Minimum 2 days');
    await expect(renterPage.getByTestId('car-trip-rules')).toContainText('10% off weekly trips');
    const aside = renterPage.getByRole('complementary', { name: 'Booking' });
    await expect(aside.getByTestId('trip-rules-hint')).toContainText('Minimum 2 days');

    const start = addDays(E2E_TODAY, 22);
    const end = addDays(start, 8);
    let calendar = await openCalendarAt(renterPage, /Pickup date/i, start);
    await calendar.locator(`[data-date="${start}"]`).click();
    calendar = renterPage.getByRole('dialog', { name: 'Choose return date' });
    await expect(calendar).toBeVisible();
    // The day after the pickup is a 1-day trip: greyed, and says the rule.
    const dayAfter = calendar.locator(`[data-date="${addDays(start, 1)}"]`);
    await expect(dayAfter).toBeDisabled();
    await expect(dayAfter).toHaveAttribute('data-state', 'refused');
    await expect(dayAfter).toHaveAccessibleName(/\(Minimum trip: 2 days\.\)$/);
    await expect(calendar.locator(`[data-date="${addDays(start, 2)}"]`)).toBeEnabled();
    const shown = (await calendar.getAttribute('data-month'))!;
    for (let i = 0; i < monthsBetween(shown, end.slice(0, 7)); i++) await calendar.getByRole('button', { name: 'Next month' }).click();
    await calendar.locator(`[data-date="${end}"]`).click();

    const breakdown = aside.getByTestId('price-breakdown');
    await expect(breakdown.getByText('Weekly discount (10%)')).toBeVisible();
    const rental = car.car_rent_price * 8;
    const discount = Math.round(rental / 10);
    await expect(breakdown).toContainText('8 days');
    await photograph(renterPage, breakdown, 'breakdown');

    await aside.getByRole('button', { name: 'Book Now' }).click();
    const confirm = renterPage.getByRole('dialog', { name: 'Confirm Booking Request' });
    await expect(confirm.getByText('Weekly discount (10%)')).toBeVisible();
    await confirm.getByRole('button', { name: 'Send Request' }).click();
    const sent = renterPage.getByTestId('booking-confirmation');
    await expect(sent).toBeVisible();
    await expect(sent.getByText('Weekly discount (10%)')).toBeVisible();

    // Stored with the booking like every other part of the price.
    const renterToken = await apiToken(request, RENTER);
    const bookings = await request.get('/api/booking/getAll', { headers: { authorization: `Bearer ${renterToken}` } });
    const mine = ((await bookings.json()) as { data: { car_username: string; start_date: string; discount: number; discount_rate: number; subtotal: number; duration_days: number }[] }).data.find(
      (b) => b.car_username === car.car_username && b.start_date === start,
    );
    expect(mine).toMatchObject({ duration_days: 8, discount, discount_rate: 10, subtotal: rental - discount });
    await renterContext.close();
  } finally {
    // The car goes back to the defaults for any later journey.
    await request.patch(`/api/car/updateTripRules/${car.id}`, { headers: { authorization: `Bearer ${hostToken}` }, data: DEFAULT_RULES });
  }
});
