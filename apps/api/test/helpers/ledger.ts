// The ledger rows of bookings the tests write straight to the tables (paid, active or completed,
// without a payment through the API): the charge that paid the trip and how it is shared, as the
// payments module writes them when a charge settles (ledger.recordTripCharge). Money screens sum
// the ledger, so a paid booking without these rows earns nothing on them.
import type { AppContext } from '../../src/context';
import type { BookingRow } from '../../src/db/schema';
import * as ledger from '../../src/modules/ledger';

type PaidBooking = Pick<
  BookingRow,
  'id' | 'renter_id' | 'owner_id' | 'payment_reference' | 'paid_at' | 'created_at' | 'total_price_cents' | 'service_fee_cents' | 'insurance_fee_cents' | 'car_owner_earnings_cents'
>;

/** Records the trip charge of `booking`, moved at `at` (default: its paid_at, else its creation). */
export async function recordTestCharge(ctx: AppContext, booking: PaidBooking, at?: Date | string): Promise<void> {
  await ledger.recordTripCharge(
    ctx.db,
    { bookingId: booking.id, renterId: booking.renter_id, hostId: booking.owner_id },
    {
      reference: booking.payment_reference,
      at: new Date(at ?? booking.paid_at ?? booking.created_at),
      breakdown: {
        totalCents: booking.total_price_cents,
        serviceFeeCents: booking.service_fee_cents,
        insuranceFeeCents: booking.insurance_fee_cents,
        hostEarningsCents: booking.car_owner_earnings_cents,
      },
    },
  );
}

/** Records the trip charges of bookings read back from the table by id (each at its paid_at, else its creation). */
export async function recordTestCharges(ctx: AppContext, bookingIds: readonly string[]): Promise<void> {
  if (bookingIds.length === 0) return;
  const rows = await ctx.db.selectFrom('bookings').selectAll().where('id', 'in', [...bookingIds]).execute();
  for (const row of rows) await recordTestCharge(ctx, row);
}

/** How a test cancels a paid trip: the fee kept and its split, the penalty, who cancelled. */
export interface TestCancellation {
  at: Date | string;
  cause: 'renter' | 'host' | 'admin';
  feeHostCents?: number;
  feePlatformCents?: number;
  penaltyCents?: number;
  /** When the provider accepts the refund (default: at once); null leaves it pending. */
  refundedAt?: Date | string | null;
}

/**
 * Cancels a paid trip as the cancel route does: the booking cancelled, its shares taken back, the
 * fee (if any) shared, a host's penalty, and the rest refunded (accepted at `refundedAt`).
 */
export async function cancelTestTrip(ctx: AppContext, booking: PaidBooking, c: TestCancellation): Promise<void> {
  const at = new Date(c.at);
  const feeHostCents = c.feeHostCents ?? 0;
  const feePlatformCents = c.feePlatformCents ?? 0;
  await ctx.db.updateTable('bookings').set({ status: 'cancelled', cancelled_at: at, cancel_cause: c.cause, updated_at: at }).where('id', '=', booking.id).execute();
  const { refund } = await ledger.recordCancellation(ctx.db, { bookingId: booking.id, renterId: booking.renter_id, hostId: booking.owner_id }, at, {
    chargeReference: booking.payment_reference,
    refundCents: booking.total_price_cents - feeHostCents - feePlatformCents,
    refundCode: `cancelled_${c.cause}`,
    refundReason: 'Refund of your cancelled trip.',
    shares: await ledger.sharesOfBooking(ctx.db, booking.id),
    feeHostCents,
    feePlatformCents,
    penaltyCents: c.penaltyCents ?? 0,
    penaltyCode: 'host_cancelled_early',
    actorId: null,
  });
  const refundedAt = c.refundedAt === undefined ? at : c.refundedAt;
  if (refund && refundedAt !== null) await ledger.settleRefund(ctx.db, refund.id, { providerReference: `TEST-REFUND-${booking.id}`, at: new Date(refundedAt) });
}
