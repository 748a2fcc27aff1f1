// What happens to payouts (events/domain-events.ts).
declare module '../../events/domain-events' {
  interface DomainEvents {
    'payout.updated': { bookingId: string; bookingNumber: string; before: Record<string, unknown>; after: Record<string, unknown> };
    /** A paid payout taken back by an administrator, with why; its host is told. */
    'payout.reversed': {
      bookingId: string;
      bookingNumber: string;
      hostId: string;
      amountCents: number;
      before: Record<string, unknown>;
      after: Record<string, unknown>;
      reason: string;
    };
  }
}

export {};
