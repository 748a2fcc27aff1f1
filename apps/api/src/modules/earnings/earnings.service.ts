// Earnings (document 3 sections 7 and 9; decisions.md section 5): every figure is a sum of the
// breakdown stored on each booking, never recomputed from prices, so every screen agrees.
// Invoices: one per completed booking, numbered INV-YYYY-NNNNNN. Payouts: admins record them.
import { isAdmin, monthIn, monthsFrom, type EarningsSummary, type Earning, type Invoice, type ProfitPerCar, type updatePayoutBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import type { InvoiceLine, UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import { findBookingById } from '../bookings/bookings.service';
import { findCar } from '../cars/cars.service';
import { getSettings } from '../settings/settings.service';
import { findUser } from '../users/users.service';
import * as repo from './earnings.repository';
import type { EarningRecord, InvoiceRecord } from './earnings.repository';

const rand = (cents: number) => cents / 100;
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
/** 'YYYY-MM' in Johannesburg of when a booking earned (completed, else paid). */
const monthOf = (r: EarningRecord) => monthIn(new Date(r.completed_at ?? r.paid_at ?? r.created_at));

function toEarning(r: EarningRecord): Earning {
  return {
    id: r.id,
    booking_id: r.booking_number,
    car_username: r.car_username,
    car_name: `${r.car_make} ${r.car_model}`,
    status: r.status,
    start_date: r.start_date,
    end_date: r.end_date,
    gross: rand(r.total_price_cents),
    total_price: rand(r.total_price_cents),
    subtotal: rand(r.subtotal_cents),
    pickup_fee: rand(r.pickup_fee_cents),
    car_owner_earnings: rand(r.car_owner_earnings_cents),
    app_fee: rand(r.app_fee_cents),
    commission_rate: Number(r.commission_rate),
    payout_status: r.payout_status,
    payout_reference: r.payout_reference,
    payout_at: iso(r.payout_at),
    paid_at: iso(r.paid_at),
    completed_at: iso(r.completed_at),
  };
}

function sumUp(rows: EarningRecord[]) {
  return rows.reduce(
    (acc, r) => ({
      gross: acc.gross + r.total_price_cents,
      rental: acc.rental + r.subtotal_cents + r.pickup_fee_cents,
      earnings: acc.earnings + r.car_owner_earnings_cents,
      fee: acc.fee + r.app_fee_cents,
    }),
    { gross: 0, rental: 0, earnings: 0, fee: 0 },
  );
}

function requireSelfOrAdmin(viewer: UserRow, userId: string) {
  if (viewer.id !== userId && !isAdmin(viewer)) throw forbidden('You can only see your own earnings.');
}

/** GET /earnings/earning/getCarOwnerProfit/{id}: one entry per completed or paid booking of that host. */
export async function carOwnerProfit(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<Earning[]> {
  const user = await findUser(ctx, idOrUsername);
  if (!user) throw notFound('User not found');
  requireSelfOrAdmin(viewer, user.id);
  return (await repo.listEarningRecords(ctx.db, { ownerId: user.id })).map(toEarning);
}

async function manageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findCar(ctx, idOrUsername);
  if (!car) throw notFound('Car not found');
  if (car.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can see its earnings.');
  return car;
}

export async function profitPerCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<ProfitPerCar> {
  const car = await manageableCar(ctx, viewer, idOrUsername);
  const rows = await repo.listEarningRecords(ctx.db, { carId: car.id });
  const sums = sumUp(rows);
  return {
    car_username: car.car_username,
    car_name: `${car.car_make} ${car.car_model}`,
    gross: rand(sums.gross),
    car_owner_earnings: rand(sums.earnings),
    app_fee: rand(sums.fee),
    bookings: rows.length,
  };
}

export async function summary(ctx: AppContext, viewer: UserRow): Promise<EarningsSummary> {
  const rows = await repo.listEarningRecords(ctx.db, isAdmin(viewer) ? {} : { ownerId: viewer.id });
  const total = sumUp(rows);
  const byCar = new Map<string, { name: string; rows: EarningRecord[] }>();
  const byMonth = new Map<string, EarningRecord[]>();
  for (const r of rows) {
    const car = byCar.get(r.car_username) ?? { name: `${r.car_make} ${r.car_model}`, rows: [] };
    car.rows.push(r);
    byCar.set(r.car_username, car);
    const month = monthOf(r);
    byMonth.set(month, [...(byMonth.get(month) ?? []), r]);
  }
  // Every month from the first earning to this one, months without trips as zero.
  const earned = [...byMonth.keys()].sort();
  const thisMonth = monthIn(ctx.clock.now());
  const months = earned.length ? monthsFrom(earned[0]!, earned.at(-1)! > thisMonth ? earned.at(-1)! : thisMonth) : [];
  return {
    total_revenue: rand(total.gross),
    rental_income: rand(total.rental),
    host_fee: rand(total.rental - total.earnings),
    total_earnings: rand(total.earnings),
    app_fee: rand(total.fee),
    bookings: rows.length,
    by_car: [...byCar.entries()]
      .map(([carUsername, { name, rows: carRows }]) => {
        const s = sumUp(carRows);
        return { car_username: carUsername, car_name: name, gross: rand(s.gross), car_owner_earnings: rand(s.earnings), app_fee: rand(s.fee), bookings: carRows.length };
      })
      .sort((a, b) => b.gross - a.gross),
    by_month: months.map((month) => {
      const monthRows = byMonth.get(month) ?? [];
      const s = sumUp(monthRows);
      return { month, revenue: rand(s.gross), earnings: rand(s.earnings), app_fee: rand(s.fee), bookings: monthRows.length };
    }),
  };
}

export async function appFee(ctx: AppContext) {
  const settings = await getSettings(ctx);
  const total = sumUp(await repo.listEarningRecords(ctx.db, {}));
  return { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission, total_app_fee: rand(total.fee) };
}

function toInvoice(r: InvoiceRecord): Invoice {
  return {
    id: r.id,
    invoice_number: r.invoice_number,
    invoice_car_username: r.car_username,
    car_username: r.car_username,
    booking_id: r.booking_number,
    booking_number: r.booking_number,
    total_amount: rand(r.total_amount_cents),
    car_owner_earnings: rand(r.car_owner_earnings_cents),
    app_fee: rand(r.app_fee_cents),
    line_items: r.line_items.map((l) => ({ description: l.description, amount: rand(l.amount_cents) })),
    issued_at: new Date(r.issued_at).toISOString(),
  };
}

/** POST /earnings/earning/createInvoicePerCar/{id}: idempotent, one invoice per completed booking. */
export async function createInvoice(ctx: AppContext, viewer: UserRow, bookingIdOrNumber: string): Promise<{ invoice: Invoice; created: boolean }> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  const canSee = booking && (booking.owner_id === viewer.id || booking.renter_id === viewer.id || isAdmin(viewer));
  if (!booking || !canSee) throw notFound('Booking not found');
  if (booking.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can invoice a booking.');
  if (booking.status !== 'completed') throw conflict('Only completed bookings can be invoiced.');
  const existing = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (existing) return { invoice: toInvoice(existing), created: false };

  const now = ctx.clock.now();
  const lines: InvoiceLine[] = [
    { description: booking.is_hourly_booking ? `Rental (${booking.duration_hours} h)` : `Rental (${booking.duration_days} days)`, amount_cents: booking.subtotal_cents },
    { description: `Service fee (${Number(booking.service_fee_rate)}%)`, amount_cents: booking.service_fee_cents },
    { description: 'Insurance', amount_cents: booking.insurance_fee_cents },
    { description: 'Pickup fee', amount_cents: booking.pickup_fee_cents },
  ];
  const sequence = await repo.nextInvoiceSequence(ctx.db);
  const year = monthIn(now).slice(0, 4);
  const number = `INV-${year}-${String(sequence).padStart(6, '0')}`;
  const inserted = await repo.insertInvoiceOnce(ctx.db, {
    invoice_number: number,
    booking_id: booking.id,
    car_id: booking.car_id,
    owner_id: booking.owner_id,
    total_amount_cents: booking.total_price_cents,
    car_owner_earnings_cents: booking.car_owner_earnings_cents,
    app_fee_cents: booking.app_fee_cents,
    line_items: JSON.stringify(lines),
    issued_at: now,
  });
  const invoice = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (!invoice) throw notFound('Invoice not found');
  return { invoice: toInvoice(invoice), created: !!inserted };
}

export async function listInvoices(ctx: AppContext, viewer: UserRow): Promise<Invoice[]> {
  return (await repo.listInvoices(ctx.db, isAdmin(viewer) ? undefined : viewer.id)).map(toInvoice);
}

/** PATCH /earnings/earning/updatePayout/{id} (admin): the payout of one earning (a booking). */
export async function updatePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, body: z.output<typeof updatePayoutBodySchema>): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Earning not found');
  const [earning] = await repo.listEarningRecords(ctx.db, { bookingId: booking.id });
  if (!earning) throw conflict('Only completed or paid bookings have a payout.');
  await inTransaction(
    ctx,
    async (tx) => {
      await repo.updatePayout(tx.db, booking.id, { payout_status: body.payout_status, payout_reference: body.payout_reference }, tx.now);
      tx.emit({
        type: 'payout.updated',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        before: { payout_status: earning.payout_status, payout_reference: earning.payout_reference },
        after: { payout_status: body.payout_status, payout_reference: body.payout_reference ?? earning.payout_reference },
      });
    },
    { by: admin },
  );
  const [updated] = await repo.listEarningRecords(ctx.db, { bookingId: booking.id });
  return toEarning(updated!);
}
