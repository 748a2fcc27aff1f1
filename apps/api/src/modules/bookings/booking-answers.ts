// The booking answers of every route that returns bookings (bookings and payments routes): the
// mapped booking with the refunds its viewer may see, fetched for the whole list in one query.
import type { Booking } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { findVisibleRefunds } from '../payments/payments.service';
import { toBooking } from './bookings.mapper';
import type { BookingRecord } from './bookings.repository';

export async function toBookingAnswers(ctx: AppContext, viewer: UserRow, records: readonly BookingRecord[]): Promise<Booking[]> {
  const refunds = await findVisibleRefunds(ctx, viewer, records);
  return records.map((record) => toBooking(record, refunds.get(record.id) ?? []));
}

export async function toBookingAnswer(ctx: AppContext, viewer: UserRow, record: BookingRecord): Promise<Booking> {
  const [booking] = await toBookingAnswers(ctx, viewer, [record]);
  return booking!;
}
