// Booking messages (issue 21, decision 041): one conversation per booking between its renter and its
// host. The limits and the masking rule live here once: the server enforces them, the web shows them.
import { z } from './zod';
import { safeText } from './text';

/** The longest message, in characters: a few paragraphs, not a document. */
export const MESSAGE_MAX_LENGTH = 2000;
/** A sender may post at most this many messages per window (counted in the database, so across instances). */
export const MESSAGE_RATE_LIMIT = 10;
export const MESSAGE_RATE_WINDOW_SECONDS = 60;
/** Days after a booking closes (completed, cancelled or rejected) during which the two may still write. */
export const MESSAGE_CLOSED_DAYS = 30;
/** The other participant is emailed at most once per conversation per this many minutes. */
export const MESSAGE_EMAIL_EVERY_MINUTES = 15;
// How often the web polls is in message-polling.ts, which imports no zod, so the navigation bell
// (in the landing page's bundle) reads it without pulling zod in (npm run size).

/** Why contact details are hidden, shown beside a masked conversation. */
export const MASKING_REASON =
  'Phone numbers and email addresses are hidden until the booking is paid, so that nobody is talked into paying outside Karoo, where the booking is not protected.';
// The masking itself (normalised before matching, masked in the text as typed): contact-masking.ts.
export { EMAIL_HIDDEN, maskContactDetails, PHONE_HIDDEN } from './contact-masking';

export const messageBodySchema = z.object({
  body: safeText('Message', { multiline: true })
    .min(1, 'Write a message first')
    .max(MESSAGE_MAX_LENGTH, `A message is at most ${MESSAGE_MAX_LENGTH} characters`),
});
export type MessageBody = z.infer<typeof messageBodySchema>;

export const messageReportBodySchema = z.object({
  reason: safeText('Reason', { multiline: true }).min(3, 'Say briefly what is wrong with this message').max(500, 'A reason is at most 500 characters'),
});

/** An administrator opens a conversation only for a stated reason (a dispute, a report); it is audited. */
export const adminConversationQuerySchema = z.object({
  reason: safeText('Reason').max(300, 'A reason is at most 300 characters').optional(),
});

export const bookingMessageSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  sender: z.object({ id: z.string(), username: z.string(), full_name: z.string(), role: z.enum(['renter', 'host']) }),
  body: z.string(),
  /** True when contact details in the body are hidden (the booking is not paid yet). */
  masked: z.boolean(),
  mine: z.boolean(),
  created_at: z.string(),
});
export type BookingMessage = z.infer<typeof bookingMessageSchema>;

export const conversationSchema = z.object({
  booking_id: z.string(),
  booking_number: z.string(),
  messages: z.array(bookingMessageSchema),
  unread: z.number().int(),
  /** Whether the viewer may write now, and why not when they may not. */
  can_post: z.boolean(),
  closed_reason: z.string().nullable(),
  /** Set while contact details are hidden. */
  masking_reason: z.string().nullable(),
  /** The viewer is an administrator reading someone else's conversation (read only). */
  admin_view: z.boolean(),
});
export type Conversation = z.infer<typeof conversationSchema>;

export const unreadCountsSchema = z.object({
  total: z.number().int(),
  bookings: z.array(z.object({ booking_id: z.string(), unread: z.number().int() })),
});
export type UnreadCounts = z.infer<typeof unreadCountsSchema>;

export const messageReportSchema = z.object({ id: z.string(), message_id: z.string(), reason: z.string(), created_at: z.string() });
export type MessageReport = z.infer<typeof messageReportSchema>;

// ---- Reported messages, for administrators (GET /api/admin/messages/reports, resolve with a note) ----
/** Open reports per page of the admin's Reported messages panel. */
export const MESSAGE_REPORTS_PAGE_SIZE = 20;

export const messageReportListQuerySchema = z.object({
  /** A booking number, or (part of) the reporter's or the sender's username. */
  search: safeText('Search').max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(MESSAGE_REPORTS_PAGE_SIZE),
});
export type MessageReportListQuery = z.infer<typeof messageReportListQuerySchema>;

/** An open report as an administrator investigates it: the message is shown as written (unmasked). */
export const adminMessageReportSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  reporter: z.object({ id: z.string(), username: z.string() }),
  reason: z.string(),
  created_at: z.string(),
  message: z.object({
    id: z.string(),
    sender: z.object({ id: z.string(), username: z.string(), full_name: z.string() }),
    body: z.string(),
    created_at: z.string(),
    /** Every report of this message, open or handled, this one included. */
    report_count: z.number().int(),
  }),
  resolved_at: z.string().nullable(),
  resolution_note: z.string().nullable(),
});
export type AdminMessageReport = z.infer<typeof adminMessageReportSchema>;

export const resolveMessageReportBodySchema = z.object({
  note: safeText('Note', { multiline: true }).min(3, 'Say how the report was handled').max(1000, 'A note is at most 1000 characters'),
});
export type ResolveMessageReportBody = z.infer<typeof resolveMessageReportBodySchema>;
