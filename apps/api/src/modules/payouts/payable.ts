// When a host's share is payable (issue 35; decisions 065 and 068): the one place that says so. A
// final trip (completed, or cancelled with a share kept for its host) is payable once its claim
// window has closed with no claim open (issue 34: the host's trip charges, `trip_claims`), and not
// before `payout_delay_hours` (a setting) after it became final. The window is counted from the
// check-out as the trip charges count it (decision 065: the host's check-out record, else the
// renter's, else the return), so the delay runs from the later of the return and that record: a
// check-out recorded after the return (allowed for 24 hours) opens the window later, and paying at
// the return's 72 hours would mark the trip paid while a claim could still be filed, whose shares
// no run would then pay. A claim still awaiting the renter's answer or disputed holds the trip's
// share until it is settled, so what the claim moves is paid with it.
import { sql } from 'kysely';
import type { PlatformSettings } from '@karoo/shared';
import type { Db } from '../../db/connection';

/** Hours after a trip is final before its share may be paid: the payout delay, and never inside the claim window. */
export function payableAfterHours(settings: Pick<PlatformSettings, 'payout_delay_hours' | 'trip_charges'>): number {
  return Math.max(settings.payout_delay_hours, settings.trip_charges.claim_window_hours);
}

export interface PayableTrip {
  bookingId: string;
  bookingNumber: string;
  hostId: string;
  renterId: string;
  carName: string;
  /** The host's share of the trip (its host_earning rows). */
  shareCents: number;
  /** Already paid of it, or being paid (payouts, less reversals). */
  paidCents: number;
  finalAt: Date;
  payableFrom: Date;
}

/**
 * The final trips of these hosts (all hosts without a list) not marked paid, with a share not yet
 * paid: those payable at `now` and those that will be (payableFrom later than now).
 */
export async function unpaidFinalTrips(db: Db, hostIds: readonly string[] | null, now: Date, delayHours: number): Promise<{ payable: PayableTrip[]; upcoming: PayableTrip[] }> {
  let query = db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .select(['b.id', 'b.booking_number', 'b.owner_id', 'b.renter_id', 'c.car_make', 'c.car_model'])
    .select(sql<Date>`coalesce(b.completed_at, b.cancelled_at, b.updated_at)`.as('final_at'))
    .select(
      sql<Date | null>`(SELECT r.created_at FROM trip_records r WHERE r.booking_id = b.id AND r.stage = 'check_out'
        ORDER BY CASE WHEN r.party = 'host' THEN 0 ELSE 1 END, r.created_at LIMIT 1)`.as('checked_out_at'),
    )
    .select(sql<boolean>`EXISTS (SELECT 1 FROM trip_claims tc WHERE tc.booking_id = b.id AND tc.status IN ('awaiting_renter', 'disputed'))`.as('claim_open'))
    .select(sql<string>`(SELECT coalesce(sum(l.amount_cents), 0) FROM ledger_entries l WHERE l.booking_id = b.id AND l.kind = 'host_earning')`.as('share'))
    .select(
      sql<string>`(SELECT coalesce(sum(CASE WHEN l.kind = 'payout' THEN l.amount_cents ELSE -l.amount_cents END), 0) FROM ledger_entries l
        WHERE l.booking_id = b.id AND l.kind IN ('payout', 'payout_reversal') AND (l.state = 'succeeded' OR (l.kind = 'payout' AND l.state = 'pending')))`.as('paid'),
    )
    .where('b.status', 'in', ['completed', 'cancelled'])
    .where('b.payout_status', '=', 'pending');
  if (hostIds) {
    if (hostIds.length === 0) return { payable: [], upcoming: [] };
    query = query.where('b.owner_id', 'in', [...hostIds]);
  }
  const rows = await query.orderBy('final_at').orderBy('b.id').execute();
  const payable: PayableTrip[] = [];
  const upcoming: PayableTrip[] = [];
  for (const r of rows) {
    const shareCents = Number(r.share);
    const paidCents = Number(r.paid);
    if (shareCents - paidCents <= 0) continue;
    const finalAt = new Date(r.final_at);
    const checkedOutAt = r.checked_out_at === null ? null : new Date(r.checked_out_at);
    const from = checkedOutAt && checkedOutAt.getTime() > finalAt.getTime() ? checkedOutAt : finalAt;
    const trip: PayableTrip = {
      bookingId: r.id,
      bookingNumber: r.booking_number,
      hostId: r.owner_id,
      renterId: r.renter_id,
      carName: `${r.car_make} ${r.car_model}`,
      shareCents,
      paidCents,
      finalAt,
      payableFrom: new Date(from.getTime() + delayHours * 3_600_000),
    };
    (trip.payableFrom.getTime() <= now.getTime() && !r.claim_open ? payable : upcoming).push(trip);
  }
  return { payable, upcoming };
}
