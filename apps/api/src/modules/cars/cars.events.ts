// What happens to cars, in the words the rest of Karoo reacts to (events/domain-events.ts).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'car.changed': { car: CarRef; before?: Record<string, unknown>; after?: Record<string, unknown> };
    /**
     * A car is about to be taken off Karoo (dispatched: its subscribers act at once, in the removing
     * transaction). The bookings module refuses while a rental is under way (409, in the words of
     * `cause`) and cancels the car's unpaid bookings.
     */
    'car.removing': { car: CarRef; cause: CarRemovalCause };
    'car.removed': { car: CarRef; cancelledBookings: number };
    'car.verified': { car: CarRef; before: string };
    'car.rejected': { car: CarRef; notes: string; before: string };
    'car.registration_verified': { car: CarRef; before: RegistrationReview; after: RegistrationReview };
    'car.registration_rejected': { car: CarRef; notes: string | null; before: RegistrationReview; after: RegistrationReview };
  }
}

/** A car as events and notices name it. */
export interface CarRef {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  owner_id: string;
}

/** A registration document's review as the audit log records it before and after an admin's decision (decision 018). */
export interface RegistrationReview {
  registration_verified: boolean | null;
  registration_verification_notes: string | null;
}

/** Why a car leaves Karoo: its owner deleted it, or the owner's account is being closed. */
export type CarRemovalCause = 'car_deleted' | 'owner_closed';
