// Document 2 renter journeys in the real app: a guest browses, filters, opens the map and a car
// and is asked to log in; a verified renter books one car by the day and another by the hour and
// sees the booked dates become unavailable, across a month's end. "Today" is E2E_TODAY (clock.ts).
import type { APIRequestContext, Page } from '@playwright/test';
import { addDays, E2E_TODAY } from './clock';
import { apiToken, expect, expectNoAxeViolations, loginThroughUi, test } from './fixtures';

function randOf(text: string): number {
  return Number(text.replace(/[^\d,]/g, '').replace(',', '.'));
}

interface ListedCar {
  car_username: string;
  car_make: string;
  car_model: string;
  car_owner: string;
}

/** Listed cars nobody holds from today on (so the journey's dates are free). */
async function freeCars(request: APIRequestContext, count: number): Promise<ListedCar[]> {
  const list = await request.get('/api/car/getCarList?limit=48&sort=PRICE_LOW');
  expect(list.status()).toBe(200);
  const cars = ((await list.json()) as { data: ListedCar[] }).data.filter((car) => car.car_owner !== 'sipho');
  const free: ListedCar[] = [];
  for (const car of cars) {
    const held = await request.get(`/api/car/${car.car_username}/availability`);
    if (((await held.json()) as { data: unknown[] }).data.length === 0) free.push(car);
    if (free.length === count) break;
  }
  expect(free).toHaveLength(count);
  return free;
}

/** Whole months from `from` ('YYYY-MM') to `to`. */
function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}

/** Opens a booking calendar and shows the month of `date`, going forward or back as needed. */
async function openCalendarAt(page: Page, label: RegExp, date: string) {
  await page.getByRole('button', { name: label }).click();
  const calendar = page.getByRole('dialog', { name: /choose/i });
  await expect(calendar).toBeVisible();
  const target = date.slice(0, 7);
  const shown = (await calendar.getAttribute('data-month'))!;
  const steps = monthsBetween(shown, target);
  for (let i = 0; i < Math.abs(steps); i++) {
    await calendar.getByRole('button', { name: steps > 0 ? 'Next month' : 'Previous month' }).click();
  }
  await expect(calendar).toHaveAttribute('data-month', target);
  await expect(calendar.locator(`[data-date="${date}"]`)).not.toHaveAttribute('data-outside-month', 'true');
  return calendar;
}

test('a guest browses, filters by type and price, opens the map and a car, and is asked to log in', async ({ page, request }) => {
  await page.goto('/');
  await expect(page.getByTestId('vehicle-count')).toHaveText(/^\d+$/);
  // The average of the demo reviews (no longer document 2's fixed 4.8).
  await expect(page.getByTestId('average-rating')).toHaveText(/^[1-5]\.\d$/);
  await expect(page.getByTestId('support')).toHaveText('24/7');
  await expectNoAxeViolations(page, 'landing');
  await page.getByRole('link', { name: 'Browse Cars', exact: true }).click();

  await expect(page).toHaveURL(/\/cars$/);
  await expect(page.getByRole('heading', { name: 'Browse Vehicles' })).toBeVisible();
  await expect(page.getByTestId('vehicle-count')).toHaveText(/\d+ vehicles available/);
  const allCount = Number((await page.getByTestId('vehicle-count').textContent())?.match(/\d+/)?.[0]);
  expect(allCount).toBeGreaterThan(12);
  await expect(page.getByTestId('vehicle-card')).toHaveCount(12);
  await expectNoAxeViolations(page, 'browse');

  // Load more vehicles really loads the next page.
  await page.getByRole('button', { name: 'Load more vehicles' }).click();
  await expect(page.getByTestId('vehicle-card')).toHaveCount(Math.min(24, allCount));

  // Filters go to the server: SUVs (SUV or Crossover) up to R1 000 a day.
  await page.getByRole('button', { name: /^Filters/ }).click();
  await page.getByRole('button', { name: 'SUV', exact: true }).click();
  await page.getByLabel('Maximum price').fill('1000');
  await expect(page).toHaveURL(/type=SUV/);
  await expect(page).toHaveURL(/maxPrice=1000/);
  await expectNoAxeViolations(page, 'browse, filters open');
  // The page shows the previous answer (all cars, then SUVs at any price) until the last one
  // arrives: wait for the count the server gives for both filters, then for as many cards.
  const expected = await request.get('/api/car/getCarList?type=SUV&maxPrice=1000');
  const filteredTotal = ((await expected.json()) as { meta: { total: number } }).meta.total;
  expect(filteredTotal).toBeGreaterThan(0);
  await expect(page.getByTestId('vehicle-count')).toHaveText(`${filteredTotal} ${filteredTotal === 1 ? 'vehicle' : 'vehicles'} available`);
  const cards = page.getByTestId('vehicle-card');
  await expect(cards).toHaveCount(Math.min(12, filteredTotal));
  const filteredCount = await cards.count();
  for (let i = 0; i < filteredCount; i++) {
    await expect(cards.nth(i).getByTestId('car-type')).toHaveText(/^(SUV|Crossover)$/);
    expect(randOf((await cards.nth(i).getByTestId('car-price').textContent()) ?? '')).toBeLessThanOrEqual(1000);
  }

  // The filters live in the URL: they survive a reload.
  await page.reload();
  await page.getByRole('button', { name: /^Filters/ }).click();
  await expect(page.getByRole('button', { name: 'SUV', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('vehicle-card')).toHaveCount(filteredCount);
  await page.getByRole('button', { name: /^Filters/ }).click();

  // The map: every matching car in its view (decision 046), as a price marker or counted in a
  // cluster's circle (no tiles offline); a marker opens the car's panel.
  await page.getByRole('button', { name: 'Show map' }).click();
  const map = page.getByTestId('car-map');
  await expect(map).toBeVisible();
  const carsOnMap = async () => {
    const singles = await map.locator('.leaflet-marker-icon:not(.karoo-cluster-marker)').count();
    const clustered = await map.locator('.karoo-cluster-marker [data-count]').evaluateAll((circles) => circles.map((circle) => Number(circle.getAttribute('data-count'))));
    return singles + clustered.reduce((sum, count) => sum + count, 0);
  };
  await expect.poll(carsOnMap).toBeGreaterThan(0);
  // Zoomed out to the whole country, the map counts every match, not only the loaded page's 12.
  await map.getByRole('button', { name: 'Zoom out' }).click();
  await map.getByRole('button', { name: 'Zoom out' }).click();
  await expect.poll(carsOnMap).toBe(filteredTotal);
  await map.getByRole('button', { name: 'Satellite' }).click();
  // Offline (as here) the imagery fails and the map falls back to the street tiles.
  await expect(map.getByText(/Satellite imagery is unavailable/).or(map.getByRole('button', { name: 'Satellite', pressed: true }))).toBeVisible();
  const firstName = (await cards.first().getByRole('heading').textContent())!.trim();
  await cards.first().getByRole('button', { name: `Show ${firstName} on the map` }).click();
  const panel = map.getByRole('region', { name: `${firstName} details` });
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Book Now' })).toBeVisible();
  await expectNoAxeViolations(page, 'browse, map with a car panel');
  await panel.getByRole('button', { name: 'Close details' }).click();
  await expect(panel).toHaveCount(0);
  await map.locator(`.leaflet-marker-icon[title^="${firstName}:"]`).first().click();
  await expect(panel).toBeVisible();
  await page.getByRole('button', { name: 'Hide map' }).click();
  await expect(map).toHaveCount(0);

  // A car's page: a guest must log in to book, and comes back after signing in.
  await cards.first().getByRole('link', { name: `Book ${firstName}` }).click();
  await expect(page).toHaveURL(/\/cars\/[a-z0-9-]+$/);
  const carPath = new URL(page.url()).pathname;
  await expect(page.getByRole('heading', { level: 1 })).toContainText(firstName);
  await expect(page.getByText('Please log in to book this vehicle')).toBeVisible();
  await expectNoAxeViolations(page, 'car detail (guest)');
  await expect(page.getByRole('button', { name: 'Book Now' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expectNoAxeViolations(page, 'login');
  await page.getByLabel('Username or Email').fill('sipho');
  await page.getByLabel('Password', { exact: true }).fill('Demo@1234');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`${carPath}$`));
  await expect(page.getByRole('button', { name: 'Book Now' })).toBeVisible();

  // An unknown car.
  await page.goto('/car/no-such-car-000000');
  await expect(page.getByRole('heading', { name: 'Car Not Found' })).toBeVisible();
  await expectNoAxeViolations(page, 'car not found');
});

test('a verified renter books a car by the day and another by the hour; the dates become unavailable', async ({ page, request }) => {
  const [dailyCar, hourlyCar] = await freeCars(request, 2);
  await loginThroughUi(page, 'sipho');

  // Daily: Next Week is a one-day rental starting in 7 days; from E2E_TODAY it crosses a month's end.
  const start = addDays(E2E_TODAY, 7);
  const end = addDays(start, 1);
  expect(end.slice(0, 7)).not.toBe(start.slice(0, 7));
  await page.goto(`/cars/${dailyCar!.car_username}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${dailyCar!.car_make} ${dailyCar!.car_model}`);
  const bookNow = page.getByRole('button', { name: 'Book Now' });
  await expect(bookNow).toBeDisabled();
  await page.getByRole('button', { name: 'Next Week' }).click();
  await expect(page.getByTestId('price-breakdown')).toContainText('× 1 day');
  await expect(page.getByTestId('price-breakdown')).toContainText('Service fee (10%)');
  await expectNoAxeViolations(page, 'car detail, booking panel with dates');
  await bookNow.click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Booking Request' });
  await expect(confirm).toBeVisible();
  await expectNoAxeViolations(page, 'booking confirmation dialog');
  await confirm.getByRole('button', { name: 'Send Request' }).click();
  await expect(page.getByText('Daily Booking Request Sent!')).toBeVisible();
  const done = page.getByRole('dialog', { name: 'Booking Request Sent' });
  await expect(done).toBeVisible();
  await expect(done.getByText('Pending', { exact: true })).toBeVisible();
  await expect(done.getByRole('link', { name: 'View My Bookings' })).toHaveAttribute('href', '/my-bookings');
  await expectNoAxeViolations(page, 'booking sent dialog');
  await done.getByRole('button', { name: 'Done' }).click();

  // The calendar opens on this month and shows the whole rental: its last day is one of the next
  // month's days that complete the last week.
  await page.getByRole('button', { name: /pickup date/i }).click();
  let calendar = page.getByRole('dialog', { name: /choose/i });
  await expect(calendar).toHaveAttribute('data-month', E2E_TODAY.slice(0, 7));
  await expect(calendar.locator(`[data-date="${end}"]`)).toHaveAttribute('data-outside-month', 'true');
  await expectNoAxeViolations(page, 'booking calendar');
  // The trip holds its hours (decision 047): from 09:00 on its first day to 17:00 on its last, so
  // both days keep some free hours and say so.
  for (const date of [start, end]) {
    await expect(calendar.locator(`[data-date="${date}"]`)).toHaveAttribute('data-state', 'partly');
    await expect(calendar.locator(`[data-date="${date}"]`)).toHaveAttribute('aria-label', /partly booked, some times free/);
  }
  await page.keyboard.press('Escape');
  // And the next month shows it too, with the first day among the previous month's.
  calendar = await openCalendarAt(page, /pickup date/i, end);
  await expect(calendar.locator(`[data-date="${start}"]`)).toHaveAttribute('data-state', 'partly');
  await expect(calendar.locator(`[data-date="${end}"]`)).toHaveAttribute('data-state', 'partly');
  await page.keyboard.press('Escape');

  // Next Week again: those dates are held, so it takes the first free day after them, and says so.
  const nextFree = addDays(end, 1);
  await page.getByRole('button', { name: 'Next Week' }).click();
  await expect(page.getByTestId('quick-note')).toContainText('is taken, so the first free date');
  calendar = await openCalendarAt(page, /pickup date/i, nextFree);
  await expect(calendar.locator(`[data-date="${nextFree}"]`)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Escape');

  // Someone else takes those dates meanwhile: Book Now is refused with document 2's words.
  const kagiso = await apiToken(request, 'kagiso');
  const taken = await request.post('/api/booking/create', {
    headers: { authorization: `Bearer ${kagiso}` },
    data: { car_username: dailyCar!.car_username, start_date: nextFree, end_date: addDays(nextFree, 1), start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
  });
  expect(taken.status()).toBe(201);
  await bookNow.click();
  // The page's copy of the held dates is a minute old at most: fresh, Book Now refuses at once;
  // stale, the confirmation opens and the server refuses. Both say it in document 2's words.
  const sendRequest = page.getByRole('dialog', { name: 'Confirm Booking Request' }).getByRole('button', { name: 'Send Request' });
  const refusedAtOnce = page.getByText('Dates Unavailable', { exact: true });
  await expect(sendRequest.or(refusedAtOnce)).toBeVisible();
  if (await sendRequest.isVisible()) await sendRequest.click();
  await expect(page.getByText('One or more selected dates are already booked or have pending requests. Please choose different dates.')).toBeVisible();

  // Hourly: tomorrow from 13:00 (one of the host's home's pickup times, decision 059) to 16:00.
  const tomorrow = addDays(E2E_TODAY, 1);
  await page.goto(`/cars/${hourlyCar!.car_username}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(`${hourlyCar!.car_make} ${hourlyCar!.car_model}`);
  await page.getByRole('button', { name: 'Hourly' }).click();
  await page.getByRole('button', { name: 'Tomorrow' }).click();
  await expect(page.getByLabel('Pickup time').locator('option', { hasText: /^10:00/ })).toHaveCount(0);
  await page.getByLabel('Pickup time').selectOption('13:00');
  await page.getByLabel('Return time').selectOption('13:30');
  await expect(page.getByText('Minimum booking duration is 1 hour.')).toBeVisible();
  await expectNoAxeViolations(page, 'hourly booking, error shown');
  await expect(page.getByRole('button', { name: 'Book Now' })).toBeDisabled();
  await page.getByLabel('Return time').selectOption('16:00');
  await expect(page.getByTestId('price-breakdown')).toContainText('× 3 hours');
  await page.getByRole('button', { name: 'Book Now' }).click();
  await page.getByRole('dialog', { name: 'Confirm Booking Request' }).getByRole('button', { name: 'Send Request' }).click();
  await expect(page.getByText('Hourly Booking Request Sent!')).toBeVisible();
  await page.getByRole('dialog', { name: 'Booking Request Sent' }).getByRole('button', { name: 'Done' }).click();

  // An hourly trip holds only its hours (decision 047): tomorrow keeps its other hours, and its
  // morning's pickup times inside the trip say they are taken.
  calendar = await openCalendarAt(page, /pickup date/i, tomorrow);
  await expect(calendar.locator(`[data-date="${tomorrow}"]`)).toHaveAttribute('data-state', 'partly');
  await calendar.locator(`[data-date="${tomorrow}"]`).click();
  await expect(page.getByLabel('Pickup time').locator('option', { hasText: '13:00 (taken)' })).toHaveCount(1);
  await expect(page.getByLabel('Pickup time').locator('option', { hasText: /^09:00$/ })).toHaveCount(1);
});
