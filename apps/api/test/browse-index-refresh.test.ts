// The browse index when many cars change at once, or its refresh is slow (issue 38): at a million
// cars one change note named every car, the index asked for all of them in one statement, the
// statement timeout cancelled it, the next look tried the same again, and every browse request
// waited on that look. Here, on PostgreSQL with a low statement timeout: a note naming more cars
// than one batch is read in batches and the index catches up, its answers equal to the SQL's; and
// while the index's look cannot finish (its table locked by another session), browse still answers
// from the SQL within the wait's bound, then from the index again once the look is through.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car, CarListMeta } from '@karoo/shared';
import { browsePaths } from '../bench/browse-urls';
import { seedBenchData } from '../bench/seed-bench-data';
import { createBrowseIndex, SYNC_WAIT_MS, type BrowseIndex } from '../src/modules/cars/browse-index';
import { today } from '../src/modules/cars/cars.service';
import { createTestApp, testDbKind, type TestApp } from './helpers';

type Page = { success: true; data: Car[]; meta: CarListMeta };
const onPostgres = testDbKind === 'postgres' && !!process.env.TEST_DATABASE_URL;
/** Cars per statement of a reload here: the seeded 1,200 cars are six batches. */
const BATCH = 200;

describe.skipIf(!onPostgres)('the browse index under a change of many cars, and a slow refresh', () => {
  let t: TestApp;
  let index: BrowseIndex;

  beforeAll(async () => {
    t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', DATABASE_STATEMENT_TIMEOUT_MS: '1500' } });
    t.clock.set('2030-03-10T08:00:00+02:00');
    await seedBenchData(t.ctx.db, { cars: 1200, bookingsPerCar: 1, today: today(t.ctx) });
    index = createBrowseIndex(t.ctx.db, 0, t.ctx.cacheBus, BATCH);
    (t.ctx as { browseIndex: BrowseIndex }).browseIndex = index;
    await index.startLoading();
    expect(index.loaded).toBe(true);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  async function browse(url: string, engine: 'on' | 'off' = 'on'): Promise<{ page: Page; ms: number }> {
    (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
    const started = performance.now();
    try {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, `${url}\n${res.body}`).toBe(200);
      return { page: res.json<Page>(), ms: performance.now() - started };
    } finally {
      (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = 'on';
    }
  }

  it('reads a change note naming every car in batches, and answers as the SQL does after it', async () => {
    const before = index.size;
    const cheapest = (await browse('/api/car/getCarList?sort=PRICE_LOW&limit=1')).page.data[0]!.id;
    // One statement changes every car's price, and the cheapest listed one is taken off browse: the notes name all of them.
    await sql`UPDATE cars SET car_rent_price_cents = car_rent_price_cents + 700`.execute(t.db);
    await sql`UPDATE cars SET status = 'maintenance' WHERE id = ${cheapest}`.execute(t.db);
    const next = browsePaths(38);
    const paths = ['/api/car/getCarList?sort=PRICE_LOW&limit=48', ...Array.from({ length: 40 }, next)];
    for (const path of paths) expect((await browse(path)).page, path).toEqual((await browse(path, 'off')).page);
    expect(index.size).toBe(before - 1);
    expect(index.slowLooks).toBe(0);
  });

  it('answers from the SQL within the wait while the look cannot finish, then from the index again', async () => {
    const url = '/api/car/getCarList?sort=PRICE_HIGH&limit=24';
    const expected = (await browse(url, 'off')).page;
    // Another session holds browse_changes: the index's look waits on it (as on a slow database).
    const blocker = new pg.Client({ connectionString: t.database.url! });
    await blocker.connect();
    try {
      await blocker.query(`SET search_path TO ${(await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(t.db)).rows[0]!.schema}`);
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE browse_changes IN ACCESS EXCLUSIVE MODE');
      index.markChanged();
      for (let n = 0; n < 3; n += 1) {
        const { page, ms } = await browse(url);
        expect(page).toEqual(expected);
        // The wait's bound and the SQL's own answer, with room for a busy machine; never the look's statement timeout.
        expect(ms, `answer ${n}`).toBeLessThan(SYNC_WAIT_MS + 1000);
      }
      expect(index.slowLooks).toBeGreaterThanOrEqual(1);
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    // The look goes through: the index answers again (no more slow looks), as the SQL does.
    await expect.poll(async () => {
      const slow = index.slowLooks;
      const { page } = await browse(url);
      return index.slowLooks === slow && JSON.stringify(page) === JSON.stringify(expected);
    }, { timeout: 10_000, interval: 200 }).toBe(true);
  });
});
