// What happens to trip records (events/domain-events.ts): the other party hears of a record and of
// a dispute, both hear of its resolution; the audit log records an admin's resolution and an
// admin's reading of a booking's records (decisions.md section 12).
interface TripBookingRef {
  id: string;
  booking_number: string;
  renter_id: string;
  owner_id: string;
  car_make: string;
  car_model: string;
}

/** A claim of trip charges, as its events carry it (decision 065). */
interface TripClaimRef {
  id: string;
  booking_id: string;
  booking_number: string;
  renter_id: string;
  owner_id: string;
  amount_cents: number;
  answer_due_at: Date;
}

declare module '../../events/domain-events' {
  interface DomainEvents {
    'trip.claim_filed': { claim: TripClaimRef };
    'trip.claim_disputed': { claim: TripClaimRef };
    /** Paid (from the deposit, the card, or owed when the card was declined): accepted, unanswered in time, or decided by an admin (audited). */
    'trip.claim_settled': { claim: TripClaimRef; fromDepositCents: number; cardCents: number; owedCents: number; cardError: string | null; how: 'accepted' | 'unanswered' | 'decided'; reason?: string };
    'trip.recorded': { booking: TripBookingRef; stage: 'check_in' | 'check_out'; party: 'host' | 'renter' };
    'trip.dispute_opened': { booking: TripBookingRef; kind: string };
    'trip.dispute_resolved': { dispute: { id: string; booking_number: string; kind: string }; booking: TripBookingRef; note: string };
    'trip.records_read': { booking: { id: string; booking_number: string }; what: 'records' | 'photo' | 'comparison' };
  }
}

export type { TripBookingRef, TripClaimRef };
