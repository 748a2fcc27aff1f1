// Consumer Protection Act s. 17(5) (issue 34; docs/decisions/067-cpa-section-17-waiver.md): no
// cancellation fee when the renter, or a member of their immediate family, died or was admitted to
// hospital.
// - The renter asks on a cancelled trip that kept a fee, with a death certificate or a hospital
//   letter (checked by content as identity documents are, into the private store). One request open
//   or approved per booking (a unique index); a declined one may be asked again.
// - An administrator approves or declines with a reason (audited). Approved: the fee the ledger says
//   was kept (its host and platform parts) is taken back from both and refunded to the card the trip
//   was paid with, as a pending refund on the refund queue (asked at once, retried, failed after the
//   last try, an admin's Retry), so the provider's refund and the ledger agree. The host is told that
//   their share of the fee went back.
import { randomBytes } from 'node:crypto';
import { isAdmin, type DecideWaiverBody, type FeeWaiver, type RequestWaiverBody, type WaiverStatus } from '@karoo/shared';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { prepareDocument, type UploadedFile } from '../../lib/uploads';
import { findVisibleBooking } from '../bookings';
import * as ledger from '../ledger';
import type { CancellationFeeWaiversTable } from './fee-waivers.tables';
import { attemptRefund, partiesOf } from './payments.service';
import { enqueueRefundAttempt } from './refund-queue';

type WaiverRow = Selectable<CancellationFeeWaiversTable>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NOT_FOUND = 'Request not found';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** POST /booking/{id}/fee-waiver: the renter asks for the fee back, with evidence. */
export async function requestWaiver(ctx: AppContext, viewer: UserRow, bookingId: string, body: RequestWaiverBody, evidence: UploadedFile | undefined): Promise<string> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  if (booking.renter_id !== viewer.id) throw forbidden('Only the renter of this trip can ask for its cancellation fee back.');
  if (booking.status !== 'cancelled') throw conflict('Only a cancelled trip can have its cancellation fee waived.');
  const kept = await ledger.cancellationFeeKept(ctx.db, booking.id);
  const fee = kept.hostCents + kept.platformCents;
  if (fee <= 0) throw conflict('This cancellation kept no fee: there is nothing to give back.');
  if (!evidence || evidence.buffer.length === 0) throw badRequest('Add the death certificate or the hospital letter (a photo or PDF).', { evidence: 'Evidence is required' });
  const prepared = await prepareDocument(evidence, 'evidence');
  const key = `waivers/${booking.id}/${randomBytes(12).toString('hex')}.${prepared.ext}`;
  await ctx.privateFiles.put(key, prepared.data);
  try {
    return await inTransaction(ctx, async (tx) => {
      const row = await tx.db
        .insertInto('cancellation_fee_waivers')
        .values({ booking_id: booking.id, renter_id: viewer.id, ground: body.ground, person: body.person, statement: body.statement.trim(), fee_cents: fee, evidence_storage_key: key, evidence_mime: prepared.mime, created_at: tx.now, updated_at: tx.now })
        .returning('id')
        .executeTakeFirstOrThrow();
      tx.emit({ type: 'payment.fee_waiver_requested', waiver: { id: row.id, booking_id: booking.id, booking_number: booking.booking_number, renter_id: booking.renter_id, owner_id: booking.owner_id, fee_cents: fee } });
      return row.id;
    }, { by: viewer });
  } catch (error) {
    await ctx.privateFiles.remove(key).catch(() => undefined);
    if (isUniqueViolation(error)) throw conflict('You already asked for this fee back.');
    throw error;
  }
}

async function findWaiver(ctx: AppContext, viewer: UserRow, waiverId: string): Promise<WaiverRow> {
  const row = UUID.test(waiverId) ? await ctx.db.selectFrom('cancellation_fee_waivers').selectAll().where('id', '=', waiverId).executeTakeFirst() : undefined;
  if (!row || (row.renter_id !== viewer.id && !isAdmin(viewer))) throw notFound(NOT_FOUND);
  return row;
}

/** PATCH /admin/fee-waivers/{id}/decide: approve (the fee refunded through the ledger and the refund queue) or decline, with a reason (audited). */
export async function decideWaiver(ctx: AppContext, admin: UserRow, waiverId: string, body: DecideWaiverBody): Promise<void> {
  const waiver = await findWaiver(ctx, admin, waiverId);
  if (waiver.status !== 'requested') throw conflict('This request has already been decided.');
  const booking = await findVisibleBooking(ctx, admin, waiver.booking_id);
  const refundId = await inTransaction(ctx, async (tx) => {
    const status: WaiverStatus = body.decision === 'approve' ? 'approved' : 'declined';
    const updated = await tx.db
      .updateTable('cancellation_fee_waivers')
      .set({ status, decided_by: admin.id, decision_reason: body.reason, decided_at: tx.now, updated_at: tx.now })
      .where('id', '=', waiver.id)
      .where('status', '=', 'requested')
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('This request has already been decided.');
    let refund: ledger.LedgerEntry | undefined;
    let feeCents = 0;
    if (status === 'approved') {
      // What the ledger says is still kept, read in the transaction (a second waiver finds nothing).
      const kept = await ledger.cancellationFeeKept(tx.db, booking.id);
      feeCents = kept.hostCents + kept.platformCents;
      if (feeCents <= 0) throw conflict('The fee of this trip was already given back.');
      refund = await ledger.recordFeeWaiver(tx.db, partiesOf(booking), tx.now, {
        hostCents: kept.hostCents,
        platformCents: kept.platformCents,
        chargeReference: booking.payment_reference,
        reason: 'Your cancellation fee back (Consumer Protection Act, section 17).',
        actorId: admin.id,
      });
      await tx.db.updateTable('cancellation_fee_waivers').set({ refund_entry_id: refund.id }).where('id', '=', waiver.id).execute();
      await enqueueRefundAttempt(ctx, tx, refund.id);
    }
    tx.emit({
      type: 'payment.fee_waiver_decided',
      waiver: { id: waiver.id, booking_id: booking.id, booking_number: booking.booking_number, renter_id: booking.renter_id, owner_id: booking.owner_id, fee_cents: status === 'approved' ? feeCents : waiver.fee_cents },
      decision: body.decision,
      reason: body.reason,
    });
    return refund?.id;
  }, { by: admin });
  if (refundId) await attemptRefund(ctx, refundId);
}

function toView(row: WaiverRow & { booking_number: string }): FeeWaiver {
  return {
    id: row.id,
    booking_id: row.booking_id,
    booking_number: row.booking_number,
    ground: row.ground,
    person: row.person,
    statement: row.statement,
    fee: row.fee_cents / 100,
    status: row.status,
    decision_reason: row.decision_reason,
    decided_at: row.decided_at ? new Date(row.decided_at).toISOString() : null,
    evidence_url: `/api/fee-waivers/${row.id}/evidence`,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const waivers = (ctx: AppContext) => ctx.db.selectFrom('cancellation_fee_waivers as w').innerJoin('bookings as b', 'b.id', 'w.booking_id').selectAll('w').select('b.booking_number');

/** GET /booking/{id}/fee-waivers: the renter's requests on a trip (its renter and admins; the host sees none: the evidence is the renter's health). */
export async function bookingWaivers(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<FeeWaiver[]> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  if (booking.renter_id !== viewer.id && !isAdmin(viewer)) return [];
  return (await waivers(ctx).where('w.booking_id', '=', booking.id).orderBy('w.created_at').execute()).map(toView);
}

export async function waiverView(ctx: AppContext, viewer: UserRow, waiverId: string): Promise<FeeWaiver> {
  const row = await findWaiver(ctx, viewer, waiverId);
  return toView((await waivers(ctx).where('w.id', '=', row.id).executeTakeFirstOrThrow()));
}

/** GET /admin/fee-waivers: requests in a state, oldest first (requested ones await a decision). */
export async function listWaivers(ctx: AppContext, status: WaiverStatus): Promise<FeeWaiver[]> {
  return (await waivers(ctx).where('w.status', '=', status).orderBy('w.created_at').limit(200).execute()).map(toView);
}

/** GET /fee-waivers/{id}/evidence: the certificate or letter (the renter who sent it, admins). */
export async function readWaiverEvidence(ctx: AppContext, viewer: UserRow, waiverId: string): Promise<{ data: Buffer; mime: string; ext: string }> {
  const row = await findWaiver(ctx, viewer, waiverId);
  const data = await ctx.privateFiles.read(row.evidence_storage_key);
  if (!data) throw notFound('Evidence not found');
  return { data, mime: row.evidence_mime, ext: row.evidence_mime === 'application/pdf' ? 'pdf' : row.evidence_mime === 'image/png' ? 'png' : 'jpg' };
}
