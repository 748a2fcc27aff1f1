// What the public pages (decision 044) ask of the cars module: the listed cars a sitemap names, a
// page of them at a time in a stable order, the cities with listed cars, and whether a car page's
// `{id}` names a car that was taken off Karoo (410 Gone) rather than one that never existed (404).
// "Listed" is the browse's definition (browse-index.ts LISTED): not deleted, available, verified.
import { BASE_CITIES } from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { isUuid } from './cars.repository';
import { listedCar } from './listed-car';

const LISTED = listedCar('c');

export interface SitemapCar {
  car_username: string;
  updated_at: Date;
}

/** How many cars are listed. */
export async function countListedCars(ctx: AppContext): Promise<number> {
  const { rows } = await sql<{ n: string | number }>`SELECT count(*) AS n FROM cars c WHERE ${LISTED}`.execute(ctx.db);
  return Number(rows[0]?.n ?? 0);
}

/** Listed cars `offset` to `offset + limit` in id order (the order does not move as cars are edited). */
export async function listedCarsForSitemap(ctx: AppContext, offset: number, limit: number): Promise<SitemapCar[]> {
  const { rows } = await sql<{ car_username: string; updated_at: Date | string }>`
    SELECT c.car_username, c.updated_at FROM cars c WHERE ${LISTED} ORDER BY c.id LIMIT ${limit} OFFSET ${offset}`.execute(ctx.db);
  return rows.map((row) => ({ car_username: row.car_username, updated_at: new Date(row.updated_at) }));
}

/**
 * The base cities (the browse's city list) with at least one listed car, and when the newest of
 * their cars changed: the browse's location filter matches part of the pickup location, as here.
 */
export async function citiesWithListedCars(ctx: AppContext): Promise<{ city: string; updated_at: Date }[]> {
  const columns = BASE_CITIES.map(
    (city, i) => sql`max(c.updated_at) FILTER (WHERE c.city_key LIKE ${`%${city.name.toLowerCase()}%`}) AS ${sql.ref(`c${i}`)}`,
  );
  const { rows } = await sql<Record<string, Date | string | null>>`SELECT ${sql.join(columns)} FROM cars c WHERE ${LISTED}`.execute(ctx.db);
  const row = rows[0] ?? {};
  return BASE_CITIES.flatMap((city, i) => {
    const at = row[`c${i}`];
    return at ? [{ city: city.name, updated_at: new Date(at) }] : [];
  });
}

/** Whether `{id}` (an id or a car_username) names a deleted car and no car on Karoo now. */
export async function wasCarRemoved(ctx: AppContext, idOrUsername: string): Promise<boolean> {
  const value = idOrUsername.trim();
  const { rows } = await sql<{ live: boolean }>`
    SELECT (c.deleted_at IS NULL) AS live FROM cars c
    WHERE ${isUuid(value) ? sql`(c.id = ${value}::uuid OR lower(c.car_username) = ${value.toLowerCase()})` : sql`lower(c.car_username) = ${value.toLowerCase()}`}`.execute(ctx.db);
  return rows.length > 0 && rows.every((row) => !row.live);
}
