// Account erasure and admin Finance whose cost follows what they touch (issue 32;
// docs/decisions/061-erasure-and-finance-at-scale.md).
// The erasure finds a person's rows through indexed columns only (data-protection/erasure.registry.ts):
// - cars by owner, deleted ones too (cars_owner_idx holds only those not deleted, and a deleting
//   account's cars are deleted by then);
// - car holds by car (the exclusion constraint's GiST index answers one car, not a list of them);
// - breach notices, correction requests and payout reversals by the person;
// - mail by the address it went to (lower case, as it is compared) and by the account it belongs to;
// - the administrators (their notices may name the person), a handful of rows of users.
// Admin Finance reads what it shows, not the whole ledger (ledger/ledger.reports.ts):
// - the lines of money per booking and Johannesburg day, newest first (recent transactions, and the
//   CSV page after page), from an index in that order with the money in it: a page reads its lines;
// - a range of days (month over month, a chosen period) from the moved_at index with the money in
//   it, without visiting the table;
// - the payouts owed: the final trips not paid out yet, by host, from their own index, and each
//   one's host share from its own ledger rows.
import { TIME_ZONE } from '@karoo/shared';
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX cars_owner_all_idx ON cars (owner_id)`.execute(db);
  await sql`CREATE INDEX car_holds_car_idx ON car_holds (car_id)`.execute(db);
  await sql`CREATE INDEX data_breach_notices_user_idx ON data_breach_notices (user_id)`.execute(db);
  await sql`CREATE INDEX correction_requests_user_idx ON correction_requests (user_id)`.execute(db);
  await sql`CREATE INDEX payout_reversals_reversed_by_idx ON payout_reversals (reversed_by)`.execute(db);
  await sql`CREATE INDEX mail_outbox_to_address_idx ON mail_outbox (lower(to_address))`.execute(db);
  await sql`CREATE INDEX mail_outbox_user_idx ON mail_outbox (user_id) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX users_admins_idx ON users (id) WHERE role = 'admin'`.execute(db);

  await sql`CREATE INDEX ledger_entries_day_idx ON ledger_entries (((moved_at AT TIME ZONE ${sql.lit(TIME_ZONE)})::date) DESC, booking_id DESC)
    INCLUDE (moved_at, kind, code, amount_cents) WHERE state = 'succeeded'`.execute(db);
  await sql`CREATE INDEX ledger_entries_moved_money_idx ON ledger_entries (moved_at) INCLUDE (kind, code, amount_cents, booking_id) WHERE state = 'succeeded'`.execute(db);
  await sql`CREATE INDEX ledger_entries_booking_kind_idx ON ledger_entries (booking_id, kind) INCLUDE (amount_cents)`.execute(db);
  await sql`CREATE INDEX bookings_unpaid_final_idx ON bookings (owner_id, id) WHERE status IN ('completed', 'cancelled') AND payout_status <> 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of [
    'bookings_unpaid_final_idx',
    'ledger_entries_booking_kind_idx',
    'ledger_entries_moved_money_idx',
    'ledger_entries_day_idx',
    'users_admins_idx',
    'mail_outbox_user_idx',
    'mail_outbox_to_address_idx',
    'payout_reversals_reversed_by_idx',
    'correction_requests_user_idx',
    'data_breach_notices_user_idx',
    'car_holds_car_idx',
    'cars_owner_all_idx',
  ]) {
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  }
}
