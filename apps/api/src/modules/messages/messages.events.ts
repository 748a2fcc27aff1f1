// What happens in booking conversations (events/domain-events.ts).

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** A participant wrote in a booking's conversation; the other participant may be told. */
    'message.posted': { bookingId: string; bookingNumber: string; senderId: string; senderName: string; recipientId: string };
    /** An administrator opened a booking's conversation (audited, with the reason they gave). */
    'conversation.read_by_admin': { bookingId: string; bookingNumber: string; reason: string; messages: number };
    /** A participant reported a message; every administrator is told. */
    'message.reported': { reportId: string; bookingId: string; bookingNumber: string; reporterId: string; reporterUsername: string; reason: string };
    /** An administrator marked a report handled, with a note (audited). */
    'message.report_resolved': { reportId: string; messageId: string; bookingId: string; bookingNumber: string; note: string };
  }
}

export {};
