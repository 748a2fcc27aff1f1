// Lean browse answers and the map that shows every match (issue 22, decision 046): fields=card is
// what a card shows, under 8 KB for 12 cars with long descriptions and 10 converted photos each,
// field for field what the full answer says; bbox keeps the cars in a view; GET /car/map clusters
// every matching car of the view with the list's filters, from both browse engines alike.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carCardOf, cardPhotoSources, type Car, type CarCard, type CarListMeta, type CarMap } from '@karoo/shared';
import { seedBenchData } from '../bench/seed-bench-data';
import { today } from '../src/modules/cars/cars.service';
import { createTestApp, type TestApp } from './helpers';

type Page<T> = { success: true; data: T[]; meta: CarListMeta };

let t: TestApp;

const LONG_DESCRIPTION =
  'A well-kept family car, serviced every 15 000 km at the agent, with a full service history and new tyres. ' +
  'Ideal for a weekend on the Garden Route or a week in the Karoo: the boot takes two big suitcases and the cooler box. ' +
  'Child seat on request, phone holder and charging cable in the cubby. Please return it with the same fuel level; ' +
  'no smoking, no pets, and no off-road driving. Pickup at my house or delivery in town for a small fee. ';

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', BROWSE_INDEX_POLL_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00+02:00');
  await seedBenchData(t.ctx.db, { cars: 600, bookingsPerCar: 1, today: today(t.ctx) });
  // Realistic listings: a description of about 2,000 characters and 10 photos, each converted to
  // 320, 640, 1280 and its full 2,560 px as JPEG, WebP and AVIF (decision 045).
  const cars = await t.ctx.db.selectFrom('cars').select('id').execute();
  for (const { id } of cars) {
    const keys = Array.from({ length: 10 }, () => `cars/${id}/${randomUUID()}.jpg`);
    const variants = Object.fromEntries(keys.map((k) => [k, { width: 2560, height: 1920, variants: [[320, 240], [640, 480], [1280, 960], [2560, 1920]] }]));
    await t.ctx.db
      .updateTable('cars')
      .set({
        description: LONG_DESCRIPTION.repeat(5),
        images: sql`${JSON.stringify(keys.map((k) => `/uploads/${k}`))}::jsonb`,
        photo_variants: sql`${JSON.stringify(variants)}::jsonb`,
      })
      .where('id', '=', id)
      .execute();
  }
  // Every third car has long-trip discounts (decision 060: the card's trip total takes them).
  await sql`UPDATE cars SET weekly_discount_percent = 10, monthly_discount_percent = 20 WHERE id IN (SELECT id FROM cars ORDER BY id LIMIT 200)`.execute(t.ctx.db);
  await t.ctx.browseIndex.startLoading();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

async function get<T>(url: string, engine: 'on' | 'off' = 'on'): Promise<{ body: T; bytes: number }> {
  (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
  try {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, `${url}\n${res.body}`).toBe(200);
    return { body: res.json<T>(), bytes: Buffer.byteLength(res.body) };
  } finally {
    (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = 'on';
  }
}

describe('fields=card', () => {
  it('answers 12 cars in under 8 KB, each what the full answer says of it', async () => {
    const full = await get<Page<Car>>('/api/car/getCarList?limit=12');
    const lean = await get<Page<CarCard>>('/api/car/getCarList?limit=12&fields=card');
    expect(lean.body.data).toHaveLength(12);
    expect(lean.bytes).toBeLessThan(8 * 1024);
    expect(full.bytes).toBeGreaterThan(5 * lean.bytes);
    expect(lean.body.meta).toEqual(full.body.meta);
    expect(lean.body.data).toEqual(full.body.data.map((car) => carCardOf(car, { instantAllowed: false })));
    // The card's photo in few bytes is the full answer's first photo, every URL of it.
    expect(cardPhotoSources(lean.body.data[0]!.photo!)).toEqual(full.body.data[0]!.photos[0]);
    expect(lean.body.data[0]!.photo!.widths).toEqual([320, 640, 1280, 2560]);
  });

  it('keeps the filters, sort, paging, distances and meta of the full answer, on both engines', async () => {
    const urls = [
      '/api/car/getCarList?sort=PRICE_LOW&page=2',
      '/api/car/getCarList?sort=DISTANCE&lat=-26.1&lng=28.05&limit=24',
      '/api/car/getCarList?search=toyota&type=SUV,Sedan&transmission=automatic',
      '/api/car/getCarList?startDate=2030-03-12&endDate=2030-03-20&location=durban&sort=PRICE_HIGH',
      '/api/car/getCarList?bbox=27.9,-26.3,28.3,-25.9&sort=PRICE_LOW',
    ];
    for (const url of urls) {
      const full = await get<Page<Car>>(url, 'off');
      for (const engine of ['on', 'off'] as const) {
        const lean = await get<Page<CarCard>>(`${url}&fields=card`, engine);
        expect(lean.body.meta, url).toEqual(full.body.meta);
        expect(lean.body.data, `${url} (${engine})`).toEqual(full.body.data.map((car) => carCardOf(car, { instantAllowed: false })));
      }
    }
  });

  it("carries a car's long-trip discounts only when it has one, as its trip rules say (decision 060)", async () => {
    const full = await get<Page<Car>>('/api/car/getCarList?limit=48');
    const lean = await get<Page<CarCard>>('/api/car/getCarList?limit=48&fields=card');
    const discounted = full.body.data.filter((car) => (car.trip_rules?.weekly_discount_percent ?? 0) > 0);
    expect(discounted.length).toBeGreaterThan(0);
    expect(discounted.length).toBeLessThan(48);
    for (const [i, car] of full.body.data.entries()) {
      const card = lean.body.data[i]!;
      expect(card.id).toBe(car.id);
      if ((car.trip_rules?.weekly_discount_percent ?? 0) > 0) expect(card.discounts).toEqual({ weekly: 10, monthly: 20 });
      else expect('discounts' in card).toBe(false);
    }
  });

  it('refuses a shape it does not know', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/car/getCarList?fields=everything' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('fields must be one of full, card');
  });
});

describe('bbox', () => {
  it('keeps exactly the cars positioned inside the view, on both engines', async () => {
    const view = { west: 27.9, south: -26.3, east: 28.3, north: -25.9 };
    const url = `/api/car/getCarList?bbox=${view.west},${view.south},${view.east},${view.north}&limit=48&fields=card`;
    const fromIndex = await get<Page<CarCard>>(url, 'on');
    const fromSql = await get<Page<CarCard>>(url, 'off');
    expect(fromIndex.body).toEqual(fromSql.body);
    expect(fromIndex.body.data.length).toBeGreaterThan(0);
    for (const car of fromIndex.body.data) {
      expect(car.latitude!).toBeGreaterThanOrEqual(view.south);
      expect(car.latitude!).toBeLessThanOrEqual(view.north);
      expect(car.longitude!).toBeGreaterThanOrEqual(view.west);
      expect(car.longitude!).toBeLessThanOrEqual(view.east);
    }
  });

  it('refuses a view that is not west,south,east,north', async () => {
    for (const bbox of ['1,2,3', '30,-26,28,-25', '28,-20,29,-30', 'a,b,c,d', '-200,0,0,10']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/car/getCarList?bbox=${bbox}` });
      expect(res.statusCode, bbox).toBe(400);
      expect(res.json().message).toContain('bbox must be west,south,east,north');
    }
  });
});

describe('GET /api/car/map', () => {
  const SOUTH_AFRICA = 'bbox=16,-35,33,-22';

  it('clusters every matching car of the view: the counts add up to the list total, with the same filters', async () => {
    for (const filters of ['', '&type=SUV', '&transmission=automatic&minPrice=300&maxPrice=900', '&startDate=2030-03-12&endDate=2030-03-14&search=cape']) {
      const map = await get<{ data: CarMap }>(`/api/car/map?${SOUTH_AFRICA}&zoom=5${filters}`);
      const list = await get<Page<CarCard>>(`/api/car/getCarList?${SOUTH_AFRICA}&limit=1&fields=card${filters}`);
      const { clusters, cars, total, capped } = map.body.data;
      expect(capped).toBe(false);
      expect(clusters.reduce((n, c) => n + c.count, 0) + cars.length, filters).toBe(total);
      // The list stops counting at 1,000 (decision 020); the map counts them all.
      if (list.body.meta.total_exact) expect(total, filters).toBe(list.body.meta.total);
      else expect(total).toBeGreaterThan(1000);
    }
  });

  it('answers alike from the index and from the SQL', async () => {
    const url = `/api/car/map?bbox=18,-34.5,19,-33.5&zoom=9&fuel=petrol`;
    const fromIndex = await get<{ data: CarMap }>(url, 'on');
    (t.ctx.env as { BROWSE_CACHE_MS?: number }).BROWSE_CACHE_MS = 0;
    // A write clears the map's clusters (the browse topic), so the SQL builds them again.
    await t.ctx.cacheBus.publish('browse');
    const fromSql = await get<{ data: CarMap }>(url, 'off');
    expect(fromSql.body.data).toEqual(fromIndex.body.data);
  });

  it('splits a cluster when zoomed to its expansion zoom, and names single cars with their price', async () => {
    const country = await get<{ data: CarMap }>(`/api/car/map?${SOUTH_AFRICA}&zoom=5`);
    const biggest = [...country.body.data.clusters].sort((a, b) => b.count - a.count)[0]!;
    expect(biggest.count).toBeGreaterThan(50);
    const d = 1.5;
    const closer = await get<{ data: CarMap }>(
      `/api/car/map?bbox=${biggest.longitude - d},${biggest.latitude - d},${biggest.longitude + d},${biggest.latitude + d}&zoom=${biggest.expansion_zoom}`,
    );
    expect(closer.body.data.clusters.length + closer.body.data.cars.length).toBeGreaterThan(1);
    const street = await get<{ data: CarMap }>(`/api/car/map?bbox=${biggest.longitude - 0.01},${biggest.latitude - 0.01},${biggest.longitude + 0.01},${biggest.latitude + 0.01}&zoom=17`);
    expect(street.body.data.clusters).toEqual([]);
    for (const car of street.body.data.cars) {
      expect(car.title).toMatch(/\S+ \S+/);
      expect(car.price_per_day).toBeGreaterThan(0);
    }
  });

  it('needs a view and a zoom', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/car/map?zoom=5' })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/car/map?${SOUTH_AFRICA}` })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: `/api/car/map?${SOUTH_AFRICA}&zoom=40` })).statusCode).toBe(400);
  });
});
