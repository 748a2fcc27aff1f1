// Trip charges: the host's claims after a trip (issue 34; docs/decisions/065-trip-charges.md).
// - The host files charges within the claim window after check-out (a setting, 72 h): fuel, extra
//   kilometres and a late return are computed here from the trip records, the booking and the
//   settings (@karoo/shared trip-charges.ts); cleaning, smoking, tolls, fines and damage carry an
//   amount and evidence (photos through prepareImage into the private store).
// - The renter is told at once and has `answer_hours` (48 h) to accept or dispute with their own
//   statement and photos. Accepted, or unanswered in time (settleOverdueClaims, the sweep job): paid
//   from the deposit first, the rest from the card's saved authorisation; a declined card leaves the
//   rest owed, and the renter is told to pay it: through the claim's payment link (decision 073), a
//   checkout of exactly what is owed whose charge is recorded once over the claim's lines.
// - Disputed: an admin decides an amount with a reason (audited), and it is paid the same way.
// - When the window has closed and no claim is open, what is left of the deposit goes back
//   (releaseDueDeposits, the same job). Another user's booking or claim is 404.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  formatRand,
  type PaymentSession,
  claimPayment,
  claimSplit,
  claimWindowClosesAt,
  COMPUTED_KINDS,
  extraKilometres,
  extraKmChargeCents,
  fuelChargeCents,
  fuelKindOf,
  fuelLitres,
  isAdmin,
  lateHours,
  lateReturnChargeCents,
  localInstant,
  TRIP_CHARGE_LABELS,
  type TripChargeKind,
  type TripChargeSettings,
} from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { prepareImage, quoteFileName } from '../../lib/images';
import type { UploadedFile } from '../../lib/uploads';
import { findBookingById, findVisibleBooking, type BookingRecord } from '../bookings';
import * as ledger from '../ledger';
import { askReleaseNow, chargeSavedCard, openClaimCheckout, releaseDeposit, verifyClaimPayment, type ClaimChargeHandler } from '../payments';
import { getSettings } from '../settings';
import type { TripClaimsTable } from './trip-claims.tables';
import type { Selectable } from 'kysely';

export type ClaimRow = Selectable<TripClaimsTable>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CLAIM_NOT_FOUND = 'Claim not found';
const HOUR_MS = 3_600_000;
export const MAX_EVIDENCE_FILES = 8;

/** One line the host asks for: computed kinds without an amount; the others with rand. */
export interface ClaimItemInput {
  kind: TripChargeKind;
  amount?: number | undefined;
  note: string;
}

/** What a computed line is worth now, with the words that say how (for the form's prefill and the stored line). */
export interface ComputedCharge {
  kind: TripChargeKind;
  amount_cents: number;
  detail: string;
}

/** When the car came back: the host's check-out record, else the renter's, else the return the host processed. */
function checkedOutAt(booking: BookingRecord, records: { stage: string; party: string; created_at: Date | string }[]): Date | null {
  const out = records.filter((r) => r.stage === 'check_out').sort((a, b) => (a.party === 'host' ? -1 : b.party === 'host' ? 1 : 0));
  if (out[0]) return new Date(out[0].created_at);
  const returned = booking.actual_return_date ?? booking.completed_at;
  return returned ? new Date(returned) : null;
}

async function recordsOf(ctx: AppContext, bookingId: string) {
  return ctx.db.selectFrom('trip_records').select(['stage', 'party', 'odometer_km', 'fuel_eighths', 'created_at']).where('booking_id', '=', bookingId).orderBy('created_at').execute();
}

/** The car facts the charges need (read, never written here: the cars module owns the table). */
async function carFactsOf(ctx: AppContext, carId: string) {
  return ctx.db.selectFrom('cars').select(['tank_litres', 'car_rent_price_cents', 'specifications']).where('id', '=', carId).executeTakeFirstOrThrow();
}

/** The readings a computed charge is made from: the host's record of each stage, else the renter's. */
function readings(records: Awaited<ReturnType<typeof recordsOf>>) {
  const pick = (stage: string) => records.find((r) => r.stage === stage && r.party === 'host') ?? records.find((r) => r.stage === stage);
  return { checkIn: pick('check_in'), checkOut: pick('check_out') };
}

/** Rand in the words of every screen ("R 3,50"): the one formatter, not a second one that writes "R 3.50". */
const rand = (cents: number) => formatRand(cents / 100);

/** The fuel, extra-km and late-return charges the records support now (zero ones left out), and why others cannot be computed. */
export async function computeCharges(ctx: AppContext, booking: BookingRecord, s: TripChargeSettings): Promise<{ charges: ComputedCharge[]; missing: Partial<Record<TripChargeKind, string>> }> {
  const records = await recordsOf(ctx, booking.id);
  const car = await carFactsOf(ctx, booking.car_id);
  const { checkIn, checkOut } = readings(records);
  const charges: ComputedCharge[] = [];
  const missing: Partial<Record<TripChargeKind, string>> = {};
  if (!checkIn || !checkOut) {
    missing.fuel = 'Fuel needs a check-in and a check-out record.';
    missing.extra_km = 'Extra kilometres need a check-in and a check-out record.';
  } else {
    if (!car.tank_litres) missing.fuel = 'Add the tank size to the car to charge for fuel.';
    else {
      const kind = fuelKindOf(car.specifications?.fuelType);
      const price = kind === 'diesel' ? s.fuel_price_diesel_cents : s.fuel_price_petrol_cents;
      const input = { checkInEighths: checkIn.fuel_eighths, checkOutEighths: checkOut.fuel_eighths, tankLitres: car.tank_litres, pricePerLitreCents: price };
      const cents = fuelChargeCents(input);
      if (cents > 0) charges.push({ kind: 'fuel', amount_cents: cents, detail: `${checkIn.fuel_eighths}/8 at check-in, ${checkOut.fuel_eighths}/8 at check-out: ${fuelLitres(input)} l of ${kind} at ${rand(price)} a litre` });
    }
    if (booking.distance_allowance_km === null) missing.extra_km = 'This trip had unlimited kilometres.';
    else {
      const days = Math.max(1, booking.duration_days);
      const input = { startKm: checkIn.odometer_km, endKm: checkOut.odometer_km, days, allowanceKmPerDay: booking.distance_allowance_km, ratePerKmCents: booking.extra_km_rate_cents };
      const cents = extraKmChargeCents(input);
      if (cents > 0) {
        charges.push({
          kind: 'extra_km',
          amount_cents: cents,
          detail: `${checkOut.odometer_km - checkIn.odometer_km} km driven, ${booking.distance_allowance_km * days} km included (${days} × ${booking.distance_allowance_km} km): ${extraKilometres(input)} km at ${rand(booking.extra_km_rate_cents)}`,
        });
      }
    }
  }
  const returnedAt = checkedOutAt(booking, records);
  if (returnedAt) {
    const dueAt = localInstant(booking.end_date, booking.end_time);
    const input = { dueAt, returnedAt, graceMinutes: s.late_grace_minutes, dailyPriceCents: car.car_rent_price_cents, percentOfDay: s.late_hour_percent_of_day };
    const cents = lateReturnChargeCents(input);
    if (cents > 0) charges.push({ kind: 'late_return', amount_cents: cents, detail: `${lateHours(input)} started hour(s) late after ${s.late_grace_minutes} min of grace, at ${s.late_hour_percent_of_day}% of the daily price` });
  }
  return { charges, missing };
}

/** Why the host cannot file charges now, or null; and when the window closes. */
export function claimWindowOf(booking: BookingRecord, returnedAt: Date | null, s: TripChargeSettings, now: Date): { closesAt: Date | null; refusal: string | null } {
  if (booking.status !== 'completed' || !returnedAt) return { closesAt: null, refusal: 'Trip charges can be filed once the car is back and the trip completed.' };
  const closesAt = claimWindowClosesAt(returnedAt, s.claim_window_hours);
  return { closesAt, refusal: now.getTime() > closesAt.getTime() ? `Trip charges could be filed until ${s.claim_window_hours} hours after check-out.` : null };
}

async function storeEvidence(ctx: AppContext, claimId: string, bookingId: string, party: 'host' | 'renter', files: readonly UploadedFile[], start: number, now: Date, stored: string[]) {
  if (files.length > MAX_EVIDENCE_FILES) throw badRequest(`At most ${MAX_EVIDENCE_FILES} photos can be added at once.`, { evidence: `At most ${MAX_EVIDENCE_FILES} photos` });
  const rows = [];
  for (const [index, file] of files.entries()) {
    const name = quoteFileName(file.filename);
    const prepared = await prepareImage({ data: file.buffer, label: `Evidence photo${name ? ` (${name})` : ''}`, field: 'evidence' }, 'car_photo');
    const key = `trips/${bookingId}/claims/${randomBytes(12).toString('hex')}.${prepared.ext}`;
    await ctx.privateFiles.put(key, prepared.data);
    stored.push(key);
    rows.push({ claim_id: claimId, party, storage_key: key, mime_type: prepared.mime, position: start + index, created_at: now });
  }
  return rows;
}

/** POST /booking/{id}/claims: the host files charges (at most one line per kind), within the window. */
export async function fileClaim(ctx: AppContext, viewer: UserRow, bookingId: string, body: { items: ClaimItemInput[]; statement: string }, files: readonly UploadedFile[]): Promise<string> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  if (booking.owner_id !== viewer.id) throw forbidden('Only the host of this trip can file trip charges.');
  const s = (await getSettings(ctx)).trip_charges;
  const now = ctx.clock.now();
  const { refusal } = claimWindowOf(booking, checkedOutAt(booking, await recordsOf(ctx, booking.id)), s, now);
  if (refusal) throw conflict(refusal);
  const kinds = body.items.map((i) => i.kind);
  if (new Set(kinds).size !== kinds.length) throw badRequest('One line per kind of charge.', { items: 'One line per kind' });
  const earlier = await ctx.db
    .selectFrom('trip_claim_items as i')
    .innerJoin('trip_claims as c', 'c.id', 'i.claim_id')
    .select('i.kind')
    .where('c.booking_id', '=', booking.id)
    .where('c.status', '<>', 'withdrawn')
    .execute();
  const again = kinds.find((k) => earlier.some((e) => e.kind === k));
  if (again) throw conflict(`${TRIP_CHARGE_LABELS[again]} was already charged for this trip.`);

  const { charges, missing } = await computeCharges(ctx, booking, s);
  const lines: { kind: TripChargeKind; amount_cents: number; detail: string; note: string }[] = [];
  for (const item of body.items) {
    if (COMPUTED_KINDS.includes(item.kind)) {
      const computed = charges.find((c) => c.kind === item.kind);
      if (!computed) throw badRequest(missing[item.kind] ?? `The records show no ${TRIP_CHARGE_LABELS[item.kind].toLowerCase()} to charge.`, { [item.kind]: 'Nothing to charge' });
      lines.push({ kind: item.kind, amount_cents: computed.amount_cents, detail: computed.detail, note: item.note });
    } else {
      if (item.amount === undefined) throw badRequest(`Give the amount of the ${TRIP_CHARGE_LABELS[item.kind].toLowerCase()} charge.`, { [item.kind]: 'Amount required' });
      lines.push({ kind: item.kind, amount_cents: Math.round(item.amount * 100), detail: '', note: item.note });
    }
  }
  const needsEvidence = lines.filter((l) => !COMPUTED_KINDS.includes(l.kind));
  if (needsEvidence.length > 0 && files.length === 0) throw badRequest('Add a photo, receipt or quote for cleaning, smoking, tolls, fines or damage.', { evidence: 'At least one photo' });

  const id = randomUUID();
  const stored: string[] = [];
  try {
    const evidence = await storeEvidence(ctx, id, booking.id, 'host', files, 0, now, stored);
    await inTransaction(ctx, async (tx) => {
      const total = lines.reduce((sum, l) => sum + l.amount_cents, 0);
      await tx.db
        .insertInto('trip_claims')
        .values({ id, booking_id: booking.id, host_id: booking.owner_id, renter_id: booking.renter_id, claimed_cents: total, host_statement: body.statement, answer_due_at: new Date(tx.now.getTime() + s.answer_hours * HOUR_MS), created_at: tx.now, updated_at: tx.now })
        .execute();
      await tx.db.insertInto('trip_claim_items').values(lines.map((l, position) => ({ claim_id: id, position, ...l }))).execute();
      if (evidence.length) await tx.db.insertInto('trip_claim_evidence').values(evidence).execute();
      tx.emit({ type: 'trip.claim_filed', claim: { id, booking_id: booking.id, booking_number: booking.booking_number, renter_id: booking.renter_id, owner_id: booking.owner_id, amount_cents: total, answer_due_at: new Date(tx.now.getTime() + s.answer_hours * HOUR_MS) } });
    }, { by: viewer });
  } catch (error) {
    await Promise.all(stored.map((key) => ctx.privateFiles.remove(key).catch(() => undefined)));
    throw error;
  }
  return id;
}

async function findClaim(ctx: AppContext, viewer: UserRow, claimId: string): Promise<{ claim: ClaimRow; booking: BookingRecord }> {
  const claim = UUID.test(claimId) ? await ctx.db.selectFrom('trip_claims').selectAll().where('id', '=', claimId).executeTakeFirst() : undefined;
  if (!claim || (claim.renter_id !== viewer.id && claim.host_id !== viewer.id && !isAdmin(viewer))) throw notFound(CLAIM_NOT_FOUND);
  return { claim, booking: await findVisibleBooking(ctx, viewer, claim.booking_id) };
}

/** POST /claims/{id}/answer: the renter accepts (paid at once) or disputes with a statement and photos. */
export async function answerClaim(ctx: AppContext, viewer: UserRow, claimId: string, body: { answer: 'accept' | 'dispute'; statement: string }, files: readonly UploadedFile[]): Promise<string> {
  const { claim, booking } = await findClaim(ctx, viewer, claimId);
  if (claim.renter_id !== viewer.id) throw forbidden('Only the renter of this trip can answer its charges.');
  if (claim.status !== 'awaiting_renter') throw conflict('This claim has already been answered.');
  if (ctx.clock.now().getTime() > new Date(claim.answer_due_at).getTime()) throw conflict('The time to answer has passed: the charges were accepted.');
  if (body.answer === 'accept') {
    await settleClaim(ctx, claim.id, { answer: 'accepted', statement: body.statement || null, actor: viewer });
    return 'accepted';
  }
  if (body.statement.trim().length < 10) throw badRequest('Say why you dispute the charges in at least 10 characters.', { statement: 'At least 10 characters' });
  const stored: string[] = [];
  try {
    const count = await ctx.db.selectFrom('trip_claim_evidence').select(sql<string>`count(*)`.as('n')).where('claim_id', '=', claim.id).executeTakeFirstOrThrow();
    const evidence = await storeEvidence(ctx, claim.id, booking.id, 'renter', files, Number(count.n), ctx.clock.now(), stored);
    await inTransaction(ctx, async (tx) => {
      const updated = await tx.db
        .updateTable('trip_claims')
        .set({ status: 'disputed', renter_answer: 'disputed', renter_statement: body.statement, answered_at: tx.now, updated_at: tx.now })
        .where('id', '=', claim.id)
        .where('status', '=', 'awaiting_renter')
        .returning('id')
        .executeTakeFirst();
      if (!updated) throw conflict('This claim has already been answered.');
      if (evidence.length) await tx.db.insertInto('trip_claim_evidence').values(evidence).execute();
      tx.emit({ type: 'trip.claim_disputed', claim: { id: claim.id, booking_id: booking.id, booking_number: booking.booking_number, renter_id: claim.renter_id, owner_id: claim.host_id, amount_cents: claim.claimed_cents, answer_due_at: claim.answer_due_at } });
    }, { by: viewer });
  } catch (error) {
    await Promise.all(stored.map((key) => ctx.privateFiles.remove(key).catch(() => undefined)));
    throw error;
  }
  return 'disputed';
}

/** PATCH /admin/claims/{id}/decide: an admin chooses the amount of a disputed claim with a reason (audited); it is paid at once. */
export async function decideClaim(ctx: AppContext, admin: UserRow, claimId: string, body: { amount: number; reason: string }): Promise<void> {
  const { claim } = await findClaim(ctx, admin, claimId);
  if (claim.status !== 'disputed') throw conflict('Only a disputed claim can be decided.');
  const cents = Math.round(body.amount * 100);
  if (cents > claim.claimed_cents) throw badRequest('The amount decided cannot be more than the host claimed.', { amount: 'At most what was claimed' });
  await settleClaim(ctx, claim.id, { decidedCents: cents, reason: body.reason, actor: admin });
}

/** One line's part of a claim's payment: from the deposit, from the card, and how it is shared. */
interface LinePayment {
  kind: TripChargeKind;
  fromDepositCents: number;
  fromCardCents: number;
  hostCents: number;
  platformCents: number;
}

/**
 * A claim's amount over its lines in order (each takes what is left, at most its own amount), each
 * line's part from the deposit first and the rest from the card, shared as its kind says; lines
 * that get nothing are left out.
 */
export function spreadOverLines(items: readonly { kind: TripChargeKind; amount_cents: number }[], amountCents: number, fromDepositCents: number, fromCardCents: number, feePercent: number): LinePayment[] {
  const lines: LinePayment[] = [];
  let left = amountCents;
  let depositLeft = fromDepositCents;
  let cardLeft = fromCardCents;
  for (const item of items) {
    const part = Math.min(item.amount_cents, left);
    left -= part;
    const fromDeposit = Math.min(part, depositLeft);
    depositLeft -= fromDeposit;
    const fromCard = Math.min(part - fromDeposit, cardLeft);
    cardLeft -= fromCard;
    if (fromDeposit + fromCard === 0) continue;
    const split = claimSplit(item.kind, fromDeposit + fromCard, feePercent);
    lines.push({ kind: item.kind, fromDepositCents: fromDeposit, fromCardCents: fromCard, hostCents: split.hostCents, platformCents: split.platformCents });
  }
  return lines;
}

/**
 * A card payment of a claim made after its settlement (the payment link): each line's new card
 * part, shared so that with the rows its settlement recorded (`cardBeforeCents` from the card) it
 * makes the line's share of the whole, exactly as if the card had paid at settlement (one rounding
 * per line, not two).
 */
export function spreadLaterCardPayment(items: readonly { kind: TripChargeKind; amount_cents: number }[], amountCents: number, fromDepositCents: number, cardBeforeCents: number, cardCents: number, feePercent: number): LinePayment[] {
  const before = spreadOverLines(items, amountCents, fromDepositCents, cardBeforeCents, feePercent);
  const after = spreadOverLines(items, amountCents, fromDepositCents, cardBeforeCents + cardCents, feePercent);
  return after
    .map((line) => {
      const earlier = before.find((b) => b.kind === line.kind);
      return {
        kind: line.kind,
        fromDepositCents: 0,
        fromCardCents: line.fromCardCents - (earlier?.fromCardCents ?? 0),
        hostCents: line.hostCents - (earlier?.hostCents ?? 0),
        platformCents: line.platformCents - (earlier?.platformCents ?? 0),
      };
    })
    .filter((line) => line.fromCardCents > 0);
}

type Settlement = { answer: 'accepted' | 'unanswered'; statement: string | null; actor: UserRow | null } | { decidedCents: number; reason: string; actor: UserRow };

/**
 * Pays a claim: the amount (claimed, or decided) spread over its lines in their order, each line's
 * part from the deposit first and the rest from the card, and each shared as its kind says. The card
 * is charged before the transaction (a provider call); a decline records the deposit's part and
 * leaves the rest owed. Once only: the conditional UPDATE refuses a second settlement.
 */
async function settleClaim(ctx: AppContext, claimId: string, how: Settlement): Promise<void> {
  const claim = await ctx.db.selectFrom('trip_claims').selectAll().where('id', '=', claimId).executeTakeFirstOrThrow();
  const booking = (await findBookingById(ctx, claim.booking_id))!;
  const s = (await getSettings(ctx)).trip_charges;
  const amount = 'decidedCents' in how ? how.decidedCents : claim.claimed_cents;
  const held = await ledger.depositHeldCents(ctx.db, booking.id);
  const { fromDepositCents, fromCardCents } = claimPayment(amount, held);
  let card: { reference: string | null; error: string | null } = { reference: null, error: null };
  if (fromCardCents > 0) {
    const renter = await ctx.db.selectFrom('users').select('email').where('id', '=', claim.renter_id).executeTakeFirstOrThrow();
    const charged = await chargeSavedCard(ctx, booking, { amountCents: fromCardCents, email: renter.email });
    card = charged.status === 'success' ? { reference: charged.reference, error: null } : { reference: null, error: charged.message };
  }
  const cardPaid = fromCardCents > 0 && card.reference !== null ? fromCardCents : 0;
  const items = await ctx.db.selectFrom('trip_claim_items').selectAll().where('claim_id', '=', claim.id).orderBy('position').execute();
  const returnedAt = checkedOutAt(booking, await recordsOf(ctx, booking.id));
  const release = await inTransaction(ctx, async (tx) => {
    const status = ('decidedCents' in how ? 'disputed' : 'awaiting_renter') as ClaimRow['status'];
    const updated = await tx.db
      .updateTable('trip_claims')
      .set({
        status: 'settled',
        ...('decidedCents' in how
          ? { decided_cents: how.decidedCents, decided_by: how.actor.id, decision_reason: how.reason, decided_at: tx.now }
          : { renter_answer: how.answer, renter_statement: how.statement, answered_at: tx.now }),
        settled_cents: amount,
        from_deposit_cents: fromDepositCents,
        card_cents: cardPaid,
        payment_state: fromCardCents > 0 && !card.reference ? 'card_declined' : 'paid',
        card_reference: card.reference,
        payment_error: card.error,
        settled_at: tx.now,
        updated_at: tx.now,
      })
      .where('id', '=', claim.id)
      .where('status', '=', status)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('This claim has already been settled.');
    for (const line of spreadOverLines(items, amount, fromDepositCents, cardPaid, s.claim_fee_percent)) {
      await ledger.recordClaimPayment(tx.db, { bookingId: booking.id, renterId: booking.renter_id, hostId: booking.owner_id }, tx.now, {
        claimId: claim.id,
        ...line,
        cardReference: card.reference,
        actorId: how.actor?.id ?? null,
      });
    }
    const event = { id: claim.id, booking_id: booking.id, booking_number: booking.booking_number, renter_id: claim.renter_id, owner_id: claim.host_id, amount_cents: amount, answer_due_at: claim.answer_due_at };
    tx.emit({ type: 'trip.claim_settled', claim: event, fromDepositCents, cardCents: cardPaid, owedCents: fromCardCents - cardPaid, cardError: card.error, how: 'decidedCents' in how ? 'decided' : how.answer, ...('decidedCents' in how ? { reason: how.reason } : {}) });
    // Settled after the window closed with nothing else open: the rest of the deposit goes back now.
    return releaseIfDue(ctx, tx, booking, returnedAt, s, tx.now);
  }, { by: how.actor });
  if (release) await askReleaseNow(ctx, release.id);
}

async function releaseIfDue(ctx: AppContext, tx: Parameters<Parameters<typeof inTransaction>[1]>[0], booking: BookingRecord, returnedAt: Date | null, s: TripChargeSettings, now: Date) {
  const { closesAt } = claimWindowOf(booking, returnedAt, s, now);
  if (!closesAt || closesAt.getTime() > now.getTime()) return null;
  const open = await tx.db.selectFrom('trip_claims').select('id').where('booking_id', '=', booking.id).where('status', 'in', ['awaiting_renter', 'disputed']).executeTakeFirst();
  if (open) return null;
  return releaseDeposit(ctx, tx, booking, 'Your deposit back: the time for trip charges has closed.');
}

/** Claims the renter did not answer in time are accepted and paid (the sweep job; tests call it). */
export async function settleOverdueClaims(ctx: AppContext): Promise<number> {
  const due = await ctx.db.selectFrom('trip_claims').select('id').where('status', '=', 'awaiting_renter').where('answer_due_at', '<', ctx.clock.now()).orderBy('answer_due_at').limit(200).execute();
  let settled = 0;
  for (const { id } of due) {
    try {
      await settleClaim(ctx, id, { answer: 'unanswered', statement: null, actor: null });
      settled += 1;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode !== 409) throw error;
    }
  }
  return settled;
}

/**
 * Deposits whose claim window has closed with no claim open: what is left of each goes back (the
 * sweep job; tests call it). Completed trips holding a deposit only, oldest return first.
 */
export async function releaseDueDeposits(ctx: AppContext): Promise<number> {
  const s = (await getSettings(ctx)).trip_charges;
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - s.claim_window_hours * HOUR_MS);
  const candidates = await ctx.db
    .selectFrom('bookings as b')
    .select('b.id')
    .where('b.status', '=', 'completed')
    .where('b.deposit_cents', '>', 0)
    .where(sql<boolean>`coalesce(b.actual_return_date, b.completed_at) <= ${cutoff}`)
    .where(({ exists, selectFrom, not }) => not(exists(selectFrom('trip_claims as c').select('c.id').whereRef('c.booking_id', '=', 'b.id').where('c.status', 'in', ['awaiting_renter', 'disputed']))))
    .where(sql<boolean>`(SELECT coalesce(sum(CASE WHEN l.kind = 'deposit' THEN l.amount_cents WHEN l.kind = 'deposit_applied' THEN -l.amount_cents WHEN l.kind = 'refund' AND l.code = 'deposit_release' THEN -l.amount_cents ELSE 0 END), 0) FROM ledger_entries l WHERE l.booking_id = b.id) > 0`)
    .orderBy(sql`coalesce(b.actual_return_date, b.completed_at)`)
    .limit(200)
    .execute();
  let released = 0;
  for (const { id } of candidates) {
    const booking = await findBookingById(ctx, id);
    if (!booking) continue;
    const returnedAt = checkedOutAt(booking, await recordsOf(ctx, booking.id));
    const release = await inTransaction(ctx, (tx) => releaseIfDue(ctx, tx, booking, returnedAt, s, now));
    if (release) {
      await askReleaseNow(ctx, release.id);
      released += 1;
    }
  }
  return released;
}

// ---- The payment link of a declined card (decision 073) ----

/** What a settled claim still owes: what was settled less what the deposit and the card paid. */
const owedCentsOf = (c: Pick<ClaimRow, 'settled_cents' | 'from_deposit_cents' | 'card_cents'>) => (c.settled_cents === null ? 0 : c.settled_cents - c.from_deposit_cents - c.card_cents);

/** Why a claim cannot be paid by link now, or null. */
function linkRefusal(claim: ClaimRow): string | null {
  if (claim.status === 'awaiting_renter') return 'These trip charges are not due yet: accept them (paid from your deposit first) or dispute them.';
  if (claim.status === 'disputed') return 'These trip charges are disputed: Karoo will decide an amount first.';
  if (claim.status === 'withdrawn') return 'These trip charges were withdrawn.';
  if (claim.payment_state !== 'card_declined' || owedCentsOf(claim) <= 0) return 'These trip charges are already paid.';
  return null;
}

async function findPayableClaim(ctx: AppContext, viewer: UserRow, claimId: string) {
  const found = await findClaim(ctx, viewer, claimId);
  // As the booking's own payment: its host and admins see it, only its renter pays.
  if (found.claim.renter_id !== viewer.id) throw forbidden('Only the renter of this trip can pay its charges.');
  return found;
}

/** POST /claims/{id}/payment: the renter's checkout of what a declined card left owed (the amount is the claim's, never the client's); asked again, the open one. */
export async function startClaimPayment(ctx: AppContext, viewer: UserRow, claimId: string): Promise<PaymentSession> {
  const { claim, booking } = await findPayableClaim(ctx, viewer, claimId);
  const refusal = linkRefusal(claim);
  if (refusal) throw conflict(refusal);
  return openClaimCheckout(ctx, { claimId: claim.id, booking, amountCents: owedCentsOf(claim), email: viewer.email });
}

/** POST /claims/{id}/payment/verify: the renter reports the link's reference (after Paystack's pop-up); verified, then recorded once. */
export async function confirmClaimPayment(ctx: AppContext, viewer: UserRow, claimId: string, reference: string): Promise<void> {
  const { claim } = await findPayableClaim(ctx, viewer, claimId);
  // The same reference again (a second verify, after the webhook or the sandbox recorded it): already paid by it.
  if (claim.card_reference === reference && claim.payment_state === 'paid') return;
  await verifyClaimPayment(ctx, claim.id, reference, recordClaimCardPayment);
}

/**
 * A verified charge of a claim's link (the payments module's transaction, its payment row locked):
 * the claim is paid, once, and its card part recorded over its lines as settleClaim records a card
 * payment; both parties are told. The same reference again answers 'paid' and records nothing; a
 * claim no longer owing exactly this (paid by another charge) answers 'not_owed', and the charge is refunded.
 */
export const recordClaimCardPayment: ClaimChargeHandler = async (ctx, tx, charge) => {
  const claim = await tx.db.selectFrom('trip_claims as c').innerJoin('bookings as b', 'b.id', 'c.booking_id').selectAll('c').select('b.booking_number').where('c.id', '=', charge.claimId).executeTakeFirst();
  if (!claim) return { kind: 'not_owed', reason: 'These trip charges are not known.' };
  if (claim.card_reference === charge.reference) return { kind: 'paid' };
  const owed = owedCentsOf(claim);
  if (claim.payment_state !== 'card_declined' || owed <= 0) return { kind: 'not_owed', reason: 'These trip charges were already paid.' };
  if (owed !== charge.amountCents) return { kind: 'not_owed', reason: 'The amount paid does not match what is owed on these trip charges.' };
  // Once only: a second charge (another reference) finds it paid and is refunded.
  const updated = await tx.db
    .updateTable('trip_claims')
    .set({ payment_state: 'paid', card_cents: claim.card_cents + owed, card_reference: charge.reference, payment_error: null, updated_at: tx.now })
    .where('id', '=', claim.id)
    .where('payment_state', '=', 'card_declined')
    .where('card_cents', '=', claim.card_cents)
    .returning('id')
    .executeTakeFirst();
  if (!updated) return { kind: 'not_owed', reason: 'These trip charges were already paid.' };
  const s = (await getSettings(ctx, tx.db)).trip_charges;
  const items = await tx.db.selectFrom('trip_claim_items').selectAll().where('claim_id', '=', claim.id).orderBy('position').execute();
  for (const line of spreadLaterCardPayment(items, claim.settled_cents!, claim.from_deposit_cents, claim.card_cents, owed, s.claim_fee_percent)) {
    await ledger.recordClaimPayment(tx.db, { bookingId: claim.booking_id, renterId: claim.renter_id, hostId: claim.host_id }, tx.now, { claimId: claim.id, ...line, cardReference: charge.reference, actorId: claim.renter_id });
  }
  tx.emit({
    type: 'trip.claim_paid',
    claim: { id: claim.id, booking_id: claim.booking_id, booking_number: claim.booking_number, renter_id: claim.renter_id, owner_id: claim.host_id, amount_cents: claim.settled_cents!, answer_due_at: claim.answer_due_at },
    cardCents: owed,
    reference: charge.reference,
  });
  return { kind: 'paid' };
};

// ---- Reading ----

export interface ClaimView {
  id: string;
  booking_id: string;
  booking_number: string;
  status: ClaimRow['status'];
  claimed: number;
  host_statement: string;
  answer_due_at: string;
  renter_answer: ClaimRow['renter_answer'];
  renter_statement: string | null;
  decided: number | null;
  decision_reason: string | null;
  settled: number | null;
  from_deposit: number;
  from_card: number;
  owed: number;
  payment_state: ClaimRow['payment_state'];
  payment_error: string | null;
  created_at: string;
  items: { kind: TripChargeKind; label: string; amount: number; detail: string; note: string }[];
  evidence: { id: string; party: 'host' | 'renter'; url: string }[];
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

async function toViews(ctx: AppContext, claims: readonly (ClaimRow & { booking_number: string })[]): Promise<ClaimView[]> {
  if (claims.length === 0) return [];
  const ids = claims.map((c) => c.id);
  const [items, evidence] = await Promise.all([
    ctx.db.selectFrom('trip_claim_items').selectAll().where('claim_id', 'in', ids).orderBy('position').execute(),
    ctx.db.selectFrom('trip_claim_evidence').select(['id', 'claim_id', 'party']).where('claim_id', 'in', ids).orderBy('position').execute(),
  ]);
  return claims.map((c) => ({
    id: c.id,
    booking_id: c.booking_id,
    booking_number: c.booking_number,
    status: c.status,
    claimed: c.claimed_cents / 100,
    host_statement: c.host_statement,
    answer_due_at: iso(c.answer_due_at)!,
    renter_answer: c.renter_answer,
    renter_statement: c.renter_statement,
    decided: c.decided_cents === null ? null : c.decided_cents / 100,
    decision_reason: c.decision_reason,
    settled: c.settled_cents === null ? null : c.settled_cents / 100,
    from_deposit: c.from_deposit_cents / 100,
    from_card: c.card_cents / 100,
    owed: owedCentsOf(c) / 100,
    payment_state: c.payment_state,
    payment_error: c.payment_error,
    created_at: iso(c.created_at)!,
    items: items.filter((i) => i.claim_id === c.id).map((i) => ({ kind: i.kind, label: TRIP_CHARGE_LABELS[i.kind], amount: i.amount_cents / 100, detail: i.detail, note: i.note })),
    evidence: evidence.filter((e) => e.claim_id === c.id).map((e) => ({ id: e.id, party: e.party, url: `/api/claim-evidence/${e.id}` })),
  }));
}

function claimsQuery(ctx: AppContext) {
  return ctx.db.selectFrom('trip_claims as c').innerJoin('bookings as b', 'b.id', 'c.booking_id').selectAll('c').select('b.booking_number');
}

export interface BookingClaims {
  claims: ClaimView[];
  deposit: { taken: number; held: number; released: number; applied: number };
  window: { closes_at: string | null; open: boolean; refusal: string | null };
  /** The computed lines the host's form prefills (the host only, while the window is open). */
  computed: { kind: TripChargeKind; label: string; amount: number; detail: string }[];
  missing: Partial<Record<TripChargeKind, string>>;
}

/** GET /booking/{id}/claims: a booking's claims, its deposit and the window (its host, its renter, admins). */
export async function bookingClaims(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<BookingClaims> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  const s = (await getSettings(ctx)).trip_charges;
  const rows = await claimsQuery(ctx).where('c.booking_id', '=', booking.id).orderBy('c.created_at').execute();
  const money = ledger.sumBookingMoney(await ledger.entriesOfBookings(ctx.db, [booking.id]));
  const { closesAt, refusal } = claimWindowOf(booking, checkedOutAt(booking, await recordsOf(ctx, booking.id)), s, ctx.clock.now());
  const isHost = booking.owner_id === viewer.id;
  const computed = isHost && !refusal ? await computeCharges(ctx, booking, s) : { charges: [], missing: {} };
  return {
    claims: await toViews(ctx, rows),
    deposit: { taken: money.depositCents / 100, held: money.depositHeldCents / 100, released: money.depositReleasedCents / 100, applied: money.depositAppliedCents / 100 },
    window: { closes_at: iso(closesAt), open: !refusal, refusal },
    computed: computed.charges.map((c) => ({ kind: c.kind, label: TRIP_CHARGE_LABELS[c.kind], amount: c.amount_cents / 100, detail: c.detail })),
    missing: computed.missing,
  };
}

export async function claimView(ctx: AppContext, viewer: UserRow, claimId: string): Promise<ClaimView> {
  const { claim } = await findClaim(ctx, viewer, claimId);
  const [view] = await toViews(ctx, await claimsQuery(ctx).where('c.id', '=', claim.id).execute());
  return view!;
}

/** GET /admin/claims: claims in a state, oldest first (disputed ones await a decision). */
export async function listClaimsForAdmin(ctx: AppContext, status: ClaimRow['status']): Promise<ClaimView[]> {
  return toViews(ctx, await claimsQuery(ctx).where('c.status', '=', status).orderBy('c.created_at').limit(200).execute());
}

/** GET /claim-evidence/{id}: a claim's photo (its host, its renter, admins). */
export async function readEvidence(ctx: AppContext, viewer: UserRow, evidenceId: string): Promise<{ data: Buffer; mime: string }> {
  const row = UUID.test(evidenceId) ? await ctx.db.selectFrom('trip_claim_evidence').selectAll().where('id', '=', evidenceId).executeTakeFirst() : undefined;
  if (!row) throw notFound('Photo not found');
  await findClaim(ctx, viewer, row.claim_id).catch(() => {
    throw notFound('Photo not found');
  });
  const data = await ctx.privateFiles.read(row.storage_key);
  if (!data) throw notFound('Photo not found');
  return { data, mime: row.mime_type };
}
