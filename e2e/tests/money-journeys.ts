// Set-up for the money journeys (issues 34 and 35; decision 070): people and a car of their own,
// made through the API (registration, documents, an admin's verification, a listed car with trip
// terms), a paid trip under way at the run's now, its check-in, check-out and return; and the
// end-to-end server's test clock (devtools, test servers only) to reach days after the trip, with
// the job that would run then. The steps that are the point of a journey are in its spec, on screen.
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { addDays, E2E_TODAY } from './clock';
import { adminVerifyUser, apiToken, expect, samplePdf, uniqueName } from './fixtures';

export const SCREENS = 'test-results/screens';
const PASSWORD = 'Karoo2027!';
const CARD = { card_number: '4084084084084081', expiry: '12/39', cvv: '123' };
/** A 1 x 1 PNG as a data URL: a photo the server decodes and stores. */
const PHOTO = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export interface Member {
  username: string;
  password: string;
  fullName: string;
  token: string;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export async function call<T>(request: APIRequestContext, method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string, token: string, data?: unknown): Promise<T> {
  const res = await request[method](url, { headers: bearer(token), ...(data === undefined ? {} : { data }) });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** A new member with a complete, verified profile (ID, licence, bank letter): one who may book and list. */
export async function newVerifiedMember(request: APIRequestContext, prefix: string, fullName: string): Promise<Member> {
  const username = uniqueName(prefix);
  const registered = await request.post('/api/user/register', {
    data: { full_name: fullName, email: `${username}@example.co.za`, username, password: PASSWORD, terms_accepted: true, privacy_accepted: true },
  });
  expect(registered.status(), await registered.text()).toBe(201);
  const token = await apiToken(request, username, PASSWORD);
  await call(request, 'put', `/api/user/update/${username}`, token, {
    phone_number: '+27 72 555 3141',
    address: '8 Jan Smuts Ave, Parktown, Johannesburg, 2193',
    id_number: '9001015800085',
    bank_account: { account_number: '62098765432', bank_code: '250655' },
  });
  for (const type of ['id_document', 'driver_license', 'bank_confirmation_letter']) {
    const up = await request.post(`/api/user/${username}/upload-document`, {
      headers: bearer(token),
      multipart: { type, document: { name: `${type}.pdf`, mimeType: 'application/pdf', buffer: samplePdf(`${type} of ${username}`) } },
    });
    expect(up.status(), await up.text()).toBe(200);
  }
  await adminVerifyUser(request, username);
  return { username, password: PASSWORD, fullName, token };
}

export interface TermsCar {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
}

/**
 * A verified, listed car of `host` with trip terms: a R 3 500 deposit, a 48-litre petrol tank,
 * 200 km a day and R 3.50 a km beyond them, R 600 a day.
 */
export async function newListedCar(request: APIRequestContext, host: Member): Promise<TermsCar> {
  const created = await request.post(`/api/car/newCar/${host.username}`, {
    headers: bearer(host.token),
    data: {
      car_make: 'Toyota',
      car_model: uniqueName('Corolla'),
      car_year: 2022,
      car_color: 'Silver',
      car_type: 'Sedan',
      car_plate_number: `KR ${Date.now().toString(36).slice(-5).toUpperCase()} GP`,
      car_value: 280000,
      car_rent_price: 600,
      car_odometer: 41000,
      deposit: 3500,
      tank_litres: 48,
      distance_allowance_km: 200,
      extra_km_rate: 3.5,
      description: 'A tidy sedan for the money journeys: deposit, distance and fuel on the terms.',
      pickup_location: 'Johannesburg',
      specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.8L', fuelConsumption: '6.5L/100km' },
      features: ['Bluetooth'],
      safety: ['Airbags'],
      rules: [],
      pickup_options: [],
      insurance_options: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const car = ((await created.json()) as { data: TermsCar }).data;
  const upload = await request.post(`/api/car/uploadRegistrationDocument/${car.car_username}`, {
    headers: bearer(host.token),
    multipart: { registrationDocument: { name: 'registration.pdf', mimeType: 'application/pdf', buffer: samplePdf(`Registration ${car.car_username}`) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  await call(request, 'put', `/api/car/updateCar/${car.id}`, host.token, { images: [PHOTO] });
  const admin = await apiToken(request, 'admin');
  await call(request, 'patch', `/api/car/verifyRegistrationDocument/${car.car_username}`, admin, { verified: true });
  await call(request, 'patch', `/api/car/verifyCar/${car.id}`, admin, { verification_status: 'verified' });
  return car;
}

export interface Trip {
  id: string;
  booking_id: string;
}

/** The renter's request for today 06:00 to tomorrow 06:00 (under way at the run's 08:00), as the booking panel sends it. */
export async function requestTripToday(request: APIRequestContext, renter: Member, car: TermsCar): Promise<Trip> {
  return call<Trip>(request, 'post', '/api/booking/create', renter.token, {
    car_username: car.car_username,
    start_date: E2E_TODAY,
    end_date: addDays(E2E_TODAY, 1),
    start_time: '06:00',
    end_time: '06:00',
    is_hourly_booking: false,
  });
}

/** The host accepts the request, as My Bookings' Accept does. */
export async function acceptTrip(request: APIRequestContext, trip: Trip, host: Member): Promise<void> {
  await call(request, 'patch', `/api/booking/approve/${trip.id}`, host.token, {});
}

/** The sandbox card that pays at checkout and is declined when charged again (a claim beyond the deposit, decision 064). */
export const DECLINES_LATER_CARD = '4000000000009995';

/** The renter pays with the sandbox card (or another test card), as the checkout does. */
export async function payTrip(request: APIRequestContext, trip: Trip, renter: Member, cardNumber = CARD.card_number): Promise<void> {
  const { reference } = await call<{ reference: string }>(request, 'post', `/api/booking/${trip.id}/payment-session`, renter.token);
  await call(request, 'post', '/api/payments/sandbox/charge', renter.token, { reference, ...CARD, card_number: cardNumber });
}

const photo = (colour: string) => sharp({ create: { width: 320, height: 240, channels: 3, background: colour } }).jpeg().toBuffer();

/** A check-in or check-out record by `by`, with the four photos the form asks for. */
export async function recordTrip(request: APIRequestContext, trip: Trip, by: Member, stage: 'check_in' | 'check_out', odometerKm: number, fuelEighths: number) {
  const sides = { photo_front: '#1f6feb', photo_back: '#8250df', photo_left: '#1a7f37', photo_right: '#bf3989' };
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    stage,
    odometer_km: String(odometerKm),
    fuel_eighths: String(fuelEighths),
    note: stage === 'check_in' ? 'At the pickup' : 'At the return',
  };
  for (const [field, colour] of Object.entries(sides)) multipart[field] = { name: `${field}.jpg`, mimeType: 'image/jpeg', buffer: await photo(colour) };
  const res = await request.post(`/api/booking/${trip.id}/trip-records`, { headers: bearer(by.token), multipart, timeout: 60_000 });
  expect(res.status(), await res.text()).toBe(201);
}

/** The host marks the car returned: the trip is completed. */
export async function returnCar(request: APIRequestContext, host: Member, car: TermsCar, odometerKm: number) {
  await call(request, 'patch', `/api/car/returnCar/${car.id}`, host.token, { odometer_reading: odometerKm });
}

/**
 * Moves the test server's clock (and the page's, so both read the same day) `hours` forward: the
 * claim window closes, a payout day comes. Sessions made before may have expired: sign in again.
 */
export async function advanceServerClock(request: APIRequestContext, hours: number, pages: Page[] = []): Promise<Date> {
  const admin = await apiToken(request, 'admin');
  const { now } = await call<{ now: string }>(request, 'post', '/api/devtools/test-clock/advance', admin, { hours });
  for (const page of pages) await page.clock.setSystemTime(new Date(now));
  return new Date(now);
}

/** Back to the run's own time, for the next spec on this worker's server. */
export async function resetServerClock(request: APIRequestContext) {
  const admin = await apiToken(request, 'admin');
  await call(request, 'delete', '/api/devtools/test-clock', admin);
}

/** Runs a scheduled job's work now, as its next tick would. */
export async function runJob(request: APIRequestContext, name: 'trip-charges.sweep' | 'payouts.run' | 'payouts.sync') {
  const admin = await apiToken(request, 'admin');
  await call(request, 'post', `/api/devtools/jobs/${name}/run`, admin);
}

/** Screenshots of the page at 1280 and 390 px wide, the part `scrollTo` shows in view; back to 1280. */
export async function shoot(page: Page, name: string, scrollTo?: Locator) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 1280 ? 900 : 844 });
    if (scrollTo) await scrollTo.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Closes the toasts on screen, so that screenshots show the page under them. */
export async function dismissToasts(page: Page) {
  const buttons = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 10 && (await buttons.count()) > 0; i++) await buttons.first().click({ timeout: 1_000 }).catch(() => undefined);
  await expect(buttons).toHaveCount(0);
}
