// SQL for the admin Dashboard: the user and booking counters in one round trip of aggregates
// (never rows), and the newest users for Recent Activity. Deleted users are not counted; the cars
// are counted by the cars module (countCarsForAdmin), whose rules say what "rented" means.
import type { Db } from '../../db/connection';

export interface DashboardCountRow {
  total_users: number;
  pending_user_verification: number;
  total_bookings: number;
}

export async function countDashboardTotals(db: Db): Promise<DashboardCountRow> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('users')
        .select((sub) => sub.fn.countAll<string>().as('n'))
        .where('deleted_at', 'is', null)
        .as('total_users'),
      eb
        .selectFrom('users')
        .select((sub) => sub.fn.countAll<string>().filterWhere('verification_status', '=', 'pending_verification').as('n'))
        .where('deleted_at', 'is', null)
        .as('pending_user_verification'),
      eb.selectFrom('bookings').select((sub) => sub.fn.countAll<string>().as('n')).as('total_bookings'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total_users: Number(row.total_users),
    pending_user_verification: Number(row.pending_user_verification),
    total_bookings: Number(row.total_bookings),
  };
}

/** The newest users first (ties broken by id so the list is stable). */
export function listNewestUsers(db: Db, limit: number) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'full_name', 'email', 'role', 'verification_status', 'created_at'])
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
