// The audit log (issue 10): nothing an administrator does is invisible. Every domain event raised
// by an administrator's unit of work (events/domain-events.ts, Tx.by) becomes one row, written in
// the same transaction as the change: who, when, what, the object, and the values before and after.
// Changes by users themselves, payments and the system are not admin actions and write nothing.
import type { AuditEntry, AuditListQuery } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { AuditLogTable } from '../../db/schema';
import type { DomainEvent, Tx } from '../../events/domain-events';
import * as repo from './audit.repository';

type Entry = Pick<AuditLogTable, 'action' | 'target_type'> & {
  target_id: string | null;
  target_label: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
};

/** What an event records, or null for events that are not an administrator's decision. */
function entryFor(event: DomainEvent): Entry | null {
  switch (event.type) {
    case 'user.verified':
    case 'user.rejected':
      return {
        action: event.type,
        target_type: 'user',
        target_id: event.user.id,
        target_label: event.user.username,
        before: { verification_status: event.before },
        after: { verification_status: event.type === 'user.verified' ? 'verified' : 'rejected' },
        reason: event.type === 'user.rejected' ? event.notes : null,
      };
    case 'user.created':
      return { action: event.type, target_type: 'user', target_id: event.user.id, target_label: event.user.username, after: event.after };
    case 'user.updated':
      return { action: event.type, target_type: 'user', target_id: event.user.id, target_label: event.user.username, before: event.before, after: event.after };
    case 'user.document_viewed':
      // Reading someone's identity documents is an action too; the person sees it by role and date (decision 049).
      return { action: event.type, target_type: 'user', target_id: event.user.id, target_label: event.user.username, after: { document: event.document } };
    case 'privacy.correction_decided':
      return {
        action: event.type,
        target_type: 'user',
        target_id: event.user.id,
        target_label: event.user.username,
        before: { request: event.requestId, field: event.field, status: 'open' },
        after: { request: event.requestId, field: event.field, status: event.decision === 'approve' ? 'approved' : 'declined' },
        reason: event.note,
      };
    case 'user.deleted':
      return { action: event.type, target_type: 'user', target_id: event.user.id, target_label: event.user.username, before: event.before };
    case 'car.verified':
    case 'car.rejected':
      return {
        action: event.type,
        target_type: 'car',
        target_id: event.car.id,
        target_label: event.car.car_username,
        before: { verification_status: event.before },
        after: { verification_status: event.type === 'car.verified' ? 'verified' : 'rejected' },
        reason: event.type === 'car.rejected' ? event.notes : null,
      };
    case 'car.registration_verified':
    case 'car.registration_rejected':
      return {
        action: event.type,
        target_type: 'car',
        target_id: event.car.id,
        target_label: event.car.car_username,
        before: { ...event.before },
        after: { ...event.after },
        reason: event.type === 'car.registration_rejected' ? event.notes : null,
      };
    case 'car.changed':
      return event.after ? { action: 'car.updated', target_type: 'car', target_id: event.car.id, target_label: event.car.car_username, before: event.before ?? null, after: event.after } : null;
    case 'car.removed':
      return { action: event.type, target_type: 'car', target_id: event.car.id, target_label: event.car.car_username, after: { cancelled_bookings: event.cancelledBookings } };
    case 'car.force_returned':
      // Each booking it ended, named, with its state before and after.
      return {
        action: event.type,
        target_type: 'car',
        target_id: event.car.id,
        target_label: event.car.car_username,
        before: { bookings: event.bookings.map((b) => ({ id: b.id, booking_number: b.booking_number, ...b.before })) },
        after: { affected_bookings: event.bookings.length, bookings: event.bookings.map((b) => ({ id: b.id, booking_number: b.booking_number, ...b.after })) },
        reason: event.reason,
      };
    case 'booking.cancelled':
      // A paid trip's cancellation is recorded once, with its money (trip.cancelled below).
      if (event.booking.payment_status === 'paid') return null;
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.booking.id,
        target_label: event.booking.booking_number,
        after: { status: event.booking.status },
        reason: event.booking.host_response,
      };
    case 'trip.cancelled':
      return {
        action: 'booking.cancelled',
        target_type: 'booking',
        target_id: event.booking.id,
        target_label: event.booking.booking_number,
        before: { status: 'active', paid_cents: event.booking.total_price_cents },
        after: {
          status: 'cancelled',
          rule: event.outcome.rule,
          refund_cents: event.outcome.refundCents,
          fee_cents: event.outcome.feeCents,
          host_share_cents: event.outcome.hostShareCents,
          host_penalty_cents: event.outcome.hostPenaltyCents,
        },
        reason: event.reason,
      };
    case 'payment.refund_retried':
      return {
        action: event.type,
        target_type: 'refund',
        target_id: event.retry.id,
        target_label: `${event.failed.amount_cents / 100} rand to the renter`,
        before: { refund: event.failed.id, state: event.failed.state, last_error: event.failed.last_error },
        after: { refund: event.retry.id, state: event.retry.state },
      };
    case 'booking.confirmed':
    case 'booking.rejected':
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.booking.id,
        target_label: event.booking.booking_number,
        after: { status: event.booking.status },
        reason: event.booking.host_response,
      };
    case 'settings.changed':
      return { action: event.type, target_type: 'settings', target_id: null, target_label: 'Platform settings', before: event.before, after: event.after };
    case 'payout.updated':
      return { action: event.type, target_type: 'payout', target_id: event.bookingId, target_label: event.bookingNumber, before: event.before, after: event.after };
    case 'payout.host_paused':
      return { action: event.type, target_type: 'user', target_id: event.hostId, target_label: event.hostUsername, after: { payouts_paused: event.paused }, reason: event.reason };
    case 'payout.transfer_retried':
      return { action: event.type, target_type: 'payout', target_id: event.transferId, target_label: event.reference, after: { reference: event.newReference, amount: event.amountCents / 100, host: event.hostUsername } };
    case 'payout.transfer_finalized':
      return { action: event.type, target_type: 'payout', target_id: event.transferId, target_label: event.reference, after: { host: event.hostUsername } };
    case 'payout.reversed':
      return { action: event.type, target_type: 'payout', target_id: event.bookingId, target_label: event.bookingNumber, before: event.before, after: event.after, reason: event.reason };
    case 'conversation.read_by_admin':
      // Reading is an action too: trip records are private to the two parties (decisions.md section 12).
      return { action: event.type, target_type: 'booking', target_id: event.bookingId, target_label: event.bookingNumber, after: { messages: event.messages }, reason: event.reason };
    case 'message.report_resolved':
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.bookingId,
        target_label: event.bookingNumber,
        before: { report: event.reportId, message: event.messageId, status: 'open' },
        after: { report: event.reportId, message: event.messageId, status: 'resolved' },
        reason: event.note,
      };
    case 'trip.dispute_resolved':
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.dispute.id,
        target_label: event.dispute.booking_number,
        before: { status: 'open', kind: event.dispute.kind },
        after: { status: 'resolved' },
        reason: event.note,
      };
    case 'trip.claim_settled':
      // Only an admin's decision of a disputed claim is an admin action (the renter's answer is not).
      if (event.how !== 'decided') return null;
      return {
        action: 'trip.claim_decided',
        target_type: 'booking',
        target_id: event.claim.booking_id,
        target_label: event.claim.booking_number,
        before: { status: 'disputed' },
        after: { status: 'settled', amount_cents: event.claim.amount_cents, from_deposit_cents: event.fromDepositCents, card_cents: event.cardCents, owed_cents: event.owedCents },
        reason: event.reason ?? null,
      };
    case 'breach.recorded':
      // A security compromise recorded and told to the people it affects (POPIA s. 22; decision 050).
      return {
        action: event.type,
        target_type: 'breach',
        target_id: event.breachId,
        target_label: `Security compromise discovered ${event.discoveredAt}`,
        after: { data_categories: event.dataCategories, scope: event.scope, affected: event.affected },
        reason: event.summary,
      };
    case 'trip.fine_recorded':
      // A traffic fine entered (decision 066): who entered it, and the trip and renter it was matched to.
      return {
        action: event.type,
        target_type: event.fine.booking_id ? 'booking' : 'car',
        target_id: event.fine.booking_id ?? event.fine.car_id,
        target_label: event.fine.booking_number ?? event.fine.car_name,
        after: { fine: event.fine.id, notice_number: event.fine.notice_number, amount_cents: event.fine.amount_cents, matched: event.fine.booking_id !== null, nominate_by: event.fine.nominate_by },
      };
    case 'trip.fine_nomination_issued':
      // The renter's particulars put into a nomination (POPIA: who, when, for which fine, which fields).
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.fine.booking_id,
        target_label: event.fine.booking_number,
        after: { fine: event.fine.id, notice_number: event.fine.notice_number, fields: event.fields },
        reason: 'AARTO 07 nomination of the driver (AARTO Act s. 17)',
      };
    case 'trip.fine_status_changed':
      return {
        action: event.type,
        target_type: event.fine.booking_id ? 'booking' : 'car',
        target_id: event.fine.booking_id ?? event.fine.car_id,
        target_label: event.fine.notice_number,
        before: { fine: event.fine.id, status: event.before },
        after: { fine: event.fine.id, status: event.after },
        reason: event.note,
      };
    case 'payment.fee_waiver_decided':
      return {
        action: event.type,
        target_type: 'booking',
        target_id: event.waiver.booking_id,
        target_label: event.waiver.booking_number,
        before: { waiver: event.waiver.id, status: 'requested' },
        after: { waiver: event.waiver.id, status: event.decision === 'approve' ? 'approved' : 'declined', refund_cents: event.decision === 'approve' ? event.waiver.fee_cents : 0 },
        reason: event.reason,
      };
    case 'trip.records_read':
      // An admin reading a booking's check-in and check-out records or photos (decisions.md section 12).
      return { action: event.type, target_type: 'booking', target_id: event.booking.id, target_label: event.booking.booking_number, after: { read: event.what } };
    default:
      return null;
  }
}

/** The in-transaction subscriber (the audit module's subscriptions, index.ts): one row per administrator's event. */
/**
 * Events audited whoever acts: a traffic fine names a renter, and its nomination carries their ID
 * and licence numbers out of Karoo (POPIA; decision 066), so the host's actions are recorded too
 * (the row's admin_id and admin_username then name the host who acted).
 */
const AUDITED_FOR_EVERYONE: ReadonlySet<string> = new Set(['trip.fine_recorded', 'trip.fine_nomination_issued', 'trip.fine_status_changed']);

export async function recordAdminAction(tx: Tx, event: DomainEvent): Promise<void> {
  if (!tx.by || (tx.by.role !== 'admin' && !AUDITED_FOR_EVERYONE.has(event.type))) return;
  const entry = entryFor(event);
  if (!entry) return;
  await repo.insertAuditRow(tx.db, {
    admin_id: tx.by.id,
    admin_username: tx.by.username.toLowerCase(),
    action: entry.action,
    target_type: entry.target_type,
    target_id: entry.target_id,
    target_label: entry.target_label,
    before: entry.before ? JSON.stringify(entry.before) : null,
    after: entry.after ? JSON.stringify(entry.after) : null,
    reason: entry.reason ?? null,
    created_at: tx.now,
  });
}

/** GET /api/admin/audit: newest first, filtered and paged on the server. */
export async function listAudit(ctx: AppContext, query: AuditListQuery): Promise<{ entries: AuditEntry[]; total: number }> {
  const filters: repo.AuditFilters = {
    ...(query.action ? { action: query.action } : {}),
    ...(query.admin ? { adminUsername: query.admin } : {}),
    ...(query.target_type ? { targetType: query.target_type } : {}),
    ...(query.target ? { target: query.target } : {}),
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  };
  const [rows, total] = await Promise.all([repo.listAuditRows(ctx.db, filters), repo.countAuditRows(ctx.db, filters)]);
  return {
    total,
    entries: rows.map((r) => ({
      id: r.id,
      admin: { id: r.admin_id, username: r.admin_username },
      action: r.action,
      target_type: r.target_type as AuditEntry['target_type'],
      target_id: r.target_id,
      target_label: r.target_label,
      before: r.before,
      after: r.after,
      reason: r.reason,
      created_at: new Date(r.created_at).toISOString(),
    })),
  };
}
