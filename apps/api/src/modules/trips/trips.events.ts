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

declare module '../../events/domain-events' {
  interface DomainEvents {
    'trip.recorded': { booking: TripBookingRef; stage: 'check_in' | 'check_out'; party: 'host' | 'renter' };
    'trip.dispute_opened': { booking: TripBookingRef; kind: string };
    'trip.dispute_resolved': { dispute: { id: string; booking_number: string; kind: string }; booking: TripBookingRef; note: string };
    'trip.records_read': { booking: { id: string; booking_number: string }; what: 'records' | 'photo' | 'comparison' };
  }
}

export type { TripBookingRef };
