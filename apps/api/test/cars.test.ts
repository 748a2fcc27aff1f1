// Cars (document 2; decisions.md sections 1 and 4): who sees which cars, every browse filter and
// sort, paging, listing a car through the wizard's rules, owner-only fleet management, returns,
// verification, registration documents and reviews.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carListMetaSchema, carSchema, pagedEnvelope, type Car, type CarAvailability, type CarOwnerProfile, type Notification, type Review, type ReviewStats, type User } from '@karoo/shared';
import {
  createSignedInUser,
  createTestApp,
  createUser,
  expectError,
  expectOk,
  jpegBytes,
  multipart,
  pdfBytes,
  type TestApp,
} from './helpers';
import {
  approveRegistration,
  createTestBooking,
  createTestCar,
  createTestReview,
  newCarBody,
  PICKUP_AIRPORT,
  PICKUP_DELIVERY,
  PICKUP_HOME,
  pngDataUrl,
  type TestCarOptions,
} from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Page = { success: true; data: Car[]; meta: { total: number; page: number; limit: number } };

let t: TestApp;
let admin: Signed;
let host: Signed;
let otherHost: Signed;
let renter: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  otherHost = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

/** A model name no other test uses, so each test can search its own cars. */
const token = () => `Zq${randomBytes(4).toString('hex')}`;

async function browse(query: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url: `/api/car/getCarList?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
const names = (page: Page) => page.data.map((c) => c.car_make);

async function carsOf(model: string, specs: (TestCarOptions & { make: string })[], owner: { id: string } = host.user) {
  const rows = [];
  for (const spec of specs) rows.push(await createTestCar(t.ctx, owner, { model, ...spec }));
  return rows;
}

describe('browse visibility', () => {
  it('lists only available, verified cars that are not on a rental right now', async () => {
    const m = token();
    const [, , , , , rented] = await carsOf(m, [
      { make: 'Listed' },
      { make: 'Offline', status: 'offline' },
      { make: 'Pending', verification_status: 'pending_verification' },
      { make: 'Rejected', verification_status: 'rejected' },
      { make: 'Deleted', deleted: true },
      { make: 'RentedNow' },
      { make: 'Maintenance', status: 'maintenance' },
    ]);
    await createTestBooking(t.ctx, rented!, renter.user, { start: '2030-03-09', days: 3, status: 'active' });

    const page = await browse(`search=${m}`);
    expect(names(page)).toEqual(['Listed']);
    expect(page.meta).toEqual({ total: 1, page: 1, limit: 12, total_exact: true, has_more: false });
    // The same for a signed-in renter, and includeUnverified means nothing to a non-admin.
    expect(names(await browse(`search=${m}&includeUnverified=true`, renter.headers))).toEqual(['Listed']);
    expect(names(await browse(`search=${m}&includeUnverified=true`, host.headers))).toEqual(['Listed']);

    const all = await browse(`search=${m}&includeUnverified=true&limit=48`, admin.headers);
    expect(names(all).sort()).toEqual(['Listed', 'Maintenance', 'Offline', 'Pending', 'Rejected', 'RentedNow']);
    const rentedCar = all.data.find((c) => c.car_make === 'RentedNow')!;
    expect(rentedCar).toMatchObject({ isRented: true, status: 'rented', assigned_user: renter.user.username });
    expect(all.data.find((c) => c.car_make === 'Pending')).toHaveProperty('registration_document', null);
  });

  it('shows an owner every one of their cars, and others only the listed ones', async () => {
    const owner = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    await createTestCar(t.ctx, owner.user, { make: 'Mine1' });
    await createTestCar(t.ctx, owner.user, { make: 'Mine2', status: 'offline' });
    await createTestCar(t.ctx, owner.user, { make: 'Mine3', verification_status: 'pending_verification' });
    await createTestCar(t.ctx, owner.user, { make: 'Gone', deleted: true });

    const own = await browse(`owner=${owner.user.username}`, owner.headers);
    expect(names(own).sort()).toEqual(['Mine1', 'Mine2', 'Mine3']);
    expect(own.data[0]).toHaveProperty('admin_notes');
    expect(names(await browse(`owner=${owner.user.username}`, admin.headers)).sort()).toEqual(['Mine1', 'Mine2', 'Mine3']);
    const seen = await browse(`owner=${owner.user.username}`, renter.headers);
    expect(names(seen)).toEqual(['Mine1']);
    expect(seen.data[0]).not.toHaveProperty('admin_notes');
    expect(seen.data[0]).not.toHaveProperty('registration_document');
    expect((await browse('owner=nobody_like_this')).data).toEqual([]);
  });

  it('answers every field of document 2 in rand, with the host', async () => {
    const m = token();
    await carsOf(m, [{ make: 'Fields', price: 455.5, value: 320000 }]);
    const [car] = (await browse(`search=${m}`)).data;
    expect(car).toMatchObject({
      car_make: 'Fields',
      car_model: m,
      car_owner: host.user.username,
      car_rent_price: 455.5,
      car_value: 320000,
      description: car!.car_description,
      images: car!.car_images,
      transmission: 'automatic',
      fuel_type: 'Petrol',
      seating_capacity: 5,
      isRented: false,
      totalReviews: 0,
      rating: null,
      verification_status: 'verified',
      host: { username: host.user.username, full_name: host.user.full_name, rating: null },
    });
    expect(car!.specifications).toEqual({ transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.8L', fuelConsumption: '6.2L/100km' });
    expect(car!.pickup_options.map((o) => o.id)).toEqual(['pickup_home', 'pickup_airport']);
  });

  it('answers exactly the documented shape (the list is serialised by hand for speed)', async () => {
    const m = token();
    await carsOf(m, [{ make: 'Shape' }]);
    for (const [query, headers] of [[`search=${m}`, {}], [`search=${m}&includeUnverified=true&lat=-33.9&lng=18.4`, admin.headers]] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/api/car/getCarList?${query}`, headers });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json<Page>();
      expect(pagedEnvelope(carSchema).extend({ meta: carListMetaSchema }).strict().parse(body)).toEqual(body);
    }
  });
});

describe('browse filters', () => {
  it('searches make, model, type and location, every word', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Toyota', city: 'Durban' },
      { make: 'Volkswagen', city: 'Cape Town' },
      { make: 'Toyota', city: 'Cape Town', type: 'SUV' },
    ]);
    expect((await browse(`search=${m}`)).meta.total).toBe(3);
    expect((await browse(`search=${m}%20toyota`)).meta.total).toBe(2);
    expect((await browse(`search=${m}%20toyota%20cape`)).meta.total).toBe(1);
    expect((await browse(`search=${m}%20suv`)).meta.total).toBe(1);
    expect((await browse(`search=${m}&location=durban`)).data.map((c) => c.pickup_location)).toEqual(['Durban']);
    // LIKE wildcards are never wildcards: they separate words like any punctuation.
    expect((await browse(`search=_${m.slice(1)}`)).meta.total).toBe(0);
    expect((await browse(`search=${m.slice(0, 3)}%25${m.slice(4)}`)).meta.total).toBe(0);
  });

  it('matches words at their start (polo is not Polokwane) and puts make and model matches first', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Mercedes-Benz', model: `C-Class ${m}`, city: 'Polokwane', type: 'Luxury Car', rating: 5, total_reviews: 40 },
      { make: 'Volkswagen', model: `Polo ${m}`, city: 'Cape Town', type: 'Hatchback', rating: 3, total_reviews: 2 },
      { make: 'Toyota', model: `Corolla Cross ${m}`, city: 'Durban', type: 'SUV', rating: 3, total_reviews: 1 },
      { make: 'Kia', model: `Seltos ${m}`, city: 'Pretoria', type: 'Crossover', rating: 5, total_reviews: 90 },
    ]);
    const makes = async (q: string) => names(await browse(`search=${encodeURIComponent(`${q} ${m}`)}`));
    expect(await makes('polo')).toEqual(['Volkswagen']);
    expect(await makes('polokwane')).toEqual(['Mercedes-Benz']);
    expect(await makes('class')).toEqual(['Mercedes-Benz']);
    expect(await makes('c-class')).toEqual(['Mercedes-Benz']);
    expect(await makes('benz')).toEqual(['Mercedes-Benz']);
    expect(await makes('olo')).toEqual([]);
    // "cross" starts a word of the Toyota's model and of the Kia's type: the model match comes
    // first although the Kia is rated higher.
    expect(await makes('cross')).toEqual(['Toyota', 'Kia']);
  });

  it('filters by browse type, car type, transmission and fuel', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Cheap', type: 'Sedan', price: 400 },
      { make: 'Suv', type: 'SUV', price: 900, transmission: 'Manual' },
      { make: 'Cross', type: 'Crossover', price: 700, fuelType: 'Diesel' },
      { make: 'Lux', type: 'Luxury Car', price: 1800 },
      { make: 'PricySedan', type: 'Sedan', price: 1200 },
      { make: 'Bakkie', type: 'Pickup Truck', price: 1100, fuelType: 'Diesel', transmission: 'Manual' },
    ]);
    const sorted = async (q: string) => names(await browse(`search=${m}&${q}&limit=48`)).sort();
    expect(await sorted('type=Economy')).toEqual(['Cheap']);
    expect(await sorted('type=SUV')).toEqual(['Cross', 'Suv']);
    expect(await sorted('type=Luxury')).toEqual(['Bakkie', 'Lux', 'PricySedan']);
    expect(await sorted('type=Sedan')).toEqual(['Cheap', 'PricySedan']);
    expect(await sorted('type=pickup%20truck')).toEqual(['Bakkie']);
    expect(await sorted('type=All')).toHaveLength(6);
    expect(await sorted('transmission=manual')).toEqual(['Bakkie', 'Suv']);
    expect(await sorted('fuel=Diesel')).toEqual(['Bakkie', 'Cross']);
    expect(await sorted('fuel=Diesel&transmission=Automatic')).toEqual(['Cross']);
  });

  it('needs every listed feature, in any case', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Both', features: ['Bluetooth', 'Sunroof', 'Heated Seats'] },
      { make: 'One', features: ['Bluetooth'] },
      { make: 'None', features: [] },
    ]);
    expect(names(await browse(`search=${m}&features=bluetooth`)).sort()).toEqual(['Both', 'One']);
    expect(names(await browse(`search=${m}&features=Bluetooth,sunroof`))).toEqual(['Both']);
    expect(names(await browse(`search=${m}&features=Bluetooth&features=Heated%20Seats`))).toEqual(['Both']);
    expect(names(await browse(`search=${m}&features=Apple%20CarPlay`))).toEqual([]);
  });

  it('filters by daily price in rand, both ends included', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'P350', price: 350 },
      { make: 'P600', price: 600 },
      { make: 'P1000', price: 1000 },
    ]);
    expect(names(await browse(`search=${m}&minPrice=600&sort=PRICE_LOW`))).toEqual(['P600', 'P1000']);
    expect(names(await browse(`search=${m}&maxPrice=600&sort=PRICE_LOW`))).toEqual(['P350', 'P600']);
    expect(names(await browse(`search=${m}&minPrice=400&maxPrice=999`))).toEqual(['P600']);
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?minPrice=900&maxPrice=100` }), 400, 'The minimum price cannot be more than the maximum price.');
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?minPrice=abc` }), 400);
  });

  it('filters by pickup type: host delivery (premium option) or a pickup point', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Delivers', pickup_options: [PICKUP_DELIVERY] },
      { make: 'Airport', pickup_options: [PICKUP_AIRPORT] },
      { make: 'BothWays', pickup_options: [PICKUP_HOME, PICKUP_DELIVERY] },
      { make: 'NoOptions', pickup_options: [] },
    ]);
    const sorted = async (q: string) => names(await browse(`search=${m}&${q}`)).sort();
    expect(await sorted('pickupType=HOST_DELIVERY')).toEqual(['BothWays', 'Delivers']);
    expect(await sorted('pickupType=pickup_point')).toEqual(['Airport', 'BothWays', 'NoOptions']);
    expect(await sorted('pickupType=ALL')).toHaveLength(4);
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?pickupType=TELEPORT' }), 400);
  });

  it('hides cars held by a pending, confirmed or active booking in the date window only', async () => {
    const m = token();
    const [pending, confirmed, active, cancelled, completed, free] = await carsOf(m, [
      { make: 'Pending' },
      { make: 'Confirmed' },
      { make: 'Active' },
      { make: 'Cancelled' },
      { make: 'Completed' },
      { make: 'Free' },
    ]);
    await createTestBooking(t.ctx, pending!, renter.user, { start: '2030-04-01', end: '2030-04-03', status: 'pending' });
    await createTestBooking(t.ctx, confirmed!, renter.user, { start: '2030-04-03', end: '2030-04-05', status: 'confirmed' });
    await createTestBooking(t.ctx, active!, renter.user, { start: '2030-03-28', end: '2030-04-01', status: 'active' });
    await createTestBooking(t.ctx, cancelled!, renter.user, { start: '2030-04-01', end: '2030-04-05', status: 'cancelled' });
    await createTestBooking(t.ctx, completed!, renter.user, { start: '2030-04-01', end: '2030-04-05', status: 'completed' });
    await createTestBooking(t.ctx, free!, renter.user, { start: '2030-04-10', end: '2030-04-12', status: 'confirmed' });

    const sorted = async (q: string) => names(await browse(`search=${m}&${q}`)).sort();
    expect(await sorted('startDate=2030-04-01&endDate=2030-04-03')).toEqual(['Cancelled', 'Completed', 'Free']);
    // Dates are inclusive: the last day of one booking is held.
    expect(await sorted('startDate=2030-04-05&endDate=2030-04-06')).toEqual(['Active', 'Cancelled', 'Completed', 'Free', 'Pending']);
    expect(await sorted('startDate=2030-05-01&endDate=2030-05-03')).toHaveLength(6);
    expect(await sorted('')).toHaveLength(6);
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?startDate=2030-04-05&endDate=2030-04-01' }), 400, 'End date must be after start date.');
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?startDate=05/04/2030' }), 400);
  });
});

describe('browse sort and paging', () => {
  it('sorts by price both ways and by relevance (rating, then reviews, then newest)', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Mid', price: 700, rating: 4.2, total_reviews: 10 },
      { make: 'Low', price: 300, rating: null },
      { make: 'High', price: 1500, rating: 4.9, total_reviews: 3 },
      { make: 'MidPopular', price: 800, rating: 4.2, total_reviews: 30 },
    ]);
    expect(names(await browse(`search=${m}&sort=PRICE_LOW`))).toEqual(['Low', 'Mid', 'MidPopular', 'High']);
    expect(names(await browse(`search=${m}&sort=PRICE_HIGH`))).toEqual(['High', 'MidPopular', 'Mid', 'Low']);
    expect(names(await browse(`search=${m}&sort=RELEVANCE`))).toEqual(['High', 'MidPopular', 'Mid', 'Low']);
    expect(names(await browse(`search=${m}`))).toEqual(['High', 'MidPopular', 'Mid', 'Low']);
  });

  it('sorts by distance from the user, cars without a position last, and says how far', async () => {
    const m = token();
    await carsOf(m, [
      { make: 'Joburg', city: 'Johannesburg', latitude: -26.2041, longitude: 28.0473 },
      { make: 'CapeTown', city: 'Cape Town', latitude: -33.9249, longitude: 18.4241 },
      { make: 'Nowhere', city: 'Somewhere', latitude: null, longitude: null },
      { make: 'Pretoria', city: 'Pretoria', latitude: -25.7479, longitude: 28.2293 },
    ]);
    // From Sandton.
    const page = await browse(`search=${m}&sort=DISTANCE&lat=-26.1076&lng=28.0567`);
    expect(names(page)).toEqual(['Joburg', 'Pretoria', 'CapeTown', 'Nowhere']);
    expect(page.data[0]!.distance_km).toBeGreaterThan(9);
    expect(page.data[0]!.distance_km).toBeLessThan(12);
    expect(page.data[2]!.distance_km).toBeGreaterThan(1200);
    expect(page.data[3]!.distance_km).toBeNull();
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?sort=DISTANCE' }), 400, 'Sorting by distance needs your location: send lat and lng.');
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?sort=DISTANCE&lat=-26.1' }), 400);
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?sort=CHEAPEST' }), 400);
  });

  it('pages 12 at a time by default (48 at most) with meta { total, page, limit, total_exact, has_more }', async () => {
    const m = token();
    for (let i = 0; i < 15; i++) await createTestCar(t.ctx, host.user, { make: `Car${String(i).padStart(2, '0')}`, model: m, price: 100 + i });
    const first = await browse(`search=${m}&sort=PRICE_LOW`);
    expect(first.meta).toEqual({ total: 15, page: 1, limit: 12, total_exact: true, has_more: true });
    expect(first.data).toHaveLength(12);
    const second = await browse(`search=${m}&sort=PRICE_LOW&page=2`);
    expect(second.meta).toEqual({ total: 15, page: 2, limit: 12, total_exact: true, has_more: false });
    expect(names(second)).toEqual(['Car12', 'Car13', 'Car14']);
    const small = await browse(`search=${m}&sort=PRICE_LOW&page=3&limit=5`);
    expect(names(small)).toEqual(['Car10', 'Car11', 'Car12', 'Car13', 'Car14']);
    const beyond = await browse(`search=${m}&page=9`);
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toEqual({ total: 15, page: 9, limit: 12, total_exact: true, has_more: false });
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?limit=49' }), 400, 'limit must be at most 48');
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarList?page=0' }), 400);
  });
});

describe('car details, availability and owner', () => {
  it('finds a listed car by id or car_username for anyone; unlisted ones only for the owner and admins', async () => {
    const listed = await createTestCar(t.ctx, host.user, { make: 'Shown' });
    const hidden = await createTestCar(t.ctx, host.user, { make: 'Hidden', verification_status: 'pending_verification' });
    const gone = await createTestCar(t.ctx, host.user, { make: 'Gone', deleted: true });

    for (const id of [listed.id, listed.car_username, listed.car_username.toUpperCase()]) {
      const car = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${id}` }));
      expect(car.id).toBe(listed.id);
      expect(car).not.toHaveProperty('registration_document');
      expect(car).not.toHaveProperty('admin_notes');
    }
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${hidden.id}` }), 404, 'Car not found');
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${hidden.id}`, headers: otherHost.headers }), 404);
    const own = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${hidden.id}`, headers: host.headers }));
    expect(own).toMatchObject({ verification_status: 'pending_verification', registration_document: null, admin_notes: null });
    expectOk(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${hidden.car_username}`, headers: admin.headers }));
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${gone.id}`, headers: admin.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: '/api/car/getCarDetails/no-such-car-000000' }), 404);
  });

  it('lists the held dates of a car without personal data', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-20', end: '2030-03-22', status: 'pending' });
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-12', end: '2030-03-14', status: 'confirmed' });
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-15', end: '2030-03-16', status: 'cancelled' });
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-02-01', end: '2030-02-03', status: 'completed' });
    const held = expectOk<CarAvailability[]>(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/availability` }));
    // Each with the time it holds (decision 047): pickup 09:00 to return 17:00, Johannesburg.
    expect(held).toEqual([
      { start_date: '2030-03-12', end_date: '2030-03-14', status: 'confirmed', kind: 'booking', from: '2030-03-12T07:00:00.000Z', to: '2030-03-14T15:00:00.000Z', is_hourly_booking: false, buffer_minutes: 0 },
      { start_date: '2030-03-20', end_date: '2030-03-22', status: 'pending', kind: 'booking', from: '2030-03-20T07:00:00.000Z', to: '2030-03-22T15:00:00.000Z', is_hourly_booking: false, buffer_minutes: 0 },
    ]);
    expect(expectOk<CarAvailability[]>(await t.app.inject({ method: 'GET', url: `/api/car/${car.id}/availability?from=2030-03-15` }))).toHaveLength(1);
  });

  it('shows the owner\u2019s public profile by car or by host', async () => {
    const car = await createTestCar(t.ctx, otherHost.user);
    const byCar = expectOk<CarOwnerProfile>(await t.app.inject({ method: 'GET', url: `/api/car/owner/${car.car_username}` }));
    expect(byCar).toMatchObject({ username: otherHost.user.username, full_name: otherHost.user.full_name });
    expect(byCar).not.toHaveProperty('email');
    expect(byCar.total_cars).toBeGreaterThanOrEqual(1);
    expectOk(await t.app.inject({ method: 'GET', url: `/api/car/owner/${otherHost.user.username}` }));
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/owner/${renter.user.username}` }), 404);
  });

  it('retires the old rent call with 410', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/car/rentCar/anything', payload: {} }), 410, /\/api\/booking\/create/);
  });
});

describe('listing a car (POST /car/newCar/{username})', () => {
  const post = (username: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/car/newCar/${username}`, payload, headers });

  it('needs a sign-in, and only lists on one\u2019s own account (admins on anyone\u2019s)', async () => {
    expectError(await post(renter.user.username, newCarBody()), 401);
    expectError(await post(host.user.username, newCarBody(), renter.headers), 403);
  });

  it('applies the wizard\u2019s rules with its messages', async () => {
    const u = renter.user.username;
    const h = renter.headers;
    const submit = 'Please fill in car make, model, type, and rental price.';
    expect(expectError(await post(u, newCarBody({ car_make: '' }), h), 400, submit).errors).toEqual({ car_make: 'Required' });
    expectError(await post(u, newCarBody({ car_rent_price: 0 }), h), 400, submit);
    expectError(await post(u, newCarBody({ description: '   ' }), h), 400, 'Please provide a description for your vehicle.');
    const step1 = expectError(await post(u, newCarBody({ car_plate_number: '', pickup_location: '' }), h), 400, 'Please fill in all required fields before continuing.');
    expect(step1.errors).toEqual({ car_plate_number: 'Required', pickup_location: 'Required' });
    expectError(await post(u, newCarBody({ specifications: { seats: 9 } }), h), 400, 'Seats must be between 2 and 8.');
    expectError(await post(u, newCarBody({ specifications: { doors: 6 } }), h), 400, 'Doors must be between 2 and 5.');
    expectError(await post(u, newCarBody({ car_value: 20000 }), h), 400, /^Vehicle value must be at least R.50.000 to list on Karoo\.$/);
    expectError(await post(u, newCarBody({ images: Array.from({ length: 11 }, pngDataUrl) }), h), 400, 'You can add at most 10 photos.');
    expectError(await post(u, newCarBody({ images: [`data:image/png;base64,${Buffer.from('<svg/>').toString('base64')}`] }), h), 400, 'Photo 1 is not a JPEG, PNG or WebP image.');
    expectError(await post(u, newCarBody({ images: ['https://example.com/car.jpg'] }), h), 400);
    expectError(await post(u, newCarBody({ pickup_options: [{ name: 'Airport', address: '' }] }), h), 400, 'Pickup address is required');
    // Nothing was listed by the refusals, and the renter is still a customer.
    expect(expectOk<User>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: h })).role).toBe('customer');
  });

  it('a plate is listed once: another car with it gets 409 (case, spaces and hyphens aside); a deleted car frees it', async () => {
    const lister = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const u = lister.user.username;
    const first = expectOk<Car>(await post(u, newCarBody({ car_plate_number: 'GP 77-12 ZZ' }), lister.headers), 201);
    for (const same of ['GP 77-12 ZZ', 'gp7712zz', 'GP-77 12-ZZ']) {
      const refused = expectError(await post(u, newCarBody({ car_plate_number: same }), lister.headers), 409, 'A car with this plate number is already listed on Karoo.');
      expect(refused.errors).toEqual({ car_plate_number: 'A car with this plate number is already listed on Karoo.' });
    }
    // Another car may not take it over by an update either; the car itself may keep it.
    const second = expectOk<Car>(await post(u, newCarBody(), lister.headers), 201);
    expectError(await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${second.id}`, headers: lister.headers, payload: { car_plate_number: 'gp 7712 zz' } }), 409);
    expectOk(await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${first.id}`, headers: lister.headers, payload: { car_plate_number: 'GP 77-12 ZZ' } }));
    // Two at once: the unique index lets one through.
    const racing = await Promise.all([1, 2, 3].map(() => post(u, newCarBody({ car_plate_number: 'KZN 555-01' }), lister.headers)));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/car/deleteCar/${first.id}`, headers: lister.headers }));
    expectOk(await post(u, newCarBody({ car_plate_number: 'GP 77-12 ZZ' }), lister.headers), 201);
  });

  it('creates a pending car with stored photos, and makes a first-time lister a host', async () => {
    const lister = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = expectOk<Car>(
      await post(
        lister.user.username,
        newCarBody({
          car_plate_number: 'ca 123-456',
          car_username: 'ignored because it is NOT valid!',
          images: [pngDataUrl(), `data:image/jpeg;base64,${jpegBytes().toString('base64')}`],
          specifications: { seats: 5 },
          transmission: 'manual',
          pickup_options: [{ name: 'Home', address: '5 Loop St' }, { id: 'pickup_keep', name: 'Airport', address: 'CTIA', additional_fee: 200, type: 'airport' }],
          insurance_options: [{ name: 'Standard', description: 'Lower excess', daily_rate: 90, coverage: 'Theft, Collision ,' }],
        }),
        lister.headers,
      ),
      201,
    );
    expect(car).toMatchObject({
      car_owner: lister.user.username,
      status: 'available',
      verification_status: 'pending_verification',
      pickup_location: 'Cape Town',
      latitude: -33.9249,
      longitude: 18.4241,
      car_plate_number: 'CA 123-456',
      rules: ['No smoking'],
      registration_document: null,
    });
    expect(car.car_username).toMatch(/^toyota-corolla-cross-\d{6}$/);
    expect(car.specifications.transmission).toBe('Manual');
    expect(car.transmission).toBe('manual');
    expect(car.pickup_options[0]).toMatchObject({ name: 'Home', type: 'standard', additional_fee: 0, available_times: ['09:00', '13:00', '17:00'] });
    expect(car.pickup_options[0]!.id).toMatch(/^pickup_/);
    expect(car.pickup_options[1]!.id).toBe('pickup_keep');
    expect(car.insurance_options[0]).toMatchObject({ coverage: ['Theft', 'Collision'], excess_amount: 0, included: false });
    expect(car.insurance_options[0]!.id).toMatch(/^insurance_/);
    expect(car.images).toHaveLength(2);
    // Every photo is stored as a JPEG, re-encoded without metadata (decision 031).
    expect(car.images[0]).toMatch(new RegExp(`^/uploads/cars/${car.id}/[0-9a-f]+\\.jpg$`));
    expect(car.images[1]).toMatch(/\.jpg$/);
    const photo = await t.app.inject({ method: 'GET', url: car.images[0]! });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/jpeg');

    const me = expectOk<User>(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: lister.headers }));
    expect(me).toMatchObject({ role: 'host', user_type: 'host' });
    expect(me.host_since).not.toBeNull();

    // Not public until an admin verifies it; then listed, and the owner is told.
    expect((await browse(`owner=${lister.user.username}`)).data).toEqual([]);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${car.id}`, headers: lister.headers, payload: { verification_status: 'verified' } }), 403);
    expectError(
      await t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${car.id}`, headers: admin.headers, payload: { verification_status: 'rejected', admin_notes: ' ' } }),
      400,
      'Rejection notes are required',
    );
    // Verified once its registration document is approved (it has photos; decision 033).
    await approveRegistration(t.app, car.car_username, lister.headers, admin.headers);
    expect(
      expectOk<Car>(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${car.car_username}`, headers: admin.headers, payload: { verification_status: 'verified' } })),
    ).toMatchObject({ verification_status: 'verified' });
    expect(names(await browse(`owner=${lister.user.username}`))).toEqual(['Toyota']);
    const notes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: lister.headers }));
    expect(notes[0]).toMatchObject({ type: 'car_verified', title: 'Car verified' });
  });

  it('keeps a free proposed car_username, refuses a taken one, and lets an admin list for a user', async () => {
    const wanted = `my-car-${randomBytes(3).toString('hex')}`;
    const car = expectOk<Car>(await post(host.user.username, newCarBody({ car_username: wanted }), host.headers), 201);
    expect(car.car_username).toBe(wanted);
    expectError(await post(host.user.username, newCarBody({ car_username: wanted }), host.headers), 409, 'This car username is already taken');
    const forUser = await createUser(t.ctx, { verification_status: 'verified' });
    expect(expectOk<Car>(await post(forUser.username, newCarBody(), admin.headers), 201).car_owner).toBe(forUser.username);
  });
});

describe('fleet management is for the owner and admins only', () => {
  it('answers 404 to another host for every change, and lets the owner and an admin make them', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const calls: [string, string, object][] = [
      ['PUT', `/api/car/updateCar/${car.id}`, { car_color: 'Red' }],
      ['POST', `/api/rent/updateCarRentPrice/${car.id}`, { car_rent_price: 650 }],
      ['PATCH', `/api/car/updatePickupLocation/${car.id}`, { pickup_location: 'Durban' }],
      ['PATCH', `/api/car/updatePickupOptions/${car.id}`, { pickup_options: [] }],
      ['PATCH', `/api/car/updateInsuranceOptions/${car.id}`, { insurance_options: [] }],
      ['PATCH', `/api/car/returnCar/${car.id}`, {}],
      ['DELETE', `/api/car/deleteCar/${car.id}`, {}],
    ];
    for (const [method, url, payload] of calls) {
      const res = await t.app.inject({ method: method as 'PUT', url, payload, headers: otherHost.headers });
      expectError(res, 404, 'Car not found');
      expectError(await t.app.inject({ method: method as 'PUT', url, payload }), 401);
    }
    const after = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}` }));
    expect(after).toMatchObject({ car_color: 'White', car_rent_price: 500, pickup_location: 'Cape Town' });

    expect(expectOk<Car>(await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers: host.headers, payload: { car_color: 'red' } })).car_color).toBe('Red');
    const priced = expectOk<Car>(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.car_username}`, headers: admin.headers, payload: { car_rent_price: 650 } }));
    expect(priced.car_rent_price).toBe(650);
    const moved = expectOk<Car>(await t.app.inject({ method: 'PATCH', url: `/api/car/updatePickupLocation/${car.id}`, headers: host.headers, payload: { pickup_location: 'durban' } }));
    expect(moved).toMatchObject({ pickup_location: 'Durban', latitude: -29.8587, longitude: 31.0218 });
    const other = expectOk<Car>(
      await t.app.inject({ method: 'PATCH', url: `/api/car/updatePickupLocation/${car.id}`, headers: host.headers, payload: { pickup_location: 'Hermanus', latitude: -34.42, longitude: 19.23 } }),
    );
    expect(other).toMatchObject({ pickup_location: 'Hermanus', latitude: -34.42, longitude: 19.23 });
  });

  it('validates prices, pickup options and insurance plans', async () => {
    const car = await createTestCar(t.ctx, host.user);
    for (const price of [0, -5, 'abc']) {
      expectError(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: host.headers, payload: { car_rent_price: price } }), 400);
    }
    expectError(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: host.headers, payload: { car_rent_price: 0 } }), 400, 'Price must be greater than 0');
    const pickup = (pickup_options: unknown) => t.app.inject({ method: 'PATCH', url: `/api/car/updatePickupOptions/${car.id}`, headers: host.headers, payload: { pickup_options } });
    expectError(await pickup([{ name: '', address: 'x' }]), 400, 'Pickup location name is required');
    expectError(await pickup([{ name: 'x', address: 'y', additional_fee: -1 }]), 400, 'Additional fee cannot be negative');
    const saved = expectOk<Car>(await pickup([{ name: 'Mall', address: 'V&A', type: 'mall', available_times: ['18:00', '10:00'] }]));
    expect(saved.pickup_options).toEqual([{ id: expect.stringMatching(/^pickup_/), name: 'Mall', address: 'V&A', additional_fee: 0, type: 'mall', available_times: ['10:00', '18:00'] }]);
    const insurance = (insurance_options: unknown) => t.app.inject({ method: 'PATCH', url: `/api/car/updateInsuranceOptions/${car.id}`, headers: host.headers, payload: { insurance_options } });
    expectError(await insurance([{ name: 'Gold', description: '' }]), 400, 'Insurance plan description is required');
    expectError(await insurance([{ name: 'Gold', description: 'x', daily_rate: -2 }]), 400, 'Daily rate cannot be negative');
    const plans = expectOk<Car>(await insurance([{ name: 'Gold', description: 'All in' }]));
    expect(plans.insurance_options[0]).toMatchObject({ name: 'Gold', daily_rate: 0, excess_amount: 0, coverage: [], included: false, popular: false, recommended: false });
  });

  it('toggles available and offline, and refuses while the car is on a rental', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const setStatus = (status: string, headers = host.headers) => t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers, payload: { status } });
    const off = await setStatus('offline');
    expect(expectOk<Car>(off).status).toBe('offline');
    expect(off.json<{ message: string }>().message).toBe('Car is now set to offline.');
    expect(expectOk<Car>(await setStatus('Available')).status).toBe('available');
    expectError(await setStatus('rented'), 400, 'Status must be available, offline or maintenance');

    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-09', days: 2, status: 'active' });
    expectError(await setStatus('offline'), 409, 'This car is on a rental right now; its status changes when it is returned.');
    expectError(await setStatus('offline', admin.headers), 409);
  });

  it('sends a car back to verification when the owner changes what it is', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const res = await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers: host.headers, payload: { car_plate_number: 'ca 999-999' } });
    expect(expectOk<Car>(res)).toMatchObject({ car_plate_number: 'CA 999-999', verification_status: 'pending_verification' });
    expect(res.json<{ message: string }>().message).toMatch(/verifies the changes/);
    // Editing the price only does not.
    const other = await createTestCar(t.ctx, host.user);
    const priced = expectOk<Car>(await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${other.id}`, headers: host.headers, payload: { car_rent_price: 999, description: 'New words' } }));
    expect(priced).toMatchObject({ verification_status: 'verified', car_rent_price: 999, description: 'New words' });
  });

  it('replaces photos: keeps the ones sent back, stores new ones, forgets the rest', async () => {
    const created = expectOk<Car>(await t.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ images: [pngDataUrl(), pngDataUrl()] }) }), 201);
    const [keep, drop] = created.images;
    const updated = expectOk<Car>(await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${created.id}`, headers: host.headers, payload: { images: [pngDataUrl(), keep] } }));
    expect(updated.images).toHaveLength(2);
    expect(updated.images[1]).toBe(keep);
    expect((await t.app.inject({ method: 'GET', url: drop! })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: updated.images[0]! })).statusCode).toBe(200);
  });
});

describe('returns and force returns', () => {
  it('completes the started rental with its return details and makes the car available', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.id}`, headers: host.headers, payload: {} }), 409, 'This car has no rental to return.');
    const booking = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-08', days: 3, status: 'active' });
    expectError(
      await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.id}`, headers: host.headers, payload: { odometer_reading: 100 } }),
      400,
      /cannot be less than the car's current odometer \(42000 km\)/,
    );
    const returned = expectOk<Car>(
      await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.car_username}`, headers: host.headers, payload: { actual_return_date: '2030-03-10', odometer_reading: 42650 } }),
    );
    expect(returned).toMatchObject({ status: 'available', isRented: false, car_odometer: 42650 });
    const row = await t.db.selectFrom('bookings').selectAll().where('id', '=', booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'completed', condition_notes: 'Returned via host dashboard', odometer_reading: 42650 });
    expect(row.completed_at).not.toBeNull();
    const notes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: renter.headers }));
    expect(notes.find((n) => n.type === 'trip_completed')?.title).toBe('Trip completed');
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.id}`, headers: host.headers, payload: {} }), 409);
  });

  it('does not count a paid booking that starts later as a rental', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-20', days: 2, status: 'active' });
    const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}` }));
    expect(shown).toMatchObject({ isRented: false, status: 'available' });
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.id}`, headers: host.headers }), 409);
  });

  it('lets an admin end a rental, telling the renter and the owner', async () => {
    const car = await createTestCar(t.ctx, otherHost.user);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/forceReturn/${car.car_username}`, headers: admin.headers, payload: { admin_action: true, reason: 'x' } }), 409);
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-09', days: 4, status: 'active' });
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/forceReturn/${car.car_username}`, headers: otherHost.headers, payload: { admin_action: true } }), 403);
    const result = expectOk<{ affected_bookings: number; car: Car }>(
      await t.app.inject({ method: 'PATCH', url: `/api/car/forceReturn/${car.car_username}`, headers: admin.headers, payload: { admin_action: true, reason: 'Reported stolen' } }),
    );
    expect(result.affected_bookings).toBe(1);
    expect(result.car).toMatchObject({ isRented: false, status: 'available' });
    const renterNotes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: renter.headers }));
    expect(renterNotes[0]).toMatchObject({ type: 'force_return' });
    expect(renterNotes[0]!.message).toMatch(/Reported stolen/);
    const ownerNotes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: otherHost.headers }));
    expect(ownerNotes[0]).toMatchObject({ type: 'force_return' });
  });
});

describe('deleting a car', () => {
  it('is refused during an active booking; otherwise cancels open bookings and hides the car everywhere', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const active = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-25', days: 2, status: 'active' });
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/car/deleteCar/${car.id}`, headers: host.headers }), 409, /active rental/);
    await t.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', active.id).execute();

    const pending = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-01', days: 2, status: 'pending' });
    const confirmed = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-05', days: 2, status: 'confirmed' });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/car/deleteCar/${car.car_username}`, headers: host.headers });
    expectOk(res);
    expect(res.json<{ message: string }>().message).toBe('Car deleted. 2 open bookings were cancelled.');
    const rows = await t.db.selectFrom('bookings').select(['id', 'status']).where('car_id', '=', car.id).execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [active.id]: 'completed', [pending.id]: 'cancelled', [confirmed.id]: 'cancelled' });
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}`, headers: host.headers }), 404);
    expect((await browse(`owner=${host.user.username}&limit=48`, host.headers)).data.map((c) => c.id)).not.toContain(car.id);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/car/deleteCar/${car.id}`, headers: admin.headers }), 404);
  });
});

describe('registration documents', () => {
  const upload = (car: string, headers: Record<string, string>, data: Buffer = pdfBytes('Registration'), filename = 'reg.pdf') => {
    const body = multipart([{ name: 'registrationDocument', filename, data, contentType: 'application/pdf' }]);
    return t.app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${car}`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };
  const verify = (car: string, payload: object, headers = admin.headers) =>
    t.app.inject({ method: 'PATCH', url: `/api/car/verifyRegistrationDocument/${car}`, headers, payload });

  it('goes from none to pending to rejected, re-uploaded, then verified, by the owner and an admin only', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await upload(car.car_username, otherHost.headers), 404);
    expectError(await upload(car.car_username, admin.headers), 403, 'Only the car owner can upload its registration document.');
    expectError(await upload(car.car_username, host.headers, Buffer.from('just text')), 400, '"reg.pdf" is not a PDF, JPEG or PNG file.');
    expectError(await verify(car.car_username, { verified: true }), 404, 'No registration document has been uploaded for this car.');

    const pending = expectOk<Car>(await upload(car.car_username, host.headers));
    expect(pending.registration_document).toMatchObject({ filename: 'reg.pdf', mime_type: 'application/pdf', verified: null, verification_notes: null });
    expectError(await upload(car.car_username, host.headers), 409, 'A registration document is already awaiting verification.');
    expectError(await verify(car.car_username, { verified: true }, host.headers), 403);

    const rejected = expectOk<Car>(await verify(car.car_username, { verified: false, notes: 'Blurry' }));
    expect(rejected.registration_document).toMatchObject({ verified: false, verification_notes: 'Blurry' });
    expect(expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: host.headers }))[0]).toMatchObject({ type: 'registration_rejected' });

    const again = expectOk<Car>(await upload(car.car_username, host.headers, jpegBytes(), 'photo.jpg'));
    expect(again.registration_document).toMatchObject({ mime_type: 'image/jpeg', verified: null });
    expect(expectOk<Car>(await verify(car.car_username, { verified: true })).registration_document?.verified).toBe(true);
    expectError(await verify(car.car_username, { verified: false }), 409, 'The registration document is already verified.');
    expectError(await upload(car.car_username, host.headers), 409, 'The registration document is already verified.');

    const download = await t.app.inject({ method: 'GET', url: again.registration_document!.url, headers: host.headers });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${car.car_username}_registration_document.jpg"`);
    expect((await t.app.inject({ method: 'GET', url: again.registration_document!.url, headers: admin.headers })).statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: again.registration_document!.url, headers: otherHost.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: again.registration_document!.url }), 401);
  });
});

// Trust before access (issue 18; decisions.md section 12; decision 033): a car is verified, and so
// listed, only with an approved registration document, a photo and a listing that passes the rules.
describe('what an admin can verify: a car', () => {
  const verifyCar = (car: string, payload: object = { verification_status: 'verified' }) =>
    t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${car}`, headers: admin.headers, payload });
  const uploadRegistration = (car: string) => {
    const body = multipart([{ name: 'registrationDocument', filename: 'reg.pdf', data: pdfBytes('Registration'), contentType: 'application/pdf' }]);
    return t.app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${car}`, headers: { ...host.headers, ...body.headers }, payload: body.payload });
  };
  const stored = async (id: string) => (await t.db.selectFrom('cars').select('verification_status').where('id', '=', id).executeTakeFirstOrThrow()).verification_status;
  const listCar = async (overrides: Parameters<typeof newCarBody>[0] = {}) =>
    expectOk<Car>(await t.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ car_model: token(), ...overrides }) }), 201);

  it('refuses a car with no registration document and no photo (409 naming both); it stays out of browse', async () => {
    const car = await listCar();
    const res = await verifyCar(car.id);
    expectError(res, 409, `${car.car_username}: Cannot verify: the registration document is not uploaded; the car has no photo (at least one is needed).`);
    expect(res.json().errors).toEqual({ registration_document: 'the registration document is not uploaded', images: 'the car has no photo (at least one is needed)' });
    expect(await stored(car.id)).toBe('pending_verification');
    expect((await browse(`search=${car.car_model}`)).data).toEqual([]);
  });

  it('refuses a car whose registration document is awaiting review, then rejected; verifies it once approved', async () => {
    const car = await listCar({ images: [pngDataUrl()] });
    expectOk(await uploadRegistration(car.car_username));
    expectError(await verifyCar(car.car_username), 409, `${car.car_username}: Cannot verify: the registration document is awaiting review.`);
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyRegistrationDocument/${car.car_username}`, headers: admin.headers, payload: { verified: false, notes: 'Blurry' } }));
    expectError(await verifyCar(car.car_username), 409, `${car.car_username}: Cannot verify: the registration document was rejected (the owner must upload a new one).`);
    expect(await stored(car.id)).toBe('pending_verification');

    expectOk(await uploadRegistration(car.car_username));
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyRegistrationDocument/${car.car_username}`, headers: admin.headers, payload: { verified: true } }));
    expect(expectOk<Car>(await verifyCar(car.car_username))).toMatchObject({ verification_status: 'verified' });
    expect(names(await browse(`search=${car.car_model}`))).toEqual(['Toyota']);
  });

  it('refuses a car with an approved registration document and no photo', async () => {
    const car = await listCar();
    await approveRegistration(t.app, car.car_username, host.headers, admin.headers);
    const res = await verifyCar(car.id);
    expectError(res, 409, `${car.car_username}: Cannot verify: the car has no photo (at least one is needed).`);
    expect(res.json().errors).toEqual({ images: 'the car has no photo (at least one is needed)' });
  });

  it('refuses a car whose listing breaks a listing rule (a car stored before the rule, with no description)', async () => {
    const car = await listCar({ images: [pngDataUrl()] });
    await approveRegistration(t.app, car.car_username, host.headers, admin.headers);
    await t.db.updateTable('cars').set({ description: '' }).where('id', '=', car.id).execute();
    expectError(await verifyCar(car.id), 409, `${car.car_username}: Cannot verify: the listing has no description.`);
  });

  it('still lets an admin reject a car, or send it back, whatever it lacks', async () => {
    const car = await listCar();
    expect(expectOk<Car>(await verifyCar(car.id, { verification_status: 'rejected', admin_notes: 'No photos yet' })).verification_status).toBe('rejected');
    expect(expectOk<Car>(await verifyCar(car.id, { verification_status: 'pending_verification' })).verification_status).toBe('pending_verification');
  });
});

describe('reviews (read)', () => {
  it('lists a car\u2019s or a user\u2019s reviews with the reviewer, and their stats', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const reviewer = await createUser(t.ctx, { verification_status: 'verified' });
    await createTestReview(t.ctx, car, reviewer, 5, 'Lovely');
    await createTestReview(t.ctx, car, renter.user, 4, 'Good');
    await createTestReview(t.ctx, car, reviewer, 2, 'Late pickup');

    const reviews = expectOk<Review[]>(await t.app.inject({ method: 'GET', url: `/api/review/getAll?car_username=${car.car_username}` }));
    expect(reviews).toHaveLength(3);
    expect(reviews[0]).toMatchObject({ reviewer: { avatar: null }, car_username: car.car_username });
    expect(reviews.map((r) => r.rating).sort()).toEqual([2, 4, 5]);
    const byUser = expectOk<Review[]>(await t.app.inject({ method: 'GET', url: `/api/review/getAll?user_username=${reviewer.username}` }));
    expect(byUser.map((r) => r.comment).sort()).toEqual(['Late pickup', 'Lovely']);
    expect(expectOk<Review[]>(await t.app.inject({ method: 'GET', url: '/api/review/getAll?car_username=nope-nope-1' }))).toEqual([]);

    const stats = expectOk<ReviewStats>(await t.app.inject({ method: 'GET', url: `/api/review/getStats?car_username=${car.id}` }));
    expect(stats).toEqual({ average: 3.7, count: 3, by_rating: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 1 } });
    const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}` }));
    expect(shown).toMatchObject({ rating: 3.67, totalReviews: 3 });
  });
});
