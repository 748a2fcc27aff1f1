// What happens to money taken by card (events/domain-events.ts).
import type { CancellationActor, CancellationOutcome } from '@karoo/shared';
import type { BookingRecord } from '../bookings';
import type { LedgerEntry } from '../ledger';

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
  }
}

export {};
