// What the earnings screens share: a booking's money as ledger sums (ledger.MoneySums), added up,
// and turned into the answers' shapes (an earning, a car's profit). Every figure a ledger sum
// (docs/decisions/039-one-ledger.md).
import type { Earning, ProfitPerCar } from '@karoo/shared';
import type { Db } from '../../db/connection';
import * as ledger from '../ledger';
import * as repo from './earnings.repository';
import type { BookingDetails } from './earnings.repository';

export const rand = (cents: number) => cents / 100;
export const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

export type Money = ledger.MoneySums;
export const NO_MONEY: Money = {
  chargedCents: 0,
  refundedCents: 0,
  hostEarningsCents: 0,
  platformRevenueCents: 0,
  serviceFeesCents: 0,
  insuranceCents: 0,
  cancellationFeesCents: 0,
  penaltiesCents: 0,
  paidOutCents: 0,
  paidTrips: 0,
  depositsTakenCents: 0,
  depositsReleasedCents: 0,
  depositsAppliedCents: 0,
};

export function addMoney(a: Money, b: Money): Money {
  const sum = { ...a };
  for (const key of Object.keys(sum) as (keyof Money)[]) sum[key] += b[key];
  return sum;
}
export const sumMoney = (list: readonly Money[]) => list.reduce(addMoney, NO_MONEY);

/** A booking of a host's earnings list: what it is, and its money as ledger sums. */
export interface EarningRecord {
  details: BookingDetails;
  money: Money;
}

/** The bookings that earned or cost their host something (ledger.sumMoneyByBooking), newest money first. */
export async function listEarningRecords(db: Db, filter: ledger.BookingFilter): Promise<EarningRecord[]> {
  const sums = await ledger.sumMoneyByBooking(db, filter);
  const details = await repo.findBookingDetails(db, sums.map((m) => m.bookingId));
  return sums.flatMap((money) => {
    const found = details.get(money.bookingId);
    return found ? [{ details: found, money }] : [];
  });
}

/** One booking as an earning, with no money when the ledger has none for it. */
export async function earningRecordOf(db: Db, bookingId: string): Promise<EarningRecord | undefined> {
  const details = (await repo.findBookingDetails(db, [bookingId])).get(bookingId);
  if (!details) return undefined;
  const [money] = await ledger.sumMoneyByBooking(db, { bookingIds: [bookingId] });
  return { details, money: money ?? NO_MONEY };
}

export function toEarning({ details: d, money: m }: EarningRecord): Earning {
  return {
    id: d.id,
    booking_id: d.booking_number,
    car_username: d.car_username,
    car_name: `${d.car_make} ${d.car_model}`,
    status: d.status,
    start_date: d.start_date,
    end_date: d.end_date,
    gross: rand(ledger.grossOf(m)),
    total_price: rand(d.total_price_cents),
    subtotal: rand(d.subtotal_cents),
    pickup_fee: rand(d.pickup_fee_cents),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    refunded: rand(m.refundedCents),
    cancellation_fee: rand(m.cancellationFeesCents),
    penalty: rand(m.penaltiesCents),
    commission_rate: Number(d.commission_rate),
    payout_status: d.payout_status,
    payout_reference: d.payout_reference,
    payout_at: iso(d.payout_at),
    paid_at: iso(d.paid_at),
    completed_at: iso(d.completed_at),
  };
}

export type CarNames = Pick<repo.CarDetails, 'car_username' | 'car_make' | 'car_model' | 'car_year' | 'car_color' | 'car_plate_number'>;

export function toProfitPerCar(car: CarNames, m: Money): ProfitPerCar {
  return {
    car_username: car.car_username,
    car_name: `${car.car_make} ${car.car_model}`,
    car_year: car.car_year,
    car_color: car.car_color,
    car_plate_number: car.car_plate_number,
    gross: rand(ledger.grossOf(m)),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    bookings: m.paidTrips,
  };
}
