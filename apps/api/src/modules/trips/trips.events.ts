// What happens to trip records (events/domain-events.ts): the audit log records an admin's
// resolution of a dispute and an admin's reading of a booking's records (decisions.md section 12).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'trip.dispute_resolved': { dispute: { id: string; booking_number: string; kind: string }; note: string };
    'trip.records_read': { booking: { id: string; booking_number: string }; what: 'records' | 'photo' | 'comparison' };
  }
}

export {};
