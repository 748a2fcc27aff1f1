// Browse at scale (issue 11; docs/decisions/020-browse-at-scale.md): the answers stay exactly what
// the full sort gives while the queries stop reading every car. The distance sort, searched box by
// box around the visitor, gives the same order and distances as measuring every car; a public
// browse stops counting at 1,000 ("1 000+") and says whether another page follows, while owners
// and admins get the exact count.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car, CarListMeta } from '@karoo/shared';
import { createSignedInUser, createTestApp, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

type Page = { success: true; data: Car[]; meta: CarListMeta };
type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let host: Signed;
let admin: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const token = () => `Zs${randomBytes(4).toString('hex')}`;

async function browse(query: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url: `/api/car/getCarList?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}

/** `count` copies of one test car in one statement, each with its own id, username, plate and position. */
async function cloneCars(model: string, count: number, position: (i: number) => { lat: number | null; lng: number | null }) {
  const template = await createTestCar(t.ctx, host.user, { make: 'Template', model, status: 'offline' });
  const { rows } = await sql<{ column_name: string }>`
    SELECT column_name FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = 'cars' AND is_generated = 'NEVER'
      AND column_name NOT IN ('id', 'car_username', 'car_plate_number', 'latitude', 'longitude', 'status', 'car_make')
  `.execute(t.ctx.db);
  const columns = rows.map((r) => sql.ref(r.column_name));
  const positions = Array.from({ length: count }, (_, i) => position(i));
  const values = sql.join(positions.map((p, i) => sql`(${i}, ${p.lat}::float8, ${p.lng}::float8)`));
  await sql`
    INSERT INTO cars (id, car_username, car_plate_number, latitude, longitude, status, car_make, ${sql.join(columns)})
    SELECT gen_random_uuid(), c.car_username || '-' || v.i, 'SC' || v.i || '-' || ${randomBytes(3).toString('hex')}, v.lat, v.lng, 'available', 'Car' || lpad(v.i::text, 4, '0'), ${sql.join(columns.map((col) => sql`c.${col}`))}
    FROM cars c, (VALUES ${values}) AS v(i, lat, lng)
    WHERE c.id = ${template.id}
  `.execute(t.ctx.db);
  await sql`ANALYZE cars`.execute(t.ctx.db);
}

/** The haversine distance of the API, for the expected order. */
function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A fixed pseudo-random sequence (the same cars every run). */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

describe('the distance sort, box by box', () => {
  it('gives exactly the order and distances of measuring every car, on every page and from anywhere', { timeout: 60_000 }, async () => {
    const m = token();
    const random = sequence(7);
    // 1,200 cars around South Africa (more than the count's cap, so the sort looks box by box):
    // clusters in three cities, some scattered, some with no position.
    const cities = [
      [-26.2041, 28.0473],
      [-33.9249, 18.4241],
      [-29.8587, 31.0218],
    ] as const;
    await cloneCars(m, 1200, (i) => {
      if (i % 20 === 0) return { lat: null, lng: null };
      if (i % 3 === 0) return { lat: -34 + random() * 12, lng: 17 + random() * 15 };
      const [lat, lng] = cities[i % cities.length]!;
      return { lat: lat + (random() - 0.5) * 0.6, lng: lng + (random() - 0.5) * 0.6 };
    });
    const all: Car[] = [];
    for (let page = 1; page <= 25; page++) all.push(...(await browse(`search=${m}&limit=48&page=${page}&sort=PRICE_LOW`)).data);
    expect(all).toHaveLength(1200);

    // Sandton, Cape Town's centre, the Karoo, and London (nothing within 1,600 km: every car is measured).
    for (const [lat, lng] of [[-26.1076, 28.0567], [-33.92, 18.42], [-31.5, 22.5], [51.5, -0.12]] as const) {
      const expected = all
        .map((car) => ({ id: car.id, d: car.latitude === null || car.longitude === null ? null : haversine(lat, lng, car.latitude, car.longitude) }))
        .sort((a, b) => (a.d === null ? (b.d === null ? (a.id < b.id ? -1 : 1) : 1) : b.d === null ? -1 : a.d - b.d || (a.id < b.id ? -1 : 1)));
      for (const [page, limit] of [[1, 12], [2, 12], [7, 12], [1, 48], [5, 48], [6, 48]] as const) {
        const answer = await browse(`search=${m}&sort=DISTANCE&lat=${lat}&lng=${lng}&page=${page}&limit=${limit}`);
        const want = expected.slice((page - 1) * limit, page * limit);
        expect(answer.data.map((c) => c.id), `from ${lat},${lng} page ${page} of ${limit}`).toEqual(want.map((w) => w.id));
        answer.data.forEach((car, i) => {
          if (want[i]!.d === null) expect(car.distance_km).toBeNull();
          else expect(car.distance_km).toBeCloseTo(want[i]!.d!, 0);
        });
        expect(answer.meta).toMatchObject({ total: 1000, total_exact: false, has_more: true });
      }
    }
  });
});

describe('counting at scale', () => {
  it('stops the public count at 1,000 and keeps Load more going; owners and admins get the exact count', async () => {
    const m = token();
    await cloneCars(m, 1005, () => ({ lat: -26.2, lng: 28.04 }));

    const first = await browse(`search=${m}`);
    expect(first.data).toHaveLength(12);
    expect(first.meta).toEqual({ total: 1000, page: 1, limit: 12, total_exact: false, has_more: true });

    // The last page knows the exact total; the one before it still says 1,000+.
    const deep = await browse(`search=${m}&limit=48&page=21`);
    expect(deep.data).toHaveLength(1005 - 960);
    expect(deep.meta).toEqual({ total: 1005, page: 21, limit: 48, total_exact: true, has_more: false });
    const nearTheEnd = await browse(`search=${m}&limit=48&page=20`);
    expect(nearTheEnd.meta).toMatchObject({ total: 1000, total_exact: false, has_more: true });

    // Pages never overlap and never skip a car.
    const seen = new Set<string>();
    for (let page = 1; page <= 21; page++) for (const car of (await browse(`search=${m}&limit=48&page=${page}&sort=PRICE_LOW`)).data) seen.add(car.id);
    expect(seen.size).toBe(1005);

    expect((await browse(`search=${m}&includeUnverified=true&limit=1`, admin.headers)).meta).toMatchObject({ total: 1006, total_exact: true });
    expect((await browse(`owner=${host.user.username}&search=${m}&limit=1`, host.headers)).meta).toMatchObject({ total: 1006, total_exact: true });
  });
});
