// What happens to payouts (events/domain-events.ts).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'payout.updated': { bookingId: string; bookingNumber: string; before: Record<string, unknown>; after: Record<string, unknown> };
  }
}

export {};
