// The booking answers of every route that returns bookings (bookings and payments routes): the
// mapped booking with the refunds and money its viewer may see, fetched for the whole list in one
// query of the ledger. Those are the payments module's views and payments sits above bookings, so
// the bookings module declares what it needs (`LedgerOf`) and the app passes the payments module's
// function in when it registers the routes (app.ts): the dependency is explicit and points one way.
import type { Booking } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { toBooking } from './bookings.mapper';
import type { BookingRecord } from './bookings.repository';

/** One refund of a booking (a ledger row), as bookings.mapper turns it into the answer's `refunds`. */
export interface BookingRefundRecord {
  id: string;
  reference: string;
  amount_cents: number;
  status: 'pending' | 'refunded' | 'failed';
  reason: string;
  of: 'trip' | 'deposit';
  requested_at: Date;
  refunded_at: Date | null;
  last_error?: string;
}

/** A booking's ledger sums as its viewer may see them (null: not theirs to see). */
export interface BookingMoneyView {
  charged_cents: number | null;
  refunded_cents: number | null;
  refund_pending_cents: number | null;
  cancellation_fee_cents: number | null;
  host_share_cents: number | null;
  host_penalty_cents: number | null;
}

/** What a booking's answer shows of its money: its refunds and its ledger sums, as the viewer may see them. */
export interface BookingLedgerView {
  refunds: BookingRefundRecord[];
  money: BookingMoneyView;
}

/** The ledger views of each booking the viewer may see, by booking id, for a whole list in one query (the payments module's findVisibleLedger). */
export type LedgerOf = (
  ctx: AppContext,
  viewer: UserRow,
  bookings: readonly Pick<BookingRecord, 'id' | 'renter_id' | 'owner_id'>[],
) => Promise<Map<string, BookingLedgerView>>;

export interface BookingAnswers {
  toBookingAnswers(ctx: AppContext, viewer: UserRow, records: readonly BookingRecord[]): Promise<Booking[]>;
  toBookingAnswer(ctx: AppContext, viewer: UserRow, record: BookingRecord): Promise<Booking>;
}

export function createBookingAnswers(ledgerOf: LedgerOf): BookingAnswers {
  const toBookingAnswers = async (ctx: AppContext, viewer: UserRow, records: readonly BookingRecord[]) => {
    const views = await ledgerOf(ctx, viewer, records);
    return records.map((record) => toBooking(record, views.get(record.id)?.refunds ?? [], views.get(record.id)?.money ?? null, viewer));
  };
  return {
    toBookingAnswers,
    toBookingAnswer: async (ctx, viewer, record) => (await toBookingAnswers(ctx, viewer, [record]))[0]!,
  };
}
