// What an admin reads about every car (document 3, Cars): one page of the admin Cars list (GET
// /api/admin/cars: unverified, rejected, offline and rented cars included, searched by plate too,
// filtered, sorted and paged in SQL), and the counters the Dashboard and the Cars tab show. The
// public browse (car-browse.service.ts) is for renters; admins no longer read through it.
import type { AdminCarListQuery, Car } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { searchTerms } from './car-browse.service';
import { toCar } from './cars.mapper';
import * as repo from './cars.repository';
import { canManageCar, today } from './cars.service';

export interface AdminCarPage {
  cars: Car[];
  /** Cars matching the filters, counted exactly. */
  total: number;
}

/** One page of every car matching an admin's search and filters, in the asked order (newest listed first by default). */
export async function listCarsForAdmin(ctx: AppContext, admin: UserRow, query: AdminCarListQuery): Promise<AdminCarPage> {
  const { records, total } = await repo.findCarPage(ctx.db, {
    scope: 'all',
    today: today(ctx),
    ...searchTerms(query.search, true),
    features: [],
    pickupType: 'ALL',
    status: query.status,
    verificationStatus: query.verification_status,
    sort: { by: query.sort, order: query.order ?? (query.sort === 'listed' ? 'desc' : 'asc') },
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  });
  // Admins see every car's private fields (documents, notes), as on the car's own page.
  return { cars: records.map((record) => toCar(record, { isPrivileged: canManageCar(admin, record) })), total };
}

/** How many cars there are, available, out on a rental, in maintenance and waiting for verification. */
export function countCarsForAdmin(ctx: AppContext) {
  return repo.countCarsByState(ctx.db, today(ctx));
}
