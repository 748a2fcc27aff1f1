// The public browse from memory (issue 11; docs/decisions/028-browse-index.md): the index gives
// exactly the answers of the SQL (decision 020's queries, kept as the reference), on a marketplace
// seeded as the bench seeds it (3,000 cars, bookings around today), for a few hundred browse URLs
// as visitors make them; and it follows every write: through the API at once, straight in SQL
// within its poll, and a transaction that commits after a younger one was already read.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car, CarListMeta } from '@karoo/shared';
import { browsePaths } from '../bench/browse-urls';
import { seedBenchData } from '../bench/seed-bench-data';
import { today } from '../src/modules/cars/cars.service';
import { createSignedInUser, createTestApp, type TestApp } from './helpers';
import { connectServer } from '../src/db/connection';

type Page = { success: true; data: Car[]; meta: CarListMeta };

let t: TestApp;
let listedIds: string[];
const POLL_MS = 1000;

beforeAll(async () => {
  // The server's poll (1 s): a write through the API must show at once all the same.
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', BROWSE_INDEX_POLL_MS: String(POLL_MS) } });
  t.clock.set('2030-03-10T08:00:00+02:00');
  const seeded = await seedBenchData(t.ctx.db, { cars: 3000, bookingsPerCar: 2, today: today(t.ctx) });
  listedIds = seeded.listedCarIds;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function browse(url: string, engine: 'on' | 'off' = 'on'): Promise<Page> {
  (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
  try {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode, `${url}\n${res.body}`).toBe(200);
    return res.json<Page>();
  } finally {
    (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = 'on';
  }
}

const ids = (page: Page) => page.data.map((car) => car.id);

describe('the browse index', () => {
  it('answers every browse URL exactly as the SQL does: cars, order, distances, count and Load more', { timeout: 120_000 }, async () => {
    const next = browsePaths(28);
    const paths = Array.from({ length: 300 }, next);
    // Also the edges: past the last page, a big page, words that match nothing, the owner's page.
    paths.push(
      '/api/car/getCarList?page=400&limit=12',
      '/api/car/getCarList?limit=48&page=3&sort=PRICE_HIGH',
      '/api/car/getCarList?search=zzzz',
      '/api/car/getCarList?search=toyota%20cape&sort=RELEVANCE',
      '/api/car/getCarList?sort=DISTANCE&lat=-26.1&lng=28.05&page=2&limit=48',
      '/api/car/getCarList?startDate=2030-03-12&endDate=2030-03-20&location=durban',
    );
    let capped = 0;
    let nonEmpty = 0;
    for (const path of paths) {
      const fromIndex = await browse(path, 'on');
      const fromSql = await browse(path, 'off');
      expect(fromIndex, path).toEqual(fromSql);
      if (!fromIndex.meta.total_exact) capped += 1;
      if (fromIndex.data.length) nonEmpty += 1;
    }
    // The URLs reach both sides of the count's cap and mostly find cars.
    expect(capped).toBeGreaterThan(10);
    expect(nonEmpty).toBeGreaterThan(paths.length / 2);
    expect(t.ctx.browseIndex.size).toBeGreaterThan(2000);
  });

  it('refuses a date that is not on the calendar, as the SQL did (400, not a page for 3 March)', async () => {
    for (const engine of ['on', 'off'] as const) {
      (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
      const res = await t.app.inject({ method: 'GET', url: '/api/car/getCarList?startDate=2030-02-31&endDate=2030-03-04' });
      (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = 'on';
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'startDate must be a real date (YYYY-MM-DD)' });
    }
  });

  it('follows a write through the API at once', async () => {
    const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
    const cheapest = (await browse('/api/car/getCarList?sort=PRICE_LOW&limit=1')).data[0]!;
    const car = (await browse(`/api/car/getCarList?sort=PRICE_HIGH&limit=1`)).data[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/rent/updateCarRentPrice/${car.id}`,
      headers: admin.headers,
      payload: { car_rent_price: Math.max(1, cheapest.car_rent_price - 1) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ids(await browse('/api/car/getCarList?sort=PRICE_LOW&limit=1'))).toEqual([car.id]);
    expect(await browse('/api/car/getCarList?sort=PRICE_LOW&limit=5')).toEqual(await browse('/api/car/getCarList?sort=PRICE_LOW&limit=5', 'off'));
  });

  it('follows a write straight in the database (no event) within its poll', async () => {
    const [id] = listedIds;
    await browse('/api/car/getCarList');
    await sql`UPDATE cars SET status = 'offline' WHERE id = ${id}`.execute(t.ctx.db);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + 50));
    const url = `/api/car/getCarList?search=${encodeURIComponent('')}&limit=48&sort=PRICE_LOW`;
    const all = await browse(url);
    expect(all).toEqual(await browse(url, 'off'));
    const owner = await sql<{ username: string }>`SELECT u.username FROM users u JOIN cars c ON c.owner_id = u.id WHERE c.id = ${id}`.execute(t.ctx.db);
    const ownerPage = await browse(`/api/car/getCarList?owner=${owner.rows[0]!.username}&limit=48`);
    expect(ids(ownerPage)).not.toContain(id);
    expect(ownerPage).toEqual(await browse(`/api/car/getCarList?owner=${owner.rows[0]!.username}&limit=48`, 'off'));
  });

  it.runIf(process.env.TEST_DB === 'postgres')('never misses a transaction that commits after a younger one was read', async () => {
    // A second connection to the same schema: its transaction starts first and commits last.
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(t.ctx.db);
    const other = connectServer({ url: t.database.url!, schema: rows[0]!.schema, max: 1 });
    try {
      // Two cars the default browse shows: a listed car on a rental right now is not (the seed books
      // some cars around today, and listedIds is in the order of their random ids' hashes, so
      // listedIds[n] is sometimes one of them: this test then failed in both engines alike).
      const shown = ids(await browse('/api/car/getCarList?limit=48'));
      const [first, second] = [shown[10]!, shown[11]!];
      await other.db.transaction().execute(async (tx) => {
        await sql`UPDATE cars SET car_rent_price_cents = 100 WHERE id = ${first}`.execute(tx);
        // Meanwhile a younger transaction commits, and the index reads its note.
        await sql`UPDATE cars SET car_rent_price_cents = 101 WHERE id = ${second}`.execute(t.ctx.db);
        t.ctx.browseIndex.markChanged();
        expect(ids(await browse('/api/car/getCarList?sort=PRICE_LOW&limit=1'))).toEqual([second]);
      });
      t.ctx.browseIndex.markChanged();
      expect(ids(await browse('/api/car/getCarList?sort=PRICE_LOW&limit=2'))).toEqual([first, second]);
    } finally {
      await other.close();
    }
  });
});

// Decision 054: an instance keeps the cards' records it read, and forgets a car when the index
// reloads it. The cards must stay exactly the SQL's, after every kind of change a card shows.
describe('the browse cards kept between answers', () => {
  type CardPage = { success: true; data: Record<string, unknown>[]; meta: CarListMeta };
  const cards = async (url: string, engine: 'on' | 'off' = 'on') => (await browse(`${url}&fields=card`, engine)) as unknown as CardPage;
  const waitForPoll = () => new Promise((resolve) => setTimeout(resolve, POLL_MS + 50));

  it('answers the same cards as the SQL, the first time and again from what it kept', { timeout: 120_000 }, async () => {
    const next = browsePaths(54);
    const paths = Array.from({ length: 120 }, next);
    for (const path of paths) expect(await cards(path), path).toEqual(await cards(path, 'off'));
    expect(t.ctx.browseIndex.cards.size).toBeGreaterThan(100);
    for (const path of paths) expect(await cards(path), path).toEqual(await cards(path, 'off'));
  });

  it("shows a car's new photo and title, its host's new name, and its rental, once the index has looked", async () => {
    // The index loaded, and the first page's records kept.
    await t.ctx.browseIndex.startLoading();
    const id = (await cards('/api/car/getCarList?limit=12')).data[0]!.id as string;
    // The host's name alone (no row of the car changes).
    await sql`UPDATE users SET full_name = 'Thandi Renamed' WHERE id = (SELECT owner_id FROM cars WHERE id = ${id})`.execute(t.ctx.db);
    await waitForPoll();
    expect((await cards('/api/car/getCarList?limit=12')).data[0]).toMatchObject({ id, host_name: 'Thandi Renamed' });
    await sql`UPDATE cars SET car_model = 'Renamed', images = '["/uploads/cars/renamed.jpg"]'::jsonb WHERE id = ${id}`.execute(t.ctx.db);
    await waitForPoll();
    const card = (await cards(`/api/car/getCarList?search=renamed&limit=12`)).data.find((c) => c.id === id)!;
    expect(card).toMatchObject({ car_model: 'Renamed', host_name: 'Thandi Renamed' });
    expect(JSON.stringify(card.photo)).toContain('renamed.jpg');
    expect(await cards('/api/car/getCarList?limit=12')).toEqual(await cards('/api/car/getCarList?limit=12', 'off'));

    // A rental under way ends: the car was "rented" in a window after it, and now is not (as the SQL says).
    const { rows } = await sql<{ booking: string; car: string; owner: string }>`SELECT b.id AS booking, b.car_id AS car, u.username AS owner
      FROM bookings b JOIN cars c ON c.id = b.car_id JOIN users u ON u.id = c.owner_id
      WHERE b.status = 'active' AND b.start_date <= ${today(t.ctx)}::date AND c.status = 'available' AND c.verification_status = 'verified'
        AND NOT EXISTS (SELECT 1 FROM bookings o WHERE o.car_id = b.car_id AND o.end_date >= '2030-05-20')
      LIMIT 1`.execute(t.ctx.db);
    const { booking, car, owner } = rows[0]!;
    const later = `/api/car/getCarList?owner=${owner}&startDate=2030-06-01&endDate=2030-06-03&limit=48`;
    expect((await cards(later)).data.find((c) => c.id === car)).toMatchObject({ status: 'rented' });
    await sql`UPDATE bookings SET status = 'completed' WHERE id = ${booking}`.execute(t.ctx.db);
    await waitForPoll();
    const after = await cards(later);
    expect(after.data.find((c) => c.id === car)).toMatchObject({ status: 'available' });
    expect(after).toEqual(await cards(later, 'off'));
  });

  it('does not keep a record read while the car changed', async () => {
    const shelf = t.ctx.browseIndex.cards;
    const id = ids(await browse('/api/car/getCarList?sort=PRICE_HIGH&limit=1'))[0]!;
    shelf.forget([id]);
    const reading = shelf.read(t.ctx.db, [id], today(t.ctx));
    // The index reloads the car while the read is under way: what it read may be the old row.
    shelf.forget([id]);
    const size = shelf.size;
    expect((await reading).map((r) => r.id)).toEqual([id]);
    expect(shelf.size).toBe(size);
    await shelf.read(t.ctx.db, [id], today(t.ctx));
    expect(shelf.size).toBe(size + 1);
  });
});
