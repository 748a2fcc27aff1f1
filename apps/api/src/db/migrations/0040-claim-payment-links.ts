// A payment link for a claim whose card was declined (issue 34; docs/decisions/073-claim-payment-links.md):
// a checkout of its own (payments.claim_id names the claim, null for a trip's checkout), one open per
// claim, and a trip's own checkout still one open per booking (a claim's does not count against it).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments ADD COLUMN claim_id uuid`.execute(db);
  await sql`DROP INDEX payments_one_open_per_booking`.execute(db);
  await sql`CREATE UNIQUE INDEX payments_one_open_per_booking ON payments (booking_id) WHERE status = 'initialized' AND claim_id IS NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX payments_one_open_per_claim ON payments (claim_id) WHERE status = 'initialized' AND claim_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS payments_one_open_per_claim`.execute(db);
  await sql`DROP INDEX IF EXISTS payments_one_open_per_booking`.execute(db);
  await sql`DELETE FROM payments WHERE claim_id IS NOT NULL AND status = 'initialized'`.execute(db);
  await sql`CREATE UNIQUE INDEX payments_one_open_per_booking ON payments (booking_id) WHERE status = 'initialized'`.execute(db);
  await sql`ALTER TABLE payments DROP COLUMN claim_id`.execute(db);
}
