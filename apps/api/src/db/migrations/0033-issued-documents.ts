// Receipts and host invoices keep one number for life (issue 32; docs/decisions/056). Each document
// issued is a row of `issued_documents`, owned by the receipts module: its kind, a serial number
// unique and sequential within the kind (RC-000001, HI-000001), its booking, a fingerprint of what
// it says, the moment it was issued and the document it replaces. The same content asked for again
// is the booking's current row; a changed content (a refund, a payout) is a new row naming the one
// before it. `document_serials` holds the last serial of each
// kind: locking its row is what makes two first downloads at once issue one number, with no gap.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE document_serials (
      kind text PRIMARY KEY CHECK (kind IN ('receipt', 'invoice')),
      last_serial integer NOT NULL DEFAULT 0 CHECK (last_serial >= 0)
    )
  `.execute(db);
  await sql`INSERT INTO document_serials (kind) VALUES ('receipt'), ('invoice')`.execute(db);
  await sql`
    CREATE TABLE issued_documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      kind text NOT NULL CHECK (kind IN ('receipt', 'invoice')),
      serial integer NOT NULL CHECK (serial > 0),
      number text NOT NULL UNIQUE,
      booking_id uuid NOT NULL REFERENCES bookings (id),
      content_hash text NOT NULL,
      replaces_id uuid,
      issued_at timestamptz NOT NULL,
      CONSTRAINT issued_documents_serial_unique UNIQUE (kind, serial),
      CONSTRAINT issued_documents_identity UNIQUE (id, kind, booking_id),
      -- A document replaces one of its own kind and booking, and is replaced at most once: each
      -- booking's documents of a kind are one line, from its first to its current one.
      CONSTRAINT issued_documents_replaces_fkey FOREIGN KEY (replaces_id, kind, booking_id) REFERENCES issued_documents (id, kind, booking_id),
      CONSTRAINT issued_documents_replaced_once UNIQUE (replaces_id)
    )
  `.execute(db);
  // One first document per booking and kind: two first downloads at once cannot both issue one.
  await sql`CREATE UNIQUE INDEX issued_documents_first_unique ON issued_documents (kind, booking_id) WHERE replaces_id IS NULL`.execute(db);
  await sql`CREATE INDEX issued_documents_booking_idx ON issued_documents (booking_id, kind, serial DESC)`.execute(db);
  // A number is never changed nor taken back: the rows are append-only.
  await sql`CREATE FUNCTION issued_documents_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'issued_documents is append-only: a document keeps its number for life';
    END $$`.execute(db);
  await sql`CREATE TRIGGER issued_documents_append_only BEFORE UPDATE OR DELETE ON issued_documents
    FOR EACH ROW EXECUTE FUNCTION issued_documents_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS issued_documents`.execute(db);
  await sql`DROP FUNCTION IF EXISTS issued_documents_append_only()`.execute(db);
  await sql`DROP TABLE IF EXISTS document_serials`.execute(db);
}
