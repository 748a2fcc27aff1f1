// What happens to money taken by card (events/domain-events.ts).
import type { BookingRecord } from '../bookings';

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** A successful charge that cannot stay on its booking is being refunded in full. */
    'payment.refund_due': { booking: BookingRecord; reference: string; amountCents: number; reason: string };
  }
}

export {};
