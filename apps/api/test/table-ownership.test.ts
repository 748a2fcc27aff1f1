// Each table has one writer (decision 036, issue 33): the module (or the one lib/ file) that owns it.
// This reads every source file under apps/api/src (comments left out) for the writes it makes:
// Kysely's insertInto / updateTable / deleteFrom / mergeInto, and INSERT INTO / UPDATE / DELETE FROM
// in SQL. A write from anywhere but the owner fails here, naming the file, except:
// - the data-protection module's erasure (account-deletion.ts and document-retention.ts, and
//   erasure.ts, which rewrites the tables of erasure.registry.ts by name): POPIA's erasure reaches
//   what is the person's in every module, in the deleting transaction (decision 050);
// - the demo seed (db/seed), which writes the demo data as a migration would, above the modules.
// And every table of the schema has an owner here, so a new table is given one from its first test.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

const src = fileURLToPath(new URL('../src/', import.meta.url));

/** Table → its one writer: a module's name, or a file under src/ for the few below the modules. */
const OWNERS: Record<string, string> = {
  account_deletions: 'data-protection',
  audit_log: 'audit',
  booking_message_reads: 'messages',
  booking_message_reports: 'messages',
  booking_messages: 'messages',
  bookings: 'bookings',
  browse_changes: 'cars',
  cancellation_fee_waivers: 'payments',
  trip_changes: 'payments',
  live_events: 'notifications',
  car_holds: 'cars',
  cars: 'cars',
  correction_requests: 'privacy',
  data_breach_notices: 'data-protection',
  data_breaches: 'data-protection',
  data_exports: 'privacy',
  document_serials: 'receipts',
  host_payout_accounts: 'payouts',
  invoices: 'earnings',
  issued_documents: 'receipts',
  ledger_entries: 'ledger',
  mail_outbox: 'lib/mail-outbox.repository.ts',
  notifications: 'notifications',
  password_reset_tokens: 'users',
  payments: 'payments',
  payout_reversals: 'earnings',
  payout_transfers: 'payouts',
  privacy_consents: 'privacy',
  reset_request_throttle: 'users',
  reviews: 'reviews',
  sandbox_refunds: 'lib/payments',
  sandbox_transfers: 'lib/payments',
  sessions: 'users',
  settings: 'settings',
  sign_in_links: 'users',
  sign_in_throttle: 'users',
  traffic_fines: 'trips',
  trip_claim_evidence: 'trips',
  trip_claim_items: 'trips',
  trip_claims: 'trips',
  trip_disputes: 'trips',
  trip_photos: 'trips',
  trip_records: 'trips',
  user_documents: 'users',
  users: 'users',
};

/** The erasure's files: the one writer of other modules' tables (what is the person's). */
const ERASURE_FILES = ['modules/data-protection/account-deletion.ts', 'modules/data-protection/document-retention.ts', 'modules/data-protection/erasure.ts'];

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesOf(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const withoutComments = (code: string) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
const WRITE = /(?:insertInto|updateTable|deleteFrom|mergeInto)\(\s*['"]([a-z_]+)(?:\s+as\s+\w+)?['"]|\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b/g;

/** Every write in the source: the table and the file (relative to src/). */
function writes(): { table: string; file: string }[] {
  return filesOf(src)
    .filter((file) => !file.includes(`${path.sep}migrations${path.sep}`))
    .flatMap((file) => [...withoutComments(readFileSync(file, 'utf8')).matchAll(WRITE)].map((m) => ({ table: (m[1] ?? m[2])!, file: path.relative(src, file) })));
}

/** Whether `file` is the owner `owner` (a module, or a lib/ file or folder). */
const isOwner = (owner: string, file: string) => (owner.includes('/') ? file === owner || file.startsWith(`${owner}/`) : file.startsWith(`modules/${owner}/`));

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('table ownership', () => {
  it('every table of the schema has an owner, and every owner named is a table', async () => {
    const { rows } = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%'`.execute(t.db);
    const tables = rows.map((r) => r.table_name).sort();
    expect(tables.filter((name) => !(name in OWNERS)), 'tables to give an owner in OWNERS').toEqual([]);
    expect(Object.keys(OWNERS).filter((name) => !tables.includes(name)), 'owners of tables the schema does not have').toEqual([]);
  });

  it('only a table\'s owner writes it (the erasure and the demo seed excepted, as above)', () => {
    const found = writes().filter(({ table }) => table in OWNERS);
    expect(found.length).toBeGreaterThan(100);
    const strangers = found
      .filter(({ table, file }) => !isOwner(OWNERS[table]!, file) && !ERASURE_FILES.includes(file) && !file.startsWith('db/seed/'))
      .map(({ table, file }) => `${file} writes ${table} (owned by ${OWNERS[table]})`);
    expect([...new Set(strangers)]).toEqual([]);
  });

  it('finds a write from a stranger (the check itself)', () => {
    const code = "await ctx.db.updateTable('ledger_entries').set({ amount_cents: 0 }).execute();\nawait sql`DELETE FROM reviews`.execute(db);";
    const tables = [...withoutComments(code).matchAll(WRITE)].map((m) => m[1] ?? m[2]);
    expect(tables).toEqual(['ledger_entries', 'reviews']);
    expect(isOwner(OWNERS.ledger_entries!, 'modules/payments/payments.service.ts')).toBe(false);
    expect(isOwner(OWNERS.ledger_entries!, 'modules/ledger/ledger.repository.ts')).toBe(true);
    expect(isOwner(OWNERS.mail_outbox!, 'lib/mail-outbox.repository.ts')).toBe(true);
    // A comment that says "UPDATE per table" is no write.
    expect([...withoutComments('// one UPDATE per table\n').matchAll(WRITE)]).toEqual([]);
  });
});
