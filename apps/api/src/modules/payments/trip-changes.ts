// Changing a paid trip (issue 36; docs/decisions/081-trip-changes.md). The renter asks; the host
// accepts or declines by the deadline (8 hours, or the trip's start if sooner; during the trip, its
// end), or the request lapses; a car with instant booking, whose requirements the renter meets,
// accepts at once. The figures are the shared quoteTripChange(), the same the dialog shows,
// computed again here on the locked booking with the request's moment (what the renter was shown is
// what is charged or refunded). Accepted:
// - a dearer trip is charged to the card that paid it (its saved authorisation) before the
//   transaction; a decline leaves the trip as it was and the request 'failed', both told;
// - in one transaction the booking takes its new times and price (the exclusion constraint refuses a
//   clash: a charge already taken is then refunded in full), the ledger records the shares'
//   differences, the kept fee and the charge or refunds, and both sides are told;
// - a refund is asked of the provider once the transaction has committed (then by the refund job).
import { randomBytes } from 'node:crypto';
import {
  bookingLength,
  changeAnswerDeadline,
  DEFAULT_TRIP_RULES,
  describeTripTimes,
  formatRand,
  isAdmin,
  momentOf,
  quoteTripChange,
  tripChangeRefusal,
  type ChangeableTrip,
  type TripChangeQuote,
  type TripChangeQuoteView,
  type TripChangeRequestBody,
  type TripChangeView,
  type TripTimesOf,
} from '@karoo/shared';
import type { Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction, type Tx } from '../../events/domain-events';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import { PaymentProviderError } from '../../lib/payments';
import { findCarHolds } from '../availability';
import { applyTripTerms, findBookingById, findVisibleBooking, instantBookingCheck, lockBookingForPayment, type BookingRecord } from '../bookings';
import { findCar, tripRulesOf } from '../cars';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import { attemptRefund, partiesOf } from './payments.service';
import * as repo from './payments.repository';
import { enqueueRefundAttempt } from './refund-queue';
import type { TripChangesTable } from './trip-changes.tables';
import './trip-changes.tables';

type ChangeRow = Selectable<TripChangesTable>;

const CHANGE_NOT_FOUND = 'Trip change not found';
const rand = (cents: number) => cents / 100;
const words = (cents: number) => formatRand(cents / 100);

/** The shared pricing's view of a booking. */
export function changeableTripOf(b: BookingRecord): ChangeableTrip {
  return {
    start_date: b.start_date,
    end_date: b.end_date,
    start_time: b.start_time,
    end_time: b.end_time,
    is_hourly_booking: b.is_hourly_booking,
    duration_days: b.duration_days,
    duration_hours: b.duration_hours,
    subtotal_cents: b.subtotal_cents,
    discount_cents: b.discount_cents,
    service_fee_cents: b.service_fee_cents,
    insurance_fee_cents: b.insurance_fee_cents,
    pickup_fee_cents: b.pickup_fee_cents,
    total_price_cents: b.total_price_cents,
    car_owner_earnings_cents: b.car_owner_earnings_cents,
    service_fee_rate: Number(b.service_fee_rate),
    commission_rate: Number(b.commission_rate),
    insurance_daily_rate_cents: b.insurance_option?.daily_rate_cents ?? 0,
    paid_at: new Date(b.paid_at ?? b.created_at),
  };
}

const timesOf = (b: TripTimesOf): TripTimesOf => ({ start_date: b.start_date, end_date: b.end_date, start_time: b.start_time, end_time: b.end_time });

function requireChangeable(b: BookingRecord) {
  if (b.status !== 'active' || b.payment_status !== 'paid') throw conflict(`A ${b.status === 'active' ? 'unpaid' : b.status} booking cannot be changed: only a paid trip that has not ended.`);
}

/** Why these times cannot be asked for now, or null (the shared check, with the car's other holds and rules). */
async function refusalOf(ctx: AppContext, db: Tx['db'] | AppContext['db'], b: BookingRecord, next: TripTimesOf, now: Date) {
  const car = await findCar(ctx, b.car_id);
  const settings = await getSettings(ctx);
  const earliest = Math.min(momentOf(b.start_date, '00:00'), momentOf(next.start_date, '00:00'));
  const holds = (await findCarHolds(db, b.car_id, earliest)).filter((h) => h.booking_id !== b.id);
  const refusal = tripChangeRefusal({
    trip: { ...timesOf(b), is_hourly_booking: b.is_hourly_booking },
    next,
    rules: car ? tripRulesOf(car) : DEFAULT_TRIP_RULES,
    maxRentalDays: settings.maxRentalDays,
    otherHolds: holds.map((h) => ({ from: h.from.getTime(), to: h.to.getTime() })),
    bufferMinutes: b.buffer_minutes,
    now,
  });
  return { refusal, car };
}

function quoteOf(b: BookingRecord, next: TripTimesOf, car: Awaited<ReturnType<typeof findCar>>, at: Date): TripChangeQuote {
  return quoteTripChange(changeableTripOf(b), next, car ? tripRulesOf(car) : null, at);
}

const partsView = (p: TripChangeQuote['before']) => ({
  rental: rand(p.rental),
  discount: rand(p.discount),
  subtotal: rand(p.subtotal),
  service_fee: rand(p.serviceFee),
  insurance_fee: rand(p.insuranceFee),
  pickup_fee: rand(p.pickupFee),
  total: rand(p.total),
  host_earnings: rand(p.hostEarnings),
  platform: rand(p.platform),
});

/** Whether the car confirms this renter's change at once (its instant booking, under the platform's switch). */
async function isInstant(ctx: AppContext, b: BookingRecord, car: Awaited<ReturnType<typeof findCar>>): Promise<boolean> {
  if (!car) return false;
  const renter = await ctx.db.selectFrom('users').selectAll().where('id', '=', b.renter_id).executeTakeFirst();
  if (!renter) return false;
  return (await instantBookingCheck(ctx, renter, car, await getSettings(ctx))).length === 0;
}

/** GET /booking/{id}/change-quote: what the new times would cost or give back, and whether they can be asked for. */
export async function quoteChange(ctx: AppContext, viewer: UserRow, idOrNumber: string, next: TripTimesOf): Promise<TripChangeQuoteView> {
  const b = await findVisibleBooking(ctx, viewer, idOrNumber);
  if (b.renter_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the renter can change this trip.');
  requireChangeable(b);
  const now = ctx.clock.now();
  const { refusal, car } = await refusalOf(ctx, ctx.db, b, next, now);
  const q = quoteOf(b, next, car, now);
  return {
    can_request: refusal === null,
    refusal: refusal?.message ?? null,
    before: { ...partsView(q.before), days: q.before.days, hours: q.before.hours, ...timesOf(b) },
    after: { ...partsView(q.after), days: q.after.days, hours: q.after.hours, ...next },
    difference: partsView({ ...q.difference, days: 0, hours: null, discountRate: 0 }),
    kept: rand(q.keptCents),
    kept_host: rand(q.keptHostCents),
    kept_platform: rand(q.keptPlatformCents),
    net: rand(q.netCents),
    free_until: q.freeUntil.toISOString(),
    answer_by: changeAnswerDeadline({ ...timesOf(b), is_hourly_booking: b.is_hourly_booking }, now).toISOString(),
    instant: await isInstant(ctx, b, car),
    summary: q.summary,
  };
}

function toView(row: ChangeRow, viewer: UserRow): TripChangeView {
  const hostSide = row.host_id === viewer.id || isAdmin(viewer);
  return {
    id: row.id,
    booking_id: row.booking_id,
    status: row.status,
    from: { start_date: row.from_start_date, end_date: row.from_end_date, start_time: row.from_start_time, end_time: row.from_end_time },
    to: { start_date: row.to_start_date, end_date: row.to_end_date, start_time: row.to_start_time, end_time: row.to_end_time },
    new_total: rand(row.new_total_cents),
    kept: rand(row.kept_cents),
    net: rand(row.net_cents),
    host_difference: hostSide ? rand(row.host_difference_cents) : null,
    summary: row.summary,
    message: row.message,
    answer_by: new Date(row.answer_by).toISOString(),
    requested_at: new Date(row.created_at).toISOString(),
    answered_at: row.answered_at ? new Date(row.answered_at).toISOString() : null,
    note: row.note,
    failure: row.failure,
  };
}

const toTimes = (r: ChangeRow, side: 'from' | 'to'): TripTimesOf =>
  side === 'from'
    ? { start_date: r.from_start_date, end_date: r.from_end_date, start_time: r.from_start_time, end_time: r.from_end_time }
    : { start_date: r.to_start_date, end_date: r.to_end_date, start_time: r.to_start_time, end_time: r.to_end_time };

/** GET /booking/{id}/changes: the booking's change requests, newest first (its renter, host and admins). */
export async function listChanges(ctx: AppContext, viewer: UserRow, idOrNumber: string): Promise<TripChangeView[]> {
  const b = await findVisibleBooking(ctx, viewer, idOrNumber);
  await lapseOverdueChanges(ctx);
  const rows = await ctx.db.selectFrom('trip_changes').selectAll().where('booking_id', '=', b.id).orderBy('created_at', 'desc').execute();
  return rows.map((r) => toView(r, viewer));
}

/** POST /booking/{id}/changes: the renter asks for new times; accepted at once where the car's instant booking admits the renter. */
export async function requestChange(ctx: AppContext, viewer: UserRow, idOrNumber: string, body: TripChangeRequestBody): Promise<TripChangeView> {
  const b = await findVisibleBooking(ctx, viewer, idOrNumber);
  if (b.renter_id !== viewer.id) throw forbidden('Only the renter can ask to change this trip.');
  requireChangeable(b);
  await lapseOverdueChanges(ctx);
  const next = timesOf(body);
  const now = ctx.clock.now();
  const { refusal, car } = await refusalOf(ctx, ctx.db, b, next, now);
  if (refusal) throw new AppError(refusal.status, refusal.message);
  const q = quoteOf(b, next, car, now);
  if (body.expected_net !== undefined && Math.round(body.expected_net * 100) !== q.netCents) {
    throw conflict(`The price of this change has changed since it was shown: ${q.summary} Look again and confirm.`);
  }
  const instant = await isInstant(ctx, b, car);
  let row: ChangeRow;
  try {
    row = await inTransaction(
      ctx,
      async (tx) => {
        const inserted = await tx.db
          .insertInto('trip_changes')
          .values({
            booking_id: b.id,
            renter_id: b.renter_id,
            host_id: b.owner_id,
            status: 'pending',
            from_start_date: b.start_date,
            from_end_date: b.end_date,
            from_start_time: b.start_time,
            from_end_time: b.end_time,
            to_start_date: next.start_date,
            to_end_date: next.end_date,
            to_start_time: next.start_time,
            to_end_time: next.end_time,
            new_total_cents: q.after.total,
            kept_cents: q.keptCents,
            net_cents: q.netCents,
            host_difference_cents: q.difference.hostEarnings + q.keptHostCents,
            summary: q.summary,
            message: body.message?.trim() || null,
            answer_by: changeAnswerDeadline({ ...timesOf(b), is_hourly_booking: b.is_hourly_booking }, tx.now),
            created_at: tx.now,
            updated_at: tx.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (!instant) tx.emit({ type: 'trip.change_requested', booking: b, change: inserted });
        return inserted;
      },
      { by: viewer },
    );
  } catch (error) {
    if (typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505') {
      throw conflict('A change of this trip is already waiting for the host: withdraw it first to ask for another.');
    }
    throw error;
  }
  if (instant) row = await settleChange(ctx, row, { by: null, note: 'Accepted at once: this car has instant booking.' });
  return toView(row, viewer);
}

async function findChangeFor(ctx: AppContext, viewer: UserRow, changeId: string): Promise<{ row: ChangeRow; booking: BookingRecord }> {
  const row = /^[0-9a-f-]{36}$/i.test(changeId) ? await ctx.db.selectFrom('trip_changes').selectAll().where('id', '=', changeId).executeTakeFirst() : undefined;
  if (!row || (row.renter_id !== viewer.id && row.host_id !== viewer.id && !isAdmin(viewer))) throw notFound(CHANGE_NOT_FOUND);
  const booking = await findBookingById(ctx, row.booking_id);
  if (!booking) throw notFound(CHANGE_NOT_FOUND);
  return { row, booking };
}

function requirePending(row: ChangeRow, now: Date) {
  if (row.status === 'pending' && new Date(row.answer_by).getTime() <= now.getTime()) throw conflict('This change request has lapsed: the time to answer it has passed, and the trip stays as it was.');
  if (row.status !== 'pending') throw conflict(`This change request is ${row.status} already.`);
}

/** PATCH /booking/changes/{id}/accept: the host (or an administrator) accepts; the money moves and the trip takes its new times. */
export async function acceptChange(ctx: AppContext, viewer: UserRow, changeId: string, note?: string): Promise<TripChangeView> {
  const { row } = await findChangeFor(ctx, viewer, changeId);
  if (row.host_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the host can accept a change of the trip.');
  requirePending(row, ctx.clock.now());
  return toView(await settleChange(ctx, row, { by: viewer, note: note?.trim() || null }), viewer);
}

/** PATCH /booking/changes/{id}/decline: the host declines; the trip stays as it was. */
export async function declineChange(ctx: AppContext, viewer: UserRow, changeId: string, note?: string): Promise<TripChangeView> {
  const { row, booking } = await findChangeFor(ctx, viewer, changeId);
  if (row.host_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the host can decline a change of the trip.');
  requirePending(row, ctx.clock.now());
  const ended = await endChange(ctx, row, booking, 'declined', { by: viewer, note: note?.trim() || null });
  return toView(ended, viewer);
}

/** PATCH /booking/changes/{id}/withdraw: the renter takes back a request still waiting. */
export async function withdrawChange(ctx: AppContext, viewer: UserRow, changeId: string): Promise<TripChangeView> {
  const { row, booking } = await findChangeFor(ctx, viewer, changeId);
  if (row.renter_id !== viewer.id) throw forbidden('Only the renter can withdraw this request.');
  requirePending(row, ctx.clock.now());
  return toView(await endChange(ctx, row, booking, 'withdrawn', { by: viewer, note: null }), viewer);
}

/** A request that ends without changing the trip (declined, withdrawn, failed): once, by a conditional UPDATE; both told. */
async function endChange(ctx: AppContext, row: ChangeRow, booking: BookingRecord, status: 'declined' | 'withdrawn' | 'failed', how: { by: UserRow | null; note: string | null; failure?: string }): Promise<ChangeRow> {
  return inTransaction(
    ctx,
    async (tx) => {
      const ended = await tx.db
        .updateTable('trip_changes')
        .set({ status, note: how.note, failure: how.failure ?? null, answered_at: tx.now, answered_by: how.by?.id ?? null, updated_at: tx.now })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      if (!ended) throw conflict('This change request has been answered already.');
      tx.emit({ type: 'trip.change_ended', booking, change: ended });
      return ended;
    },
    { by: how.by },
  );
}

/** Pending requests past their deadline lapse (the sweep job each minute; reads call it too). */
export async function lapseOverdueChanges(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const overdue = await ctx.db.selectFrom('trip_changes').select(['id', 'booking_id']).where('status', '=', 'pending').where('answer_by', '<=', now).limit(200).execute();
  let lapsed = 0;
  for (const { id, booking_id } of overdue) {
    // Read before the unit of work: on the embedded database a read outside it would wait for it.
    const booking = await findBookingById(ctx, booking_id);
    if (!booking) continue;
    await inTransaction(ctx, async (tx) => {
      const ended = await tx.db
        .updateTable('trip_changes')
        .set({ status: 'lapsed', answered_at: tx.now, updated_at: tx.now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      if (!ended) return;
      tx.emit({ type: 'trip.change_ended', booking, change: ended });
      lapsed++;
    });
  }
  return lapsed;
}

type ChargeTaken = { reference: string; amountCents: number } | null;

/** Charges a dearer change to the card that paid the trip (its saved authorisation), recorded as a successful payment of the booking so a refund can find it. */
async function chargeDifference(ctx: AppContext, booking: BookingRecord, amountCents: number): Promise<{ charge: ChargeTaken; declined: string | null }> {
  const saved = await repo.findBookingAuthorization(ctx.db, booking.id);
  if (!saved) return { charge: null, declined: 'The card that paid the trip cannot be charged again.' };
  const renter = await ctx.db.selectFrom('users').select('email').where('id', '=', booking.renter_id).executeTakeFirstOrThrow();
  const reference = `KAROO-${booking.booking_number}-CHANGE-${randomBytes(5).toString('hex').toUpperCase()}`;
  let answer;
  try {
    answer = await ctx.payments.chargeAuthorization({ authorizationCode: saved.authorization_code, email: renter.email, amountCents, currency: 'ZAR', reference });
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError(502, `${error.message} The change is still waiting; try again.`);
    throw error;
  }
  if (answer.status !== 'success') return { charge: null, declined: answer.message };
  const now = ctx.clock.now();
  await repo.insertOpenPayment(ctx.db, { reference: answer.reference, booking_id: booking.id, provider: ctx.payments.name, amount_cents: amountCents }, now);
  await repo.recordOutcome(ctx.db, answer.reference, 'success', null, now);
  return { charge: { reference: answer.reference, amountCents }, declined: null };
}

/**
 * Accepts a pending request (the host, an administrator, or instant booking): priced again on the
 * locked booking at the request's moment, checked against the car's calendar now, charged or
 * refunded, and recorded in one transaction. Anything that stops it ends the request 'failed'.
 */
async function settleChange(ctx: AppContext, row: ChangeRow, how: { by: UserRow | null; note: string | null }): Promise<ChangeRow> {
  const booking = await findBookingById(ctx, row.booking_id);
  if (!booking) throw notFound(CHANGE_NOT_FOUND);
  const next = toTimes(row, 'to');
  const now = ctx.clock.now();
  const fail = (failure: string) => endChange(ctx, row, booking, 'failed', { by: how.by, note: how.note, failure });
  if (booking.status !== 'active' || booking.payment_status !== 'paid') return fail('The trip is no longer a paid trip that has not ended.');
  const { refusal, car } = await refusalOf(ctx, ctx.db, booking, next, now);
  if (refusal) return fail(refusal.message);
  const q = quoteOf(booking, next, car, new Date(row.created_at));
  if (q.netCents !== row.net_cents) return fail('The trip\'s price rules changed after the request (the car\'s discounts): ask again to see the new price.');

  const { charge, declined } = q.netCents > 0 ? await chargeDifference(ctx, booking, q.netCents) : { charge: null, declined: null };
  if (declined) return fail(`The card that paid the trip was declined for the ${words(q.netCents)} difference: ${declined}`);

  let refundIds: string[] = [];
  let chargeGoneBack = false;
  let accepted: ChangeRow;
  try {
    accepted = await inTransaction(
      ctx,
      async (tx) => {
        const current = await lockBookingForPayment(tx, booking.id);
        // Paystack's webhook for the charge may have come first and, finding no change on the
        // ledger, refunded it whole as a payment the trip cannot keep: then the change is not made.
        if (charge && (await repo.lockPayment(tx.db, charge.reference))?.refund_status) {
          chargeGoneBack = true;
          throw conflict('The payment provider reported the charge before the change was recorded, and it is being refunded in full: ask again.');
        }
        const pending = await tx.db.selectFrom('trip_changes').selectAll().where('id', '=', row.id).forUpdate().executeTakeFirstOrThrow();
        if (pending.status !== 'pending') throw conflict('This change request has been answered already.');
        // Priced again on the locked booking (another change or a cancellation may have come first): it must still match.
        if (current.status !== 'active' || quoteOf(current, next, car, new Date(row.created_at)).netCents !== q.netCents) {
          throw conflict('The trip changed while this request was being accepted.');
        }
        const length = bookingLength({ ...next, is_hourly_booking: current.is_hourly_booking });
        const a = q.after;
        const changed = await applyTripTerms(tx, current.id, {
          ...next,
          duration_days: length.duration_days,
          duration_hours: length.duration_hours,
          subtotal_cents: a.subtotal,
          discount_cents: a.discount,
          discount_rate: q.after.discountRate,
          service_fee_cents: a.serviceFee,
          insurance_fee_cents: a.insuranceFee,
          total_price_cents: a.total,
          car_owner_earnings_cents: a.hostEarnings,
          app_fee_cents: a.platform,
        });
        const d = q.difference;
        const refunds = q.netCents < 0 ? ledger.splitRefund(await ledger.refundableCharges(tx.db, current.id), -q.netCents) : [];
        const rows = await ledger.recordTripChange(tx.db, partiesOf(current), tx.now, {
          changeId: row.id,
          hostDeltaCents: d.hostEarnings,
          serviceFeeDeltaCents: d.serviceFee,
          insuranceDeltaCents: d.insuranceFee,
          hostFeeDeltaCents: d.platform - d.serviceFee - d.insuranceFee,
          keptHostCents: q.keptHostCents,
          keptPlatformCents: q.keptPlatformCents,
          ...(charge ? { charge } : {}),
          refunds,
          reason: `Refund of your changed trip (${describeTripTimes(next)}).`,
          actorId: how.by?.id ?? null,
        });
        refundIds = rows.filter((r) => r.kind === 'refund').map((r) => r.id);
        for (const id of refundIds) await enqueueRefundAttempt(ctx, tx, id);
        const done = await tx.db
          .updateTable('trip_changes')
          .set({ status: 'accepted', note: how.note, answered_at: tx.now, answered_by: how.by?.id ?? null, charge_reference: charge?.reference ?? null, updated_at: tx.now })
          .where('id', '=', row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        tx.emit({ type: 'trip.change_accepted', booking: changed, change: done, instant: how.by === null });
        return done;
      },
      { by: how.by },
    );
  } catch (error) {
    if (!(error instanceof AppError)) {
      if (charge && !chargeGoneBack) await refundTakenCharge(ctx, booking, charge, 'The change could not be made, so its charge is refunded in full.');
      throw error;
    }
    // The time was taken meanwhile, or the trip changed: a charge already taken goes back whole.
    if (charge && !chargeGoneBack) await refundTakenCharge(ctx, booking, charge, `The change could not be made (${error.message}), so its charge is refunded in full.`);
    return fail(error.message);
  }
  for (const id of refundIds) await attemptRefund(ctx, id);
  return accepted;
}

/** A change's charge that the trip cannot keep: recorded taken and refunded, as every such charge is. */
async function refundTakenCharge(ctx: AppContext, booking: BookingRecord, charge: { reference: string; amountCents: number }, reason: string): Promise<void> {
  const refundId = await inTransaction(ctx, async (tx) => {
    await repo.recordRefundDue(tx.db, charge.reference, { amount_cents: charge.amountCents, reason, code: 'booking_not_payable' }, tx.now);
    const refund = await ledger.recordRefundedCharge(tx.db, partiesOf(booking), { reference: charge.reference, amountCents: charge.amountCents, at: tx.now, code: 'trip_change_failed', reason, chargeCode: 'trip_change' });
    await enqueueRefundAttempt(ctx, tx, refund.id);
    tx.emit({ type: 'payment.refund_due', booking, reference: charge.reference, amountCents: charge.amountCents, reason });
    return refund.id;
  });
  await attemptRefund(ctx, refundId);
}
