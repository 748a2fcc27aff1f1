// What happens to money taken by card (events/domain-events.ts).
import type { CancellationActor, CancellationOutcome } from '@karoo/shared';
import type { BookingRecord } from '../bookings';
import type { LedgerEntry } from '../ledger';
import type { TripChangesTable } from './trip-changes.tables';
import type { Selectable } from 'kysely';

type TripChangeRow = Selectable<TripChangesTable>;

/** A request to waive a cancellation fee (CPA s. 17; decision 067), without its grounds or evidence. */
interface FeeWaiverRef {
  id: string;
  booking_id: string;
  booking_number: string;
  renter_id: string;
  owner_id: string;
  fee_cents: number;
}

declare module '../../events/domain-events' {
  interface DomainEvents {
    'payment.fee_waiver_requested': { waiver: FeeWaiverRef };
    /** An administrator's decision (audited); approved, the fee is refunded on the queue. */
    'payment.fee_waiver_decided': { waiver: FeeWaiverRef; decision: 'approve' | 'decline'; reason: string };
    /** A successful charge that cannot stay on its booking is being refunded in full. */
    'payment.refund_due': { booking: BookingRecord; reference: string; amountCents: number; reason: string };
    /** The provider accepted a refund: the money is on its way back to the renter's card. */
    'payment.refunded': { bookingId: string; renterId: string; amountCents: number; reason: string | null };
    /** An administrator asked again for a refund that had failed. */
    'payment.refund_retried': { failed: LedgerEntry; retry: LedgerEntry };
    /** A paid trip was cancelled by the policy: who, and what each side gets back or pays. */
    'trip.cancelled': { booking: BookingRecord; actor: CancellationActor; noShow: boolean; outcome: CancellationOutcome; reason: string };
    /** The renter asked to change a paid trip's times (decision 081); the host is asked to answer. */
    'trip.change_requested': { booking: BookingRecord; change: TripChangeRow };
    /** Accepted (by the host, an administrator, or instant booking): the trip has its new times and price. */
    'trip.change_accepted': { booking: BookingRecord; change: TripChangeRow; instant: boolean };
    /** Ended without changing the trip: declined, withdrawn, lapsed or failed. */
    'trip.change_ended': { booking: BookingRecord; change: TripChangeRow };
  }
}

export {};
