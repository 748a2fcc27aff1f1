// The booking answers of every route that returns bookings (bookings and payments routes): the
// mapped booking with the refunds its viewer may see, fetched for the whole list in one query.
// Refunds are the payments module's records and payments sits above bookings, so the bookings
// module declares what it needs (`RefundsOf`) and the app passes the payments module's function in
// when it registers the routes (app.ts): the dependency is explicit and points one way.
import type { Booking } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { PaymentRefundStatus, UserRow } from '../../db/schema';
import { toBooking } from './bookings.mapper';
import type { BookingRecord } from './bookings.repository';

/** One refunded charge of a booking, as bookings.mapper turns it into the answer's `refunds`. */
export interface BookingRefundRecord {
  reference: string;
  amount_cents: number;
  status: PaymentRefundStatus;
  reason: string;
  requested_at: Date;
  refunded_at: Date | null;
}

/** The refunds of each booking the viewer may see, by booking id (the payments module's findVisibleRefunds). */
export type RefundsOf = (
  ctx: AppContext,
  viewer: UserRow,
  bookings: readonly Pick<BookingRecord, 'id' | 'renter_id'>[],
) => Promise<Map<string, BookingRefundRecord[]>>;

export interface BookingAnswers {
  toBookingAnswers(ctx: AppContext, viewer: UserRow, records: readonly BookingRecord[]): Promise<Booking[]>;
  toBookingAnswer(ctx: AppContext, viewer: UserRow, record: BookingRecord): Promise<Booking>;
}

export function createBookingAnswers(refundsOf: RefundsOf): BookingAnswers {
  const toBookingAnswers = async (ctx: AppContext, viewer: UserRow, records: readonly BookingRecord[]) => {
    const refunds = await refundsOf(ctx, viewer, records);
    return records.map((record) => toBooking(record, refunds.get(record.id) ?? []));
  };
  return {
    toBookingAnswers,
    toBookingAnswer: async (ctx, viewer, record) => (await toBookingAnswers(ctx, viewer, [record]))[0]!,
  };
}
