// Money of bookings in bigint cents (issue 8; docs/decisions/012-hostile-input.md). A 32-bit
// integer holds at most R21.4 million, less than a long booking of a dear car with insurance
// (packages/shared/src/limits.ts works out the worst case: R80.3 million). bigint is read back as a
// JavaScript number by the INT8 type parser in db/connection.ts, as cars.car_value_cents already is.
import { sql, type Kysely } from 'kysely';

const BOOKING_MONEY = [
  'subtotal_cents',
  'service_fee_cents',
  'insurance_fee_cents',
  'pickup_fee_cents',
  'total_price_cents',
  'car_owner_earnings_cents',
  'app_fee_cents',
];
const INVOICE_MONEY = ['total_amount_cents', 'car_owner_earnings_cents', 'app_fee_cents'];

function alterColumns(table: string, columns: string[], type: 'bigint' | 'integer') {
  const changes = columns.map((column) => `ALTER COLUMN ${column} TYPE ${type}`).join(', ');
  return sql.raw(`ALTER TABLE ${table} ${changes}`);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await alterColumns('bookings', BOOKING_MONEY, 'bigint').execute(db);
  await alterColumns('payments', ['amount_cents'], 'bigint').execute(db);
  await alterColumns('invoices', INVOICE_MONEY, 'bigint').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await alterColumns('invoices', INVOICE_MONEY, 'integer').execute(db);
  await alterColumns('payments', ['amount_cents'], 'integer').execute(db);
  await alterColumns('bookings', BOOKING_MONEY, 'integer').execute(db);
}
