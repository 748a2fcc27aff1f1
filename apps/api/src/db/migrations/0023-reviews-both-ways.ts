// Reviews both ways (issue 21; docs/decisions/043-reviews-both-ways.md): after a completed trip the
// host reviews the renter as the renter reviews the car, once per booking and direction. A review
// is hidden until its counterpart is in or the 14-day window ends (hidden_until; null = shown).
// Reviews written before this migration stay shown.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE reviews
      ADD COLUMN direction text NOT NULL DEFAULT 'car' CHECK (direction IN ('car', 'renter')),
      ADD COLUMN subject_id uuid REFERENCES users (id),
      ADD COLUMN hidden_until timestamptz,
      ADD CONSTRAINT reviews_renter_has_subject CHECK ((direction = 'renter') = (subject_id IS NOT NULL))
  `.execute(db);
  await sql`ALTER TABLE reviews DROP CONSTRAINT reviews_booking_id_key`.execute(db);
  await sql`ALTER TABLE reviews ADD CONSTRAINT reviews_booking_direction_key UNIQUE (booking_id, direction)`.execute(db);
  await sql`CREATE INDEX reviews_subject_idx ON reviews (subject_id, created_at DESC) WHERE subject_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX reviews_hidden_until_idx ON reviews (hidden_until) WHERE hidden_until IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS reviews_hidden_until_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS reviews_subject_idx`.execute(db);
  await sql`DELETE FROM reviews WHERE direction = 'renter'`.execute(db);
  await sql`ALTER TABLE reviews DROP CONSTRAINT reviews_booking_direction_key`.execute(db);
  await sql`ALTER TABLE reviews ADD CONSTRAINT reviews_booking_id_key UNIQUE (booking_id)`.execute(db);
  await sql`ALTER TABLE reviews DROP CONSTRAINT reviews_renter_has_subject, DROP COLUMN hidden_until, DROP COLUMN subject_id, DROP COLUMN direction`.execute(db);
}
