// Where a car is and its plate, read as each viewer (issue 32, decision 055): a stranger, another
// customer and the renter of an unpaid booking get the area (suburb and city, a position on the
// 0.01° grid, no plate) from every door: the car's details, the browse list (whole cars and cards,
// from the index and from the SQL), the map's cars and clusters, the bookings, the server-rendered
// car and browse pages with their head and JSON-LD, and the sitemap. The renter of a paid trip, the
// host and an administrator get the exact place and the plate. The area is the same on every
// request, and no filter or sort finds the exact point. Each body is searched for the seeded
// street, plate and exact coordinates. The sitemap names each city page as its canonical link does.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_CITIES, type Booking, type Car, type CarCard, type CarMap } from '@karoo/shared';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageRenderer } from '../src/modules/pages';
import { storedPickupOption } from '../src/modules/cars/cars.mapper';
import { createSignedInUser, createTestApp, TEST_APP_URL, type TestApp } from './helpers';
import { createTestBooking, createTestCar, PICKUP_AIRPORT } from './helpers/vehicles';

const STREET = '22 Kloof St, Gardens, Cape Town, 8001';
const PLATE = 'CA 035-500';
const EXACT = { latitude: -33.93312, longitude: 18.41655 };
/** The centre of its cell of the 0.01° grid, worked out by hand: floor(-3393.312) = -3394, floor(1841.655) = 1841. */
const AREA = { latitude: -33.935, longitude: 18.415 };
const HOME = storedPickupOption({ id: 'pickup_home', name: "Host's home", address: STREET, additional_fee: 0, type: 'standard', available_times: ['09:00'] });

/** The seeded secrets, as they could appear in a body (the street alone, the plate however spaced, the exact coordinates). */
const SECRETS = ['Kloof', PLATE, '035-500', '035500', String(EXACT.latitude), String(EXACT.longitude)];
const expectNoSecret = (body: string) => {
  for (const secret of SECRETS) expect(body, `a stranger's body names ${secret}`).not.toContain(secret);
};

const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));
const template = readFileSync(path.join(webRoot, 'index.html'), 'utf8');

let vite: ViteDevServer;
let t: TestApp;
let dist: string;
type Viewer = { headers: Record<string, string> } | null;
let host: Viewer & {};
let admin: Viewer & {};
let customer: Viewer & {};
let pendingRenter: Viewer & {};
let unpaidRenter: Viewer & {};
let paidRenter: Viewer & {};
let carUsername: string;

beforeAll(async () => {
  const { createServer } = await import('vite');
  vite = await createServer({
    root: webRoot,
    configFile: path.join(webRoot, 'vite.config.ts'),
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  const renderer = (await vite.ssrLoadModule('/src/entry-server.tsx')) as PageRenderer;
  // Vite compiles a route's modules on its first render: done here, without the server's time bound.
  await renderer.render({ url: '/cars/warm-up', origin: TEST_APP_URL, api: async () => ({ status: 404, body: JSON.stringify({ success: false, message: 'Car not found' }) }) });
  dist = await mkdtemp(path.join(tmpdir(), 'karoo-places-dist-'));
  await writeFile(path.join(dist, 'index.html'), template);
  t = await createTestApp({ webDistDir: dist, env: { BROWSE_CACHE_MS: '0' }, pages: { pageRenderer: renderer, pageTemplate: template } });
  const hostUser = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Lerato Dlamini' });
  host = hostUser;
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const pending = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const unpaid = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const paid = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  [pendingRenter, unpaidRenter, paidRenter] = [pending, unpaid, paid];
  const car = await createTestCar(t.ctx, hostUser.user, {
    make: 'Volkswagen',
    model: 'Polo',
    city: STREET,
    ...EXACT,
    pickup_options: [HOME, PICKUP_AIRPORT],
    overrides: { car_plate_number: PLATE },
  });
  carUsername = car.car_username;
  // A neighbour in the same cell, so that the map clusters the two.
  await createTestCar(t.ctx, hostUser.user, { make: 'Kia', model: 'Rio', city: 'Cape Town', latitude: -33.9341, longitude: 18.4192 });
  const withHome = { pickup_option: JSON.stringify(HOME) };
  const b1 = await createTestBooking(t.ctx, car, pending.user, { start: '2031-04-01', status: 'pending' });
  const b2 = await createTestBooking(t.ctx, car, unpaid.user, { start: '2031-04-05', status: 'confirmed', payment_status: 'unpaid' });
  const b3 = await createTestBooking(t.ctx, car, paid.user, { start: '2031-04-10', status: 'active', payment_status: 'paid' });
  await t.ctx.db.updateTable('bookings').set(withHome).where('id', 'in', [b1.id, b2.id, b3.id]).execute();
}, 180_000);

afterAll(async () => {
  await t?.close();
  await vite?.close();
  if (dist) await rm(dist, { recursive: true, force: true });
});

const get = (url: string, viewer: Viewer = null) => t.app.inject({ method: 'GET', url, headers: viewer?.headers ?? {} });
const details = async (viewer: Viewer) => {
  const res = await get(`/api/car/getCarDetails/${carUsername}`, viewer);
  expect(res.statusCode).toBe(200);
  return { body: res.body, car: (res.json() as { data: Car }).data };
};
const setEngine = (engine: 'on' | 'off') => {
  (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
};

describe("a car's details", () => {
  it('a stranger, another customer and the renter of a pending or unpaid booking get the area, its grid position and no plate', async () => {
    for (const viewer of [null, customer, pendingRenter, unpaidRenter]) {
      const { body, car } = await details(viewer);
      expectNoSecret(body);
      expect(car).toMatchObject({ pickup_location: 'Gardens, Cape Town', car_plate_number: null, exact_place: false, ...AREA });
      // The options' names and fees stay (the price needs them); their addresses are areas.
      expect(car.pickup_options.map((o) => [o.name, o.address, o.additional_fee])).toEqual([
        ["Host's home", 'Gardens, Cape Town', 0],
        ['Cape Town International Airport', 'Matroosfontein, Cape Town', 250],
      ]);
    }
  });

  it('the renter of a paid trip, the host and an administrator get the exact place and the plate', async () => {
    for (const viewer of [paidRenter, host, admin]) {
      const { car } = await details(viewer);
      expect(car).toMatchObject({ pickup_location: STREET, car_plate_number: PLATE, exact_place: true, ...EXACT });
      expect(car.pickup_options[0]!.address).toBe(STREET);
    }
  });

  it('the area is the same on every request and for everyone', async () => {
    const answers = await Promise.all([null, null, customer, unpaidRenter].map(async (viewer) => (await details(viewer)).car));
    expect(new Set(answers.map((c) => `${c.latitude},${c.longitude}`))).toEqual(new Set([`${AREA.latitude},${AREA.longitude}`]));
  });
});

describe('the browse list and the map, on both engines', () => {
  it('whole cars and cards name the area only', async () => {
    for (const engine of ['on', 'off'] as const) {
      setEngine(engine);
      const full = await get('/api/car/getCarList?location=Cape%20Town');
      expectNoSecret(full.body);
      const car = (full.json() as { data: Car[] }).data.find((c) => c.car_username === carUsername)!;
      expect(car).toMatchObject({ pickup_location: 'Gardens, Cape Town', car_plate_number: null, exact_place: false, ...AREA });
      const cards = await get('/api/car/getCarList?fields=card&location=Cape%20Town');
      expectNoSecret(cards.body);
      const card = (cards.json() as { data: CarCard[] }).data.find((c) => c.car_username === carUsername)!;
      expect(card).toMatchObject({ location: 'Gardens, Cape Town', ...AREA });
      // Read again (the card records kept, decision 054): the same.
      const again = await get('/api/car/getCarList?fields=card&location=Cape%20Town');
      expect(again.body).toBe(cards.body);
    }
    setEngine('on');
  });

  it('no view or distance finds the exact point: a box around it holds nothing, distances are to the area', async () => {
    for (const engine of ['on', 'off'] as const) {
      setEngine(engine);
      const d = 0.0005;
      const box = [EXACT.longitude - d, EXACT.latitude - d, EXACT.longitude + d, EXACT.latitude + d].join(',');
      const around = await get(`/api/car/getCarList?fields=card&bbox=${box}`);
      expect((around.json() as { data: CarCard[] }).data).toEqual([]);
      const areaBox = [AREA.longitude - d, AREA.latitude - d, AREA.longitude + d, AREA.latitude + d].join(',');
      const atArea = await get(`/api/car/getCarList?fields=card&bbox=${areaBox}`);
      expect((atArea.json() as { data: CarCard[] }).data.map((c) => c.car_username)).toContain(carUsername);
      // From the exact point: the distance to the area's (0.3 km by hand: 0.00188° north, 0.00155° east), never 0.
      const near = await get(`/api/car/getCarList?fields=card&sort=DISTANCE&lat=${EXACT.latitude}&lng=${EXACT.longitude}`);
      const mine = (near.json() as { data: CarCard[] }).data.find((c) => c.car_username === carUsername)!;
      expect(mine.distance_km).toBe(0.3);
    }
    setEngine('on');
  });

  it("the map's cars and clusters stand on the grid, never on the exact point", async () => {
    const view = '18.3,-34.0,18.5,-33.8';
    for (const zoom of [10, 18]) {
      const res = await get(`/api/car/map?bbox=${view}&zoom=${zoom}`);
      expect(res.statusCode).toBe(200);
      expectNoSecret(res.body);
      const map = (res.json() as { data: CarMap }).data;
      const points = [...map.clusters, ...map.cars];
      expect(points.length).toBeGreaterThan(0);
      // Both cars are in one cell: any average of them is that cell's centre.
      for (const p of points) expect([p.latitude, p.longitude]).toEqual([AREA.latitude, AREA.longitude]);
    }
  });
});

describe('bookings', () => {
  const bookingOf = async (viewer: Viewer & {}) => {
    const res = await get('/api/booking/getAll', viewer);
    expect(res.statusCode).toBe(200);
    return { body: res.body, bookings: (res.json() as { data: Booking[] }).data };
  };

  it('the renter of a pending or unpaid booking reads the area, and no plate', async () => {
    for (const viewer of [pendingRenter, unpaidRenter]) {
      const { body, bookings } = await bookingOf(viewer);
      expectNoSecret(body);
      expect(bookings).toHaveLength(1);
      expect(bookings[0]!.car).toMatchObject({ pickup_location: 'Gardens, Cape Town', car_plate_number: null, exact_place: false });
      expect(bookings[0]!.pickup_option).toMatchObject({ name: "Host's home", address: 'Gardens, Cape Town' });
    }
  });

  it('the renter of the paid trip and the host read the exact place and plate', async () => {
    const paid = (await bookingOf(paidRenter)).bookings[0]!;
    expect(paid.car).toMatchObject({ pickup_location: STREET, car_plate_number: PLATE, exact_place: true });
    expect(paid.pickup_option?.address).toBe(STREET);
    const hosts = (await bookingOf(host)).bookings;
    expect(hosts).toHaveLength(3);
    for (const b of hosts) expect(b.car).toMatchObject({ car_plate_number: PLATE, exact_place: true });
  });
});

describe('the server-rendered pages and the sitemap, read as a stranger', () => {
  const jsonLdOf = (html: string) => /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
  const canonicalOf = (html: string) => /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? null;

  it('a car page, its head and its JSON-LD name the area, never the street, plate or exact position', async () => {
    const res = await get(`/cars/${carUsername}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Volkswagen Polo');
    expect(res.body).toContain('Gardens, Cape Town');
    expectNoSecret(res.body);
    expect(jsonLdOf(res.body)).toContain('"@type":"Car"');
    expectNoSecret(jsonLdOf(res.body));
  });

  it('the browse pages name no street, plate or exact position', async () => {
    for (const url of ['/cars', '/cars?location=Cape+Town']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('Volkswagen Polo');
      expectNoSecret(res.body);
    }
  });

  it("names each of the 14 city pages in the sitemap exactly as the page's own canonical link", async () => {
    for (const city of BASE_CITIES) await createTestCar(t.ctx, { id: (await createSignedInUser(t.app, t.ctx, { role: 'host' })).user.id }, { city: city.name });
    const res = await get('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expectNoSecret(res.body);
    const cityPages = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&')).filter((loc) => loc.includes('/cars?'));
    expect(cityPages).toHaveLength(14);
    expect(cityPages).toContain(`${TEST_APP_URL}/cars?location=Cape+Town`);
    for (const loc of cityPages) {
      const page = await get(new URL(loc).pathname + new URL(loc).search);
      expect(page.statusCode).toBe(200);
      expect(canonicalOf(page.body), loc).toBe(loc);
    }
  }, 120_000);
});
