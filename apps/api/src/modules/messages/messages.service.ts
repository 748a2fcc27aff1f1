// Booking conversations (issue 21, decision 041): the renter and the host of a booking write to each
// other from the request onwards. Who may read: the two participants, and an administrator who
// gives a reason (audited each time). Who may write: the participants, until 30 days after the
// booking closed, at most MESSAGE_RATE_LIMIT messages a minute each. Contact details are stored as
// written and masked when shown until the booking is paid.
import {
  isAdmin,
  maskContactDetails,
  MASKING_REASON,
  MESSAGE_CLOSED_DAYS,
  MESSAGE_EMAIL_EVERY_MINUTES,
  MESSAGE_RATE_LIMIT,
  MESSAGE_RATE_WINDOW_SECONDS,
  type AdminMessageReport,
  type BookingMessage,
  type Conversation,
  type MessageReport,
  type MessageReportListQuery,
  type UnreadCounts,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { badRequest, conflict, notFound, tooMany } from '../../lib/app-error';
import { inTransaction, type EventOf, type Tx } from '../../events/domain-events';
import { findVisibleBooking, type BookingRecord } from '../bookings';
import { MY_BOOKINGS, notify, recordLiveEvent } from '../notifications';
import * as repo from './messages.repository';
import type { MessageRecord } from './messages.repository';

const DAY_MS = 86_400_000;
const CLOSED_STATUSES = new Set(['completed', 'cancelled', 'rejected']);
const MESSAGE_NOT_FOUND = 'Message not found';
const REPORT_NOT_FOUND = 'Report not found';
/** Where administrators find open reports: the admin panel's Bookings tab. */
const ADMIN_REPORTED_MESSAGES = '/admin?tab=bookings';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Participant = 'renter' | 'host';

function participantOf(viewer: UserRow, booking: BookingRecord): Participant | null {
  if (booking.renter_id === viewer.id) return 'renter';
  if (booking.owner_id === viewer.id) return 'host';
  return null;
}

/** The booking, when the viewer is one of its two participants; 404 for anyone else (admins included: they read through readConversation). */
async function loadAsParticipant(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<{ booking: BookingRecord; role: Participant }> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  const role = participantOf(viewer, booking);
  if (!role) throw notFound('Booking not found');
  return { booking, role };
}

/** When a closed booking closed: the moment of its last status change. */
function closedAt(booking: BookingRecord): Date | null {
  if (!CLOSED_STATUSES.has(booking.status)) return null;
  return booking.completed_at ?? booking.cancelled_at ?? booking.host_response_date ?? booking.updated_at;
}

/** Why nobody may write any more, or null while they may. */
function closedReason(booking: BookingRecord, now: Date): string | null {
  const closed = closedAt(booking);
  if (!closed || now.getTime() - new Date(closed).getTime() <= MESSAGE_CLOSED_DAYS * DAY_MS) return null;
  return `This booking closed more than ${MESSAGE_CLOSED_DAYS} days ago, so its conversation is read only.`;
}

const isPaid = (booking: BookingRecord) => booking.payment_status === 'paid';

function toMessage(row: MessageRecord, booking: BookingRecord, viewerId: string, unmasked: boolean): BookingMessage {
  const shown = unmasked ? { text: row.body, masked: false } : maskContactDetails(row.body);
  return {
    id: row.id,
    booking_id: row.booking_id,
    sender: { id: row.sender_id, username: row.sender_username, full_name: row.sender_full_name, role: row.sender_id === booking.owner_id ? 'host' : 'renter' },
    body: shown.text,
    masked: shown.masked,
    mine: row.sender_id === viewerId,
    created_at: new Date(row.created_at).toISOString(),
  };
}

async function conversationOf(ctx: AppContext, viewer: UserRow, booking: BookingRecord, adminView: boolean): Promise<Conversation> {
  const rows = await repo.listMessages(ctx.db, booking.id);
  // Administrators read what was written: a dispute is decided on the words as sent.
  const unmasked = adminView || isPaid(booking);
  const messages = rows.map((row) => toMessage(row, booking, viewer.id, unmasked));
  const unread = adminView ? 0 : ((await repo.unreadByBooking(ctx.db, viewer.id, booking.id))[0]?.unread ?? 0);
  const closed = closedReason(booking, ctx.clock.now());
  return {
    booking_id: booking.id,
    booking_number: booking.booking_number,
    messages,
    unread,
    can_post: !adminView && !closed,
    closed_reason: closed,
    masking_reason: unmasked ? null : MASKING_REASON,
    admin_view: adminView,
  };
}

/**
 * GET /booking/:id/messages. A participant reads their conversation. An administrator who is not a
 * participant must give a reason, and each reading writes an audit row (conversation.read_by_admin).
 */
export async function readConversation(ctx: AppContext, viewer: UserRow, bookingId: string, reason?: string): Promise<Conversation> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  if (participantOf(viewer, booking)) return conversationOf(ctx, viewer, booking, false);
  if (!isAdmin(viewer)) throw notFound('Booking not found');
  if (!reason) throw badRequest('Say why you are reading this conversation (a dispute or a report): the reading is audited.', { reason: 'A reason is required' });
  const conversation = await conversationOf(ctx, viewer, booking, true);
  await inTransaction(
    ctx,
    async (tx) => tx.emit({ type: 'conversation.read_by_admin', bookingId: booking.id, bookingNumber: booking.booking_number, reason, messages: conversation.messages.length }),
    { by: viewer },
  );
  return conversation;
}

/** POST /booking/:id/messages: a participant writes; 409 once closed for 30 days, 429 over the rate limit. */
export async function postMessage(ctx: AppContext, viewer: UserRow, bookingId: string, body: string): Promise<BookingMessage> {
  const { booking, role } = await loadAsParticipant(ctx, viewer, bookingId);
  const closed = closedReason(booking, ctx.clock.now());
  if (closed) throw conflict(closed);
  const id = await inTransaction(
    ctx,
    async (tx) => {
      await repo.lockSender(tx.db, viewer.id);
      const windowStart = new Date(tx.now.getTime() - MESSAGE_RATE_WINDOW_SECONDS * 1000);
      if ((await repo.countSentSince(tx.db, viewer.id, windowStart)) >= MESSAGE_RATE_LIMIT) {
        throw tooMany(`You can send at most ${MESSAGE_RATE_LIMIT} messages a minute. Wait a moment and try again.`);
      }
      const messageId = await repo.insertMessage(tx.db, { booking_id: booking.id, sender_id: viewer.id, body }, tx.now);
      // Writing reads everything before it.
      await repo.markRead(tx.db, booking.id, viewer.id);
      // Both participants' open streams (the sender's other devices too) fetch the conversation again.
      await recordLiveEvent(ctx, tx, [booking.renter_id, booking.owner_id], { kind: 'message', bookingId: booking.id });
      tx.emit({
        type: 'message.posted',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        senderId: viewer.id,
        senderName: viewer.full_name,
        recipientId: role === 'renter' ? booking.owner_id : booking.renter_id,
      });
      return messageId;
    },
    { by: viewer },
  );
  const row = (await repo.listMessages(ctx.db, booking.id)).find((m) => m.id === id)!;
  return toMessage(row, booking, viewer.id, isPaid(booking));
}

/** POST /booking/:id/messages/read: everything in the conversation so far is read by the viewer. */
export async function markConversationRead(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<void> {
  const { booking } = await loadAsParticipant(ctx, viewer, bookingId);
  await inTransaction(ctx, async (tx) => {
    // The other participant sees "Read"; the reader's other devices drop their unread badge.
    if (await repo.markRead(tx.db, booking.id, viewer.id)) {
      await recordLiveEvent(ctx, tx, [booking.renter_id, booking.owner_id], { kind: 'message_read', bookingId: booking.id });
    }
  });
}

/** GET /messages/unread: unread messages per booking and in all, for My Bookings and the bell. */
export async function unreadCounts(ctx: AppContext, viewer: UserRow): Promise<UnreadCounts> {
  const bookings = await repo.unreadByBooking(ctx.db, viewer.id);
  return { total: bookings.reduce((sum, b) => sum + b.unread, 0), bookings };
}

/** POST /messages/:id/report: a participant reports a message of their conversation (once each); every administrator is told. */
export async function reportMessage(ctx: AppContext, viewer: UserRow, messageId: string, reason: string): Promise<MessageReport> {
  if (!UUID.test(messageId)) throw notFound(MESSAGE_NOT_FOUND);
  const message = await repo.findMessage(ctx.db, messageId);
  if (!message) throw notFound(MESSAGE_NOT_FOUND);
  let booking: BookingRecord;
  try {
    ({ booking } = await loadAsParticipant(ctx, viewer, message.booking_id));
  } catch {
    throw notFound(MESSAGE_NOT_FOUND);
  }
  try {
    const row = await inTransaction(
      ctx,
      async (tx) => {
        const report = await repo.insertReport(tx.db, { message_id: message.id, reporter_id: viewer.id, reason }, tx.now);
        tx.emit({ type: 'message.reported', reportId: report.id, bookingId: booking.id, bookingNumber: booking.booking_number, reporterId: viewer.id, reporterUsername: viewer.username, reason });
        return report;
      },
      { by: viewer },
    );
    return { id: row.id, message_id: row.message_id, reason: row.reason, created_at: new Date(row.created_at).toISOString() };
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw conflict('You have already reported this message.');
    throw error;
  }
}

function toAdminReport(row: repo.ReportRecord): AdminMessageReport {
  return {
    id: row.id,
    booking_id: row.booking_id,
    booking_number: row.booking_number,
    reporter: { id: row.reporter_id, username: row.reporter_username },
    reason: row.reason,
    created_at: new Date(row.created_at).toISOString(),
    // Administrators investigate the words as written, so the body is never masked here.
    message: {
      id: row.message_id,
      sender: { id: row.sender_id, username: row.sender_username, full_name: row.sender_full_name },
      body: row.message_body,
      created_at: new Date(row.message_created_at).toISOString(),
      report_count: Number(row.report_count ?? 0),
    },
    resolved_at: row.resolved_at ? new Date(row.resolved_at).toISOString() : null,
    resolution_note: row.resolution_note,
  };
}

/** GET /admin/messages/reports: open reports, newest first, searched and paged on the server (admins). */
export async function listOpenReports(ctx: AppContext, query: MessageReportListQuery): Promise<{ reports: AdminMessageReport[]; total: number }> {
  const filters: repo.ReportFilters = query.search ? { search: query.search } : {};
  const [rows, total] = await Promise.all([
    repo.listOpenReports(ctx.db, filters, { limit: query.limit, offset: (query.page - 1) * query.limit }),
    repo.countOpenReports(ctx.db, filters),
  ]);
  return { reports: rows.map(toAdminReport), total };
}

/** POST /admin/messages/reports/:id/resolve: an administrator marks a report handled with a note, once (409 after); audited. */
export async function resolveReport(ctx: AppContext, admin: UserRow, reportId: string, note: string): Promise<AdminMessageReport> {
  const report = UUID.test(reportId) ? await repo.findReport(ctx.db, reportId) : undefined;
  if (!report) throw notFound(REPORT_NOT_FOUND);
  await inTransaction(
    ctx,
    async (tx) => {
      if (!(await repo.resolveReport(tx.db, report.id, admin.id, note, tx.now))) throw conflict('This report has already been handled.');
      tx.emit({ type: 'message.report_resolved', reportId: report.id, messageId: report.message_id, bookingId: report.booking_id, bookingNumber: report.booking_number, note });
    },
    { by: admin },
  );
  return toAdminReport((await repo.findReport(ctx.db, report.id))!);
}

/**
 * The other participant is told in the app and by email, at most once per conversation per
 * MESSAGE_EMAIL_EVERY_MINUTES (the unread badges say the rest). The notice carries no message text:
 * an email is not masked by the booking's later payment, so it never holds contact details.
 */
export async function messagePosted(tx: Tx, event: EventOf<'message.posted'>, ctx: AppContext): Promise<void> {
  const notSince = new Date(tx.now.getTime() - MESSAGE_EMAIL_EVERY_MINUTES * 60_000);
  if (!(await repo.claimEmail(tx.db, event.bookingId, event.recipientId, tx.now, notSince))) return;
  await notify(ctx, tx, event.recipientId, {
    type: 'message_received',
    title: `New message about booking ${event.bookingNumber}`,
    message: `${event.senderName} sent you a message about booking ${event.bookingNumber}. Open the booking to read it and reply.`,
    // My Bookings lists the host's requests beside their trips; the link opens this conversation.
    link: `${MY_BOOKINGS}?messages=${event.bookingId}`,
    booking: { id: event.bookingId },
  });
}

/**
 * Every administrator is told in the app (and by email when the settings' emailNotifications is
 * on: notify() does both). The notice names the booking and the reason, never the message text.
 */
export async function messageReported(tx: Tx, event: EventOf<'message.reported'>, ctx: AppContext): Promise<void> {
  for (const adminId of await repo.findAdminIds(tx.db)) {
    if (adminId === event.reporterId) continue;
    await notify(ctx, tx, adminId, {
      type: 'message_reported',
      title: `Message reported on booking ${event.bookingNumber}`,
      message: `${event.reporterUsername} reported a message in the conversation of booking ${event.bookingNumber}. Reason: ${event.reason}`,
      link: ADMIN_REPORTED_MESSAGES,
      booking: { id: event.bookingId },
    });
  }
}
