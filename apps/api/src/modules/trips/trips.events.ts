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

/** A traffic fine, as its events carry it (decision 066): no particulars of the renter. */
interface TrafficFineRef {
  id: string;
  car_id: string;
  host_id: string;
  booking_id: string | null;
  booking_number: string | null;
  renter_id: string | null;
  notice_number: string;
  amount_cents: number;
  nominate_by: string;
  car_name: string;
}

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** Entered by the host or an admin (audited whoever acts); the renter of the trip it fell in is told. */
    'trip.fine_recorded': { fine: TrafficFineRef };
    /** A nomination PDF made with the renter's particulars (audited whoever acts: POPIA). */
    'trip.fine_nomination_issued': { fine: TrafficFineRef; fields: string[] };
    'trip.fine_status_changed': { fine: TrafficFineRef; before: string; after: string; note: string | null; byRenter: boolean };
    /** The host reminded that the nomination deadline is near (the traffic-fines.remind job). */
    'trip.fine_deadline_near': { fine: TrafficFineRef; daysLeft: number };
    'trip.claim_filed': { claim: TripClaimRef };
    'trip.claim_disputed': { claim: TripClaimRef };
    /** Paid (from the deposit, the card, or owed when the card was declined): accepted, unanswered in time, or decided by an admin (audited). */
    'trip.claim_settled': { claim: TripClaimRef; fromDepositCents: number; cardCents: number; owedCents: number; cardError: string | null; how: 'accepted' | 'unanswered' | 'decided'; reason?: string };
    /** What a declined card left owed, paid later through the claim's payment link (decision 073). */
    'trip.claim_paid': { claim: TripClaimRef; cardCents: number; reference: string };
    'trip.recorded': { booking: TripBookingRef; stage: 'check_in' | 'check_out'; party: 'host' | 'renter' };
    'trip.dispute_opened': { booking: TripBookingRef; kind: string };
    'trip.dispute_resolved': { dispute: { id: string; booking_number: string; kind: string }; booking: TripBookingRef; note: string };
    'trip.records_read': { booking: { id: string; booking_number: string }; what: 'records' | 'photo' | 'comparison' };
  }
}

export type { TrafficFineRef, TripBookingRef, TripClaimRef };
