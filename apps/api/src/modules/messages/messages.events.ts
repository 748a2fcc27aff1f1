// What happens in booking conversations (events/domain-events.ts).

declare module '../../events/domain-events' {
  interface DomainEvents {
    /** A participant wrote in a booking's conversation; the other participant may be told. */
    'message.posted': { bookingId: string; bookingNumber: string; senderId: string; senderName: string; recipientId: string };
    /** An administrator opened a booking's conversation (audited, with the reason they gave). */
    'conversation.read_by_admin': { bookingId: string; bookingNumber: string; reason: string; messages: number };
  }
}

export {};
