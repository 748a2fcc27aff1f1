// What happens to reviews (events/domain-events.ts).
import type { CarRef } from '../cars';

declare module '../../events/domain-events' {
  interface DomainEvents {
    'review.created': { car: CarRef; reviewerName: string; rating: number; comment: string };
    'review.changed': { carId: string };
  }
}

export {};
