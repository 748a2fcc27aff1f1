// A host's earnings (document 3 sections 7 and 9; decisions.md sections 5 and 12): every money figure is a
// sum of ledger rows (docs/decisions/039-one-ledger.md), never of booking columns, so every screen
// agrees and a closed period never changes: a period counts the money that moved in it.
// Invoices: one per completed booking, numbered INV-YYYY-NNNNNN. The admins' payouts by hand are
// admin-payouts.service.ts; admin Finance admin-finance.service.ts; analytics admin-analytics.service.ts.
import { isAdmin, monthIn, monthsFrom, type EarningsSummary, type Earning, type Invoice, type ProfitPerCar } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { InvoiceLine, UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import { findBookingById } from '../bookings';
import { findCar } from '../cars';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import { findUser } from '../users';
import * as repo from './earnings.repository';
import type { BookingDetails, InvoiceRecord } from './earnings.repository';
import { rand, NO_MONEY, sumMoney, type Money, addMoney, listEarningRecords, toEarning, toProfitPerCar } from './earnings.money';

function requireSelfOrAdmin(viewer: UserRow, userId: string) {
  if (viewer.id !== userId && !isAdmin(viewer)) throw forbidden('You can only see your own earnings.');
}

/**
 * GET /earnings/earning/getCarOwnerProfit/{id}: one entry per paid booking of that host, with its
 * money as ledger sums (a cancelled trip shows what it kept: the host's share of a cancellation
 * fee, or a host's penalty).
 */
export async function carOwnerProfit(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<Earning[]> {
  const user = await findUser(ctx, idOrUsername);
  if (!user) throw notFound('User not found');
  requireSelfOrAdmin(viewer, user.id);
  return (await listEarningRecords(ctx.db, { hostId: user.id })).map(toEarning);
}

async function manageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findCar(ctx, idOrUsername);
  if (!car) throw notFound('Car not found');
  if (car.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can see its earnings.');
  return car;
}

export async function profitPerCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<ProfitPerCar> {
  const car = await manageableCar(ctx, viewer, idOrUsername);
  const records = await listEarningRecords(ctx.db, { carId: car.id });
  return toProfitPerCar(car, sumMoney(records.map((r) => r.money)));
}

export async function summary(ctx: AppContext, viewer: UserRow): Promise<EarningsSummary> {
  const filter = isAdmin(viewer) ? {} : { hostId: viewer.id };
  const [records, monthly] = await Promise.all([listEarningRecords(ctx.db, filter), ledger.sumMoneyByMonth(ctx.db, filter)]);
  const total = sumMoney(records.map((r) => r.money));
  const byCar = new Map<string, { car: BookingDetails; money: Money }>();
  for (const { details, money } of records) {
    const car = byCar.get(details.car_id) ?? { car: details, money: NO_MONEY };
    byCar.set(details.car_id, { car: car.car, money: addMoney(car.money, money) });
  }
  // Every month from the first money to this one, months without any as zero; each month counts
  // what moved in it (a trip in the month it was paid, a cancellation in its own).
  const byMonth = new Map(monthly.map((m) => [m.month, m]));
  const thisMonth = monthIn(ctx.clock.now());
  const first = monthly[0]?.month;
  const last = monthly.at(-1)?.month;
  const months = first && last ? monthsFrom(first, last > thisMonth ? last : thisMonth) : [];
  const rentalIncome = total.hostEarningsCents + ledger.hostFeesOf(total);
  return {
    total_revenue: rand(ledger.grossOf(total)),
    rental_income: rand(rentalIncome),
    host_fee: rand(ledger.hostFeesOf(total)),
    total_earnings: rand(total.hostEarningsCents),
    app_fee: rand(total.platformRevenueCents),
    bookings: total.paidTrips,
    penalties: rand(total.penaltiesCents),
    by_car: [...byCar.values()].map(({ car, money }) => toProfitPerCar(car, money)).sort((a, b) => b.gross - a.gross),
    by_month: months.map((month) => {
      const m = byMonth.get(month) ?? { ...NO_MONEY, month };
      return { month, revenue: rand(ledger.grossOf(m)), earnings: rand(m.hostEarningsCents), app_fee: rand(m.platformRevenueCents), bookings: m.paidTrips };
    }),
  };
}

export async function appFee(ctx: AppContext) {
  const [settings, total] = await Promise.all([getSettings(ctx), ledger.sumMoneyMoved(ctx.db, {})]);
  return { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission, total_app_fee: rand(total.platformRevenueCents) };
}

/** An invoice's amounts are its booking's ledger sums: what the renter paid, the host's part and the platform's. */
function toInvoice(r: InvoiceRecord, m: Money): Invoice {
  const hostFee = ledger.hostFeesOf(m);
  return {
    id: r.id,
    invoice_number: r.invoice_number,
    invoice_car_username: r.car_username,
    car_username: r.car_username,
    car_name: `${r.car_year} ${r.car_make} ${r.car_model}`,
    car: { make: r.car_make, model: r.car_model, year: r.car_year, color: r.car_color, plate_number: r.car_plate_number },
    renter: { username: r.renter_username, full_name: r.renter_name || r.renter_username },
    host: { username: r.host_username, full_name: r.host_name || r.host_username },
    booking_id: r.booking_number,
    booking_number: r.booking_number,
    start_date: r.start_date,
    end_date: r.end_date,
    total_amount: rand(ledger.grossOf(m)),
    rental_income: rand(m.hostEarningsCents + hostFee),
    pickup_fee: rand(r.pickup_fee_cents),
    host_fee: rand(hostFee),
    host_fee_rate: Number(r.commission_rate),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    line_items: r.line_items.map((l) => ({ description: l.description, amount: rand(l.amount_cents) })),
    issued_at: new Date(r.issued_at).toISOString(),
  };
}

/** The ledger sums of these bookings, by id. */
async function moneyByBooking(db: Db, bookingIds: readonly string[]): Promise<Map<string, Money>> {
  const sums = await ledger.sumMoneyByBooking(db, { bookingIds });
  return new Map(sums.map((m) => [m.bookingId, m]));
}

async function toInvoices(db: Db, records: InvoiceRecord[]): Promise<Invoice[]> {
  const money = await moneyByBooking(db, records.map((r) => r.booking_id));
  return records.map((r) => toInvoice(r, money.get(r.booking_id) ?? NO_MONEY));
}

/** POST /earnings/earning/createInvoicePerCar/{id}: idempotent, one invoice per completed booking. */
export async function createInvoice(ctx: AppContext, viewer: UserRow, bookingIdOrNumber: string): Promise<{ invoice: Invoice; created: boolean }> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  const canSee = booking && (booking.owner_id === viewer.id || booking.renter_id === viewer.id || isAdmin(viewer));
  if (!booking || !canSee) throw notFound('Booking not found');
  if (booking.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can invoice a booking.');
  if (booking.status !== 'completed') throw conflict('Only completed bookings can be invoiced.');
  const existing = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (existing) return { invoice: (await toInvoices(ctx.db, [existing]))[0]!, created: false };

  const now = ctx.clock.now();
  const lines: InvoiceLine[] = [
    { description: booking.is_hourly_booking ? `Rental (${booking.duration_hours} h)` : `Rental (${booking.duration_days} days)`, amount_cents: booking.subtotal_cents },
    { description: `Service fee (${Number(booking.service_fee_rate)}%)`, amount_cents: booking.service_fee_cents },
    { description: 'Insurance', amount_cents: booking.insurance_fee_cents },
    { description: 'Pickup fee', amount_cents: booking.pickup_fee_cents },
  ];
  const money = (await moneyByBooking(ctx.db, [booking.id])).get(booking.id) ?? NO_MONEY;
  const sequence = await repo.nextInvoiceSequence(ctx.db);
  const year = monthIn(now).slice(0, 4);
  const number = `INV-${year}-${String(sequence).padStart(6, '0')}`;
  const inserted = await repo.insertInvoiceOnce(ctx.db, {
    invoice_number: number,
    booking_id: booking.id,
    car_id: booking.car_id,
    owner_id: booking.owner_id,
    // As the ledger has them when issued (a completed trip's shares no longer change).
    total_amount_cents: ledger.grossOf(money),
    car_owner_earnings_cents: money.hostEarningsCents,
    app_fee_cents: money.platformRevenueCents,
    line_items: JSON.stringify(lines),
    issued_at: now,
  });
  const invoice = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (!invoice) throw notFound('Invoice not found');
  return { invoice: toInvoice(invoice, money), created: !!inserted };
}

export async function listInvoices(ctx: AppContext, viewer: UserRow): Promise<Invoice[]> {
  return toInvoices(ctx.db, await repo.listInvoices(ctx.db, isAdmin(viewer) ? undefined : viewer.id));
}
