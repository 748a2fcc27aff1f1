// What "listed" means (renters can find and book the car), in SQL: not deleted, verified by Karoo and
// set available by its host. The same rule as @karoo/shared `isListedCar`, which the API (who may see
// a car) and the host's screens use on a car in hand; listed-car.test.ts holds the two to each other
// on every combination. The browse index, the sitemap and the public car list filter by this one.
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** The listed condition over the cars table as `alias` (`c` where the query names it so). */
export function listedCar(alias = 'c'): RawBuilder<SqlBool> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<SqlBool>`(${column('deleted_at')} IS NULL AND ${column('status')} = 'available' AND ${column('verification_status')} = 'verified')`;
}
