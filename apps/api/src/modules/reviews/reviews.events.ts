// What happens to reviews (events/domain-events.ts).
import type { CarRef } from '../cars';

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** Kept for the cars module's subscription; reviews are now announced by 'review.written' (decision 043). */
    'review.created': { car: CarRef; reviewerName: string; rating: number; comment: string };
    /** A car's shown reviews changed (revealed, edited or deleted): its rating moved. */
    'review.changed': { carId: string };
    /** One side reviewed a booking; the other is told they can review too. */
    'review.written': { bookingId: string; toUserId: string; authorName: string; direction: 'car' | 'renter'; windowEndsAt: Date };
    /** A booking's reviews were shown: both in, or the window ended. */
    'review.revealed': { bookingId: string; userIds: string[] };
  }
}

export {};
