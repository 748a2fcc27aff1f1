// SQL for earnings: the bookings that earn (completed, or paid and active) with their stored
// breakdown, and invoices.
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Insertable } from 'kysely';
import type { InvoiceLine, InvoicesTable, PayoutStatusValue } from '../../db/schema';
import { earningBookingSql } from './earning-rule';

export interface EarningRecord {
  id: string;
  booking_number: string;
  status: string;
  car_id: string;
  owner_id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  start_date: string;
  end_date: string;
  subtotal_cents: number;
  service_fee_cents: number;
  insurance_fee_cents: number;
  pickup_fee_cents: number;
  total_price_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  commission_rate: number;
  payout_status: PayoutStatusValue;
  payout_reference: string | null;
  payout_at: Date | null;
  paid_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
}

/** The bookings that earn (earning-rule.ts) with their stored breakdown, newest first. */
export function listEarningRecords(db: Db, filters: { ownerId?: string; carId?: string; bookingId?: string }): Promise<EarningRecord[]> {
  let query = db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .select([
      'b.id',
      'b.booking_number',
      'b.status',
      'b.car_id',
      'b.owner_id',
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'b.start_date',
      'b.end_date',
      'b.subtotal_cents',
      'b.service_fee_cents',
      'b.insurance_fee_cents',
      'b.pickup_fee_cents',
      'b.total_price_cents',
      'b.car_owner_earnings_cents',
      'b.app_fee_cents',
      'b.commission_rate',
      'b.payout_status',
      'b.payout_reference',
      'b.payout_at',
      'b.paid_at',
      'b.completed_at',
      'b.created_at',
    ])
    .where(earningBookingSql('b'));
  if (filters.ownerId) query = query.where('b.owner_id', '=', filters.ownerId);
  if (filters.carId) query = query.where('b.car_id', '=', filters.carId);
  if (filters.bookingId) query = query.where('b.id', '=', filters.bookingId);
  return query.orderBy(sql`coalesce(b.completed_at, b.paid_at, b.created_at)`, 'desc').orderBy('b.id').execute();
}

export interface InvoiceRecord {
  id: string;
  invoice_number: string;
  booking_id: string;
  booking_number: string;
  car_username: string;
  owner_id: string;
  total_amount_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  line_items: InvoiceLine[];
  issued_at: Date;
}

function selectInvoices(db: Db) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('bookings as b', 'b.id', 'i.booking_id')
    .innerJoin('cars as c', 'c.id', 'i.car_id')
    .select([
      'i.id',
      'i.invoice_number',
      'i.booking_id',
      'b.booking_number',
      'c.car_username',
      'i.owner_id',
      'i.total_amount_cents',
      'i.car_owner_earnings_cents',
      'i.app_fee_cents',
      'i.line_items',
      'i.issued_at',
    ]);
}

export function findInvoiceByBooking(db: Db, bookingId: string): Promise<InvoiceRecord | undefined> {
  return selectInvoices(db).where('i.booking_id', '=', bookingId).executeTakeFirst();
}

export function listInvoices(db: Db, ownerId?: string): Promise<InvoiceRecord[]> {
  let query = selectInvoices(db);
  if (ownerId) query = query.where('i.owner_id', '=', ownerId);
  return query.orderBy('i.issued_at', 'desc').orderBy('i.id').limit(500).execute();
}

export async function nextInvoiceSequence(db: Db): Promise<number> {
  const result = await sql<{ n: string }>`SELECT nextval('invoice_number_seq') AS n`.execute(db);
  return Number(result.rows[0]!.n);
}

/** One invoice per booking: two requests at once keep one (unique booking_id); answers whether this one wrote it. */
export async function insertInvoiceOnce(db: Db, invoice: Insertable<InvoicesTable>): Promise<boolean> {
  const row = await db.insertInto('invoices').values(invoice).onConflict((oc) => oc.column('booking_id').doNothing()).returning('id').executeTakeFirst();
  return !!row;
}

/** The payout state of one earning (stored on its booking). */
export async function updatePayout(db: Db, bookingId: string, payout: { payout_status: PayoutStatusValue; payout_reference?: string | null }, now: Date): Promise<void> {
  await db
    .updateTable('bookings')
    .set({
      payout_status: payout.payout_status,
      ...(payout.payout_reference !== undefined ? { payout_reference: payout.payout_reference } : {}),
      payout_at: payout.payout_status === 'paid' ? now : null,
      updated_at: now,
    })
    .where('id', '=', bookingId)
    .execute();
}
