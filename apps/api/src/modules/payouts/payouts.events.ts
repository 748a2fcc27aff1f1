// What happens to payouts (events/domain-events.ts; decision 068).
declare module '../../events/domain-events' {
  interface DomainEvents {
    /** A host saved a new bank account for payouts (not the first): they are told by email, and payouts wait. */
    'payout.account_changed': { hostId: string; bankName: string; last4: string; holdUntil: Date | null };
    /** A transfer failed or was reversed by the bank: its money is owed again; the host is told. */
    'payout.transfer_returned': { hostId: string; transferId: string; reference: string; amountCents: number; state: 'failed' | 'reversed'; reason: string };
    /** A transfer was paid into the host's account. */
    'payout.transfer_paid': { hostId: string; transferId: string; reference: string; amountCents: number; bankName: string; last4: string };
    /** An administrator paused or resumed one host's payouts, with why (audited). */
    'payout.host_paused': { hostId: string; hostUsername: string; paused: boolean; reason: string | null };
    /** An administrator sent a failed or reversed transfer's money again (audited). */
    'payout.transfer_retried': { transferId: string; reference: string; hostUsername: string; newReference: string | null; amountCents: number };
    /** An administrator gave Paystack the OTP of a transfer (audited). */
    'payout.transfer_finalized': { transferId: string; reference: string; hostUsername: string };
  }
}

export {};
