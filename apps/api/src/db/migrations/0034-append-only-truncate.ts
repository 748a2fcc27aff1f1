// The append-only tables refuse TRUNCATE too (issue 32). Their guards (migrations 0020, 0021, 0022,
// 0024, 0027) are row-level triggers, and TRUNCATE fires no row trigger: `TRUNCATE ledger_entries`
// emptied the ledger without a word. A statement-level BEFORE TRUNCATE trigger on each refuses it,
// also when the table is reached through `TRUNCATE bookings CASCADE`. No code of Karoo truncates
// (an account's erasure rewrites text and deletes rows one by one); a person who truly must start
// over drops the trigger first, in plain sight.
import { sql, type Kysely } from 'kysely';

/** The tables whose rows are a record by design (decisions 039, 041, 042), and so never emptied. */
export const APPEND_ONLY_TABLES = ['ledger_entries', 'booking_messages', 'booking_message_reports', 'trip_records', 'trip_photos', 'trip_disputes'] as const;

const triggerOf = (table: string) => `${table}_no_truncate`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only: TRUNCATE is refused (its rows are a record; record a new one)', TG_TABLE_NAME
        USING ERRCODE = 'check_violation';
    END $$
  `.execute(db);
  for (const table of APPEND_ONLY_TABLES) {
    await sql`CREATE TRIGGER ${sql.ref(triggerOf(table))} BEFORE TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of APPEND_ONLY_TABLES) await sql`DROP TRIGGER IF EXISTS ${sql.ref(triggerOf(table))} ON ${sql.table(table)}`.execute(db);
  await sql`DROP FUNCTION IF EXISTS refuse_truncate()`.execute(db);
}
