// The ledger (migration 0020; docs/decisions/039-one-ledger.md): every rand that moves on Karoo is
// one row here, and every money figure is a sum of rows. This module alone writes the table; the
// payments, earnings and bookings code (and the demo seed) record movements through these functions.
//
// A booking's rows always balance: what the renter was charged equals what was refunded (or is being
// refunded) plus the host's share plus the platform's share. A charge is shared when it pays for a
// trip (recordTripCharge); a cancellation corrects the shares and records the refund and any fee
// (recordCancellation); a charge that cannot stay on its booking is refunded whole and never shared.
import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/connection';
import type { LedgerEntriesTable, LedgerKind, LedgerState } from '../../db/schema';
import { COUNTS_FOR_HOST, HOST_BALANCE_PART, PAID_OUT_PART, refundRetried, refundStillOwed } from './ledger.rules';

export type LedgerEntry = Selectable<LedgerEntriesTable>;

/** Whose money a row moves: the booking and its two parties. */
export interface LedgerParties {
  bookingId: string;
  renterId: string;
  hostId: string;
}

/** A booking's stored price, as the shares of its charge are computed from it (decisions.md section 5). */
export interface ChargeBreakdown {
  totalCents: number;
  serviceFeeCents: number;
  insuranceFeeCents: number;
  hostEarningsCents: number;
}

interface NewEntry {
  kind: LedgerKind;
  code: string;
  amountCents: number;
  state?: LedgerState;
  movedAt: Date | null;
  chargeReference?: string | null;
  providerReference?: string | null;
  reason?: string | null;
  actorId?: string | null;
}

async function insertEntries(db: Db, parties: LedgerParties, recordedAt: Date, entries: NewEntry[]): Promise<LedgerEntry[]> {
  const rows = entries.filter((e) => e.amountCents !== 0);
  if (rows.length === 0) return [];
  return db
    .insertInto('ledger_entries')
    .values(
      rows.map((e) => ({
        booking_id: parties.bookingId,
        renter_id: parties.renterId,
        host_id: parties.hostId,
        kind: e.kind,
        code: e.code,
        amount_cents: e.amountCents,
        state: e.state ?? 'succeeded',
        moved_at: e.movedAt,
        recorded_at: recordedAt,
        charge_reference: e.chargeReference ?? null,
        provider_reference: e.providerReference ?? null,
        reason: e.reason ?? null,
        actor_id: e.actorId ?? null,
      })),
    )
    .returningAll()
    .execute();
}

/** The platform's part of a charge, by what it is for: the service fee, insurance and the host fee on rental and pickup. */
function platformParts(b: ChargeBreakdown) {
  const hostFee = b.totalCents - b.hostEarningsCents - b.serviceFeeCents - b.insuranceFeeCents;
  return [
    { code: 'service_fee', amountCents: b.serviceFeeCents },
    { code: 'insurance', amountCents: b.insuranceFeeCents },
    { code: 'host_fee', amountCents: hostFee },
  ];
}

/** A charge that paid for a trip, and how it is shared: the host's earnings and the platform's fees, all at the moment it was paid. */
export function recordTripCharge(
  db: Db,
  parties: LedgerParties,
  charge: { reference: string | null; at: Date; breakdown: ChargeBreakdown; depositCents?: number },
): Promise<LedgerEntry[]> {
  const { reference, at, breakdown } = charge;
  return insertEntries(db, parties, at, [
    { kind: 'charge', code: 'trip', amountCents: breakdown.totalCents, movedAt: at, chargeReference: reference },
    // The deposit, taken in the same card charge: its own kind, held for the renter, never revenue (decision 064).
    { kind: 'deposit', code: 'held', amountCents: charge.depositCents ?? 0, movedAt: at, chargeReference: reference },
    { kind: 'host_earning', code: 'trip', amountCents: breakdown.hostEarningsCents, movedAt: at, chargeReference: reference },
    ...platformParts(breakdown).map((p) => ({ kind: 'platform_fee' as const, ...p, movedAt: at, chargeReference: reference })),
  ]);
}

/** A charge that cannot stay on its booking: taken in, and its refund asked for (pending until the provider accepts it). */
export async function recordRefundedCharge(
  db: Db,
  parties: LedgerParties,
  charge: { reference: string; amountCents: number; at: Date; code: string; reason: string; chargeCode?: 'trip' | 'claim' | 'trip_change' },
): Promise<LedgerEntry> {
  const [, refund] = await insertEntries(db, parties, charge.at, [
    { kind: 'charge', code: charge.chargeCode ?? 'trip', amountCents: charge.amountCents, movedAt: charge.at, chargeReference: charge.reference },
    { kind: 'refund', code: charge.code, amountCents: charge.amountCents, state: 'pending', movedAt: null, chargeReference: charge.reference, reason: charge.reason },
  ]);
  return refund!;
}

/** A refund asked for again after the last one failed (an administrator's Retry): a new pending row; the failed one stays as it was. */
export async function recordRefundRetry(db: Db, failed: LedgerEntry, at: Date, actorId: string): Promise<LedgerEntry> {
  const [refund] = await insertEntries(db, partiesOf(failed), at, [
    { kind: 'refund', code: failed.code, amountCents: failed.amount_cents, state: 'pending', movedAt: null, chargeReference: failed.charge_reference, reason: failed.reason, actorId },
  ]);
  return refund!;
}

const partiesOf = (e: Pick<LedgerEntry, 'booking_id' | 'renter_id' | 'host_id'>): LedgerParties => ({ bookingId: e.booking_id, renterId: e.renter_id, hostId: e.host_id });

/** How a paid trip's cancellation moves its money (the shared policy's outcome, in cents). */
export interface CancellationMoney {
  chargeReference: string | null;
  /** Back to the renter's card (pending until the provider accepts it). */
  refundCents: number;
  refundCode: string;
  refundReason: string;
  /** The refund split over the trip's card charges (a changed trip may have more than one); one row of refundCents against chargeReference when absent. */
  refundParts?: { reference: string | null; amountCents: number }[];
  /** The shares of the charge as recorded so far (they are taken back whole). */
  shares: { hostCents: number; platformByCode: Record<string, number> };
  /** The fee kept from the renter, shared: the host's part and the platform's. */
  feeHostCents: number;
  feePlatformCents: number;
  /** Charged to the host for cancelling; deducted from their payouts. */
  penaltyCents: number;
  penaltyCode: string;
  actorId: string | null;
}

/**
 * A paid trip cancelled: its shares are taken back, the fee kept (if any) is shared anew, the
 * refund is asked for and a host's penalty recorded. The rows still balance: charge = refund +
 * host share + platform share.
 */
export async function recordCancellation(db: Db, parties: LedgerParties, at: Date, money: CancellationMoney): Promise<{ refund: LedgerEntry | undefined; refunds: LedgerEntry[] }> {
  const ref = money.chargeReference;
  const actorId = money.actorId;
  const rows = await insertEntries(db, parties, at, [
    { kind: 'host_earning', code: 'trip_cancelled', amountCents: -money.shares.hostCents, movedAt: at, chargeReference: ref, actorId },
    ...Object.entries(money.shares.platformByCode).map(([code, cents]) => ({
      kind: 'platform_fee' as const,
      code: `${code}_cancelled`,
      amountCents: -cents,
      movedAt: at,
      chargeReference: ref,
      actorId,
    })),
    { kind: 'host_earning', code: 'cancellation_fee', amountCents: money.feeHostCents, movedAt: at, chargeReference: ref, actorId },
    { kind: 'platform_fee', code: 'cancellation_fee', amountCents: money.feePlatformCents, movedAt: at, chargeReference: ref, actorId },
    { kind: 'host_penalty', code: money.penaltyCode, amountCents: money.penaltyCents, movedAt: at, actorId },
    ...(money.refundParts ?? [{ reference: ref, amountCents: money.refundCents }]).map((part) => ({
      kind: 'refund' as const,
      code: money.refundCode,
      amountCents: part.amountCents,
      state: 'pending' as const,
      movedAt: null,
      chargeReference: part.reference,
      reason: money.refundReason,
      actorId,
    })),
  ]);
  const refunds = rows.filter((r) => r.kind === 'refund');
  return { refund: refunds[0], refunds };
}

// ---- Deposits and trip charges (decisions 064, 065) ----

/** The code of a deposit's release: a refund of the trip's charge, on the refund queue. */
export const DEPOSIT_RELEASE_CODE = 'deposit_release';

/** The code of a cancellation fee given back under CPA s. 17 (decision 067): its shares taken back and its refund. */
export const CPA_WAIVER_CODE = 'cpa_s17_waiver';

/**
 * What is still held of a booking's deposit: taken in, less what was released (asked for, paid
 * back, or failed and still owed: an administrator's Retry is a new row that takes its place) and
 * what paid claims.
 */
export async function depositHeldCents(db: Db, bookingId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries as l')
    .select(
      sql<string>`coalesce(sum(CASE
        WHEN l.kind = 'deposit' THEN l.amount_cents
        WHEN l.kind = 'deposit_applied' THEN -l.amount_cents
        WHEN l.kind = 'refund' AND l.code = ${DEPOSIT_RELEASE_CODE} AND (l.state <> 'failed' OR NOT ${refundRetried('l')}) THEN -l.amount_cents
        ELSE 0 END), 0)`.as('held'),
    )
    .where('booking_id', '=', bookingId)
    .executeTakeFirstOrThrow();
  return Number(row.held);
}

/** The card charge a booking's deposit was taken with (its refunds go back to it). */
export async function depositChargeReference(db: Db, bookingId: string): Promise<string | null> {
  const row = await db.selectFrom('ledger_entries').select('charge_reference').where('booking_id', '=', bookingId).where('kind', '=', 'deposit').orderBy('seq').executeTakeFirst();
  return row?.charge_reference ?? null;
}

/** Gives back what is held of a deposit (all of it, or the part no claim took): a pending refund of its charge. */
export async function recordDepositRelease(db: Db, parties: LedgerParties, release: { amountCents: number; chargeReference: string | null; at: Date; reason: string; actorId?: string | null }): Promise<LedgerEntry | undefined> {
  const [row] = await insertEntries(db, parties, release.at, [
    {
      kind: 'refund',
      code: DEPOSIT_RELEASE_CODE,
      amountCents: release.amountCents,
      state: 'pending',
      movedAt: null,
      chargeReference: release.chargeReference,
      reason: release.reason,
      actorId: release.actorId ?? null,
    },
  ]);
  return row;
}

/** One charge of a settled claim, paid: from the deposit and from the card, and shared (the host's part and the platform's fee). */
export interface ClaimMoney {
  claimId: string;
  kind: string;
  fromDepositCents: number;
  fromCardCents: number;
  cardReference: string | null;
  hostCents: number;
  platformCents: number;
  actorId: string | null;
}

/**
 * A claim's charge paid: the part from the deposit moves out of it (deposit_applied), the part from
 * the card is a charge of its own, and the whole is shared: host_earning 'claim_<kind>' and
 * platform_fee 'claim_fee'. The rows balance: applied + charged = host share + platform share.
 */
export function recordClaimPayment(db: Db, parties: LedgerParties, at: Date, m: ClaimMoney): Promise<LedgerEntry[]> {
  const reason = `claim ${m.claimId}`;
  return insertEntries(db, parties, at, [
    { kind: 'deposit_applied', code: `claim_${m.kind}`, amountCents: m.fromDepositCents, movedAt: at, reason, actorId: m.actorId },
    { kind: 'charge', code: 'claim', amountCents: m.fromCardCents, movedAt: at, chargeReference: m.cardReference, reason, actorId: m.actorId },
    { kind: 'host_earning', code: `claim_${m.kind}`, amountCents: m.hostCents, movedAt: at, reason, actorId: m.actorId },
    { kind: 'platform_fee', code: 'claim_fee', amountCents: m.platformCents, movedAt: at, reason, actorId: m.actorId },
  ]);
}

/** A pending refund the provider accepted: the money moved now. False when it was not pending (settled by another attempt). */
export async function settleRefund(db: Db, id: string, accepted: { providerReference: string | null; at: Date }): Promise<boolean> {
  const row = await db
    .updateTable('ledger_entries')
    .set({ state: 'succeeded', moved_at: accepted.at, provider_reference: accepted.providerReference, last_error: null, locked_until: null, next_attempt_at: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes a pending refund for one attempt: one conditional UPDATE, so one instance at a time asks the
 * provider for it (the lease passes if that instance dies). Undefined when it is not pending or
 * another attempt holds it.
 */
export function claimRefund(db: Db, id: string, now: Date, leaseUntil: Date): Promise<LedgerEntry | undefined> {
  return db
    .updateTable('ledger_entries')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), locked_until: leaseUntil }))
    .where('id', '=', id)
    .where('kind', '=', 'refund')
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returningAll()
    .executeTakeFirst();
}

/** The provider refused: the error is kept on the pending row, and when to ask again. */
export async function noteRefundError(db: Db, id: string, error: string, nextAttemptAt: Date): Promise<void> {
  await db
    .updateTable('ledger_entries')
    .set({ last_error: error.slice(0, 500), next_attempt_at: nextAttemptAt, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** The provider accepted the refund (its id kept) and has not paid it out yet: checked again later. */
export async function noteRefundAccepted(db: Db, id: string, providerReference: string | null, nextCheckAt: Date): Promise<void> {
  await db
    .updateTable('ledger_entries')
    .set({ provider_reference: providerReference, last_error: null, next_attempt_at: nextCheckAt, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .execute();
}

/** A pending refund by the provider's id of it, or else by its charge and amount (a provider's webhook names one of them). */
export function findPendingRefund(db: Db, match: { providerReference?: string; chargeReference?: string; amountCents?: number }): Promise<LedgerEntry | undefined> {
  let query = db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'refund').where('state', '=', 'pending');
  if (match.providerReference) query = query.where('provider_reference', '=', match.providerReference);
  else if (match.chargeReference && match.amountCents !== undefined) query = query.where('charge_reference', '=', match.chargeReference).where('amount_cents', '=', match.amountCents);
  else return Promise.resolve(undefined);
  return query.orderBy('seq').executeTakeFirst();
}

/**
 * Pending refunds whose next ask is overdue by more than 5 minutes, or was never set: no job is on
 * its way for them (their job ran out of tries while the provider was still paying out, or they were
 * recorded before the queue). Oldest first, at most 500 a sweep.
 */
export async function waitingRefunds(db: Db, now: Date): Promise<string[]> {
  const overdue = new Date(now.getTime() - 5 * 60_000);
  const rows = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where('kind', '=', 'refund')
    .where('state', '=', 'pending')
    .where((eb) => eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', overdue)]))
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .orderBy('recorded_at')
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/** The last attempt failed: the refund ends failed, for an administrator to see and retry. */
export async function failRefund(db: Db, id: string, error: string): Promise<boolean> {
  const row = await db
    .updateTable('ledger_entries')
    .set({ state: 'failed', last_error: error.slice(0, 500), locked_until: null, next_attempt_at: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A payout made to the host for one booking (an administrator marked it paid). */
export async function recordPayout(db: Db, parties: LedgerParties, payout: { amountCents: number; reference: string | null; at: Date; actorId: string }): Promise<void> {
  await insertEntries(db, parties, payout.at, [
    { kind: 'payout', code: 'trip', amountCents: payout.amountCents, movedAt: payout.at, providerReference: payout.reference, actorId: payout.actorId },
  ]);
}

/** A payout taken back (an administrator's audited reversal). */
export async function recordPayoutReversal(db: Db, parties: LedgerParties, reversal: { amountCents: number; reference: string | null; reason: string; at: Date; actorId: string }): Promise<void> {
  await insertEntries(db, parties, reversal.at, [
    {
      kind: 'payout_reversal',
      code: 'trip',
      amountCents: reversal.amountCents,
      movedAt: reversal.at,
      providerReference: reversal.reference,
      reason: reversal.reason,
      actorId: reversal.actorId,
    },
  ]);
}

// ---- Reading ----

export function findEntry(db: Db, id: string): Promise<LedgerEntry | undefined> {
  return db.selectFrom('ledger_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every row of these bookings, in the order they were written. */
export function entriesOfBookings(db: Db, bookingIds: readonly string[]): Promise<LedgerEntry[]> {
  if (bookingIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('ledger_entries').selectAll().where('booking_id', 'in', bookingIds).orderBy('seq').execute();
}

/** A booking's money, as sums of its rows. */
export interface BookingMoney {
  /** Charges that took money. */
  chargedCents: number;
  /** Refunds the provider accepted. */
  refundedCents: number;
  /** Refunds asked for and not yet accepted. */
  refundPendingCents: number;
  /** Refunds that failed (each shown with a Retry to administrators). */
  refundFailedCents: number;
  hostShareCents: number;
  platformShareCents: number;
  /** Of the shares, what comes from a cancellation fee. */
  cancellationFeeCents: number;
  hostPenaltyCents: number;
  /** Paid to the host, net of reversals. */
  paidOutCents: number;
  /** The deposit taken with the trip's charge. */
  depositCents: number;
  /** Of the deposit, what was given back (or is being) and what paid claims; held is the rest. */
  depositReleasedCents: number;
  depositAppliedCents: number;
  depositHeldCents: number;
  /** Trip charges paid by card after the trip (beyond the deposit). */
  claimChargedCents: number;
}

const EMPTY_MONEY: BookingMoney = {
  chargedCents: 0,
  refundedCents: 0,
  refundPendingCents: 0,
  refundFailedCents: 0,
  hostShareCents: 0,
  platformShareCents: 0,
  cancellationFeeCents: 0,
  hostPenaltyCents: 0,
  paidOutCents: 0,
  depositCents: 0,
  depositReleasedCents: 0,
  depositAppliedCents: 0,
  depositHeldCents: 0,
  claimChargedCents: 0,
};

/** Sums the rows of one booking (the entries given, in any order). */
export function sumBookingMoney(entries: readonly Pick<LedgerEntry, 'kind' | 'code' | 'state' | 'amount_cents'>[]): BookingMoney {
  const m = { ...EMPTY_MONEY };
  for (const e of entries) {
    const cents = Number(e.amount_cents);
    switch (e.kind) {
      case 'charge':
        m.chargedCents += cents;
        if (e.code === 'claim') m.claimChargedCents += cents;
        break;
      case 'deposit':
        m.depositCents += cents;
        break;
      case 'deposit_applied':
        m.depositAppliedCents += cents;
        break;
      case 'refund':
        // Failed releases too: still owed to the renter (the rows given should not hold one and its Retry both).
        if (e.code === DEPOSIT_RELEASE_CODE) m.depositReleasedCents += cents;
        if (e.state === 'succeeded') m.refundedCents += cents;
        else if (e.state === 'pending') m.refundPendingCents += cents;
        else m.refundFailedCents += cents;
        break;
      case 'host_earning':
        m.hostShareCents += cents;
        if (e.code === 'cancellation_fee' || e.code === CPA_WAIVER_CODE || e.code === CHANGE_FEE_CODE) m.cancellationFeeCents += cents;
        break;
      case 'platform_fee':
        m.platformShareCents += cents;
        if (e.code === 'cancellation_fee' || e.code === CPA_WAIVER_CODE || e.code === CHANGE_FEE_CODE) m.cancellationFeeCents += cents;
        break;
      case 'host_penalty':
        m.hostPenaltyCents += cents;
        break;
      case 'payout':
        m.paidOutCents += cents;
        break;
      case 'payout_reversal':
        m.paidOutCents -= cents;
        break;
    }
  }
  m.depositHeldCents = m.depositCents - m.depositReleasedCents - m.depositAppliedCents;
  return m;
}

/** The money of each of these bookings, by booking id (bookings without rows are absent). */
export async function moneyOfBookings(db: Db, bookingIds: readonly string[]): Promise<Map<string, BookingMoney>> {
  const byBooking = new Map<string, LedgerEntry[]>();
  for (const e of await entriesOfBookings(db, bookingIds)) {
    const list = byBooking.get(e.booking_id) ?? [];
    list.push(e);
    byBooking.set(e.booking_id, list);
  }
  return new Map([...byBooking].map(([id, entries]) => [id, sumBookingMoney(entries)]));
}

/** The current shares of a booking's charge: the host's, and the platform's by code (before a cancellation corrects them). */
export async function sharesOfBooking(db: Db, bookingId: string, options: { exceptCodes?: readonly string[] } = {}): Promise<{ hostCents: number; platformByCode: Record<string, number> }> {
  const except = options.exceptCodes ?? [];
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['kind', 'code', sql<string>`sum(amount_cents)`.as('cents')])
    .where('booking_id', '=', bookingId)
    .where('kind', 'in', ['host_earning', 'platform_fee'])
    .$if(except.length > 0, (q) => q.where('code', 'not in', except))
    .groupBy(['kind', 'code'])
    .execute();
  const shares = { hostCents: 0, platformByCode: {} as Record<string, number> };
  for (const r of rows) {
    const cents = Number(r.cents);
    if (r.kind === 'host_earning') shares.hostCents += cents;
    else if (!r.code.endsWith('_cancelled')) shares.platformByCode[r.code] = (shares.platformByCode[r.code] ?? 0) + cents;
    else {
      const base = r.code.slice(0, -'_cancelled'.length);
      shares.platformByCode[base] = (shares.platformByCode[base] ?? 0) + cents;
    }
  }
  for (const [code, cents] of Object.entries(shares.platformByCode)) if (cents === 0) delete shares.platformByCode[code];
  return shares;
}

/**
 * What a host is owed, as ledger sums: their shares of final trips (completed, or cancelled with a
 * fee kept) less penalties, less what was paid out or is being paid, plus what was reversed.
 * Negative while a penalty exceeds what they earned: nothing is payable then, and the rest is
 * deducted later.
 */
export async function hostBalanceCents(db: Db, hostId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries as l')
    .innerJoin('bookings as b', 'b.id', 'l.booking_id')
    .where('l.host_id', '=', hostId)
    .where(COUNTS_FOR_HOST)
    .select(
      sql<string>`coalesce(sum(${HOST_BALANCE_PART}), 0)`.as('balance'),
    )
    .executeTakeFirstOrThrow();
  return Number(row.balance);
}

// ---- Transfers (payouts module, decision 068): one transfer pays some of a host's bookings ----

/** A transfer sent: a pending payout row per booking it pays, naming the transfer's reference. */
export async function recordTransferPayouts(db: Db, lines: { parties: LedgerParties; amountCents: number }[], transfer: { reference: string; at: Date; actorId?: string | null }): Promise<void> {
  for (const line of lines) {
    await insertEntries(db, line.parties, transfer.at, [
      { kind: 'payout', code: 'transfer', amountCents: line.amountCents, state: 'pending', movedAt: null, providerReference: transfer.reference, actorId: transfer.actorId ?? null },
    ]);
  }
}

/** The provider paid the transfer: its payout rows moved now. The number of rows settled (0 when they were not pending). */
export async function settleTransferPayouts(db: Db, reference: string, at: Date): Promise<number> {
  const rows = await db
    .updateTable('ledger_entries')
    .set({ state: 'succeeded', moved_at: at, last_error: null })
    .where('kind', '=', 'payout')
    .where('provider_reference', '=', reference)
    .where('state', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length;
}

/** The transfer failed: its payout rows failed (the money is owed again). */
export async function failTransferPayouts(db: Db, reference: string, error: string): Promise<number> {
  const rows = await db
    .updateTable('ledger_entries')
    .set({ state: 'failed', last_error: error.slice(0, 500) })
    .where('kind', '=', 'payout')
    .where('provider_reference', '=', reference)
    .where('state', '=', 'pending')
    .returning('id')
    .execute();
  return rows.length;
}

/** A paid transfer the bank returned: a payout_reversal row for each of its payout rows, once. */
export async function recordTransferReversal(db: Db, reference: string, reversal: { reason: string; at: Date }): Promise<number> {
  const already = await db.selectFrom('ledger_entries').select('id').where('kind', '=', 'payout_reversal').where('provider_reference', '=', reference).executeTakeFirst();
  if (already) return 0;
  const paid = await db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'payout').where('provider_reference', '=', reference).where('state', '=', 'succeeded').orderBy('seq').execute();
  for (const row of paid) {
    await insertEntries(db, partiesOf(row), reversal.at, [
      { kind: 'payout_reversal', code: 'transfer_reversed', amountCents: Number(row.amount_cents), movedAt: reversal.at, providerReference: reference, reason: reversal.reason },
    ]);
  }
  return paid.length;
}

/** A host's penalties and what was paid to them or is being paid (net of reversals), all time. */
export async function hostPayoutTotals(db: Db, hostId: string): Promise<{ penaltiesCents: number; paidOutCents: number }> {
  const row = await db
    .selectFrom('ledger_entries as l')
    .where('l.host_id', '=', hostId)
    .where(COUNTS_FOR_HOST)
    .select([
      sql<string>`coalesce(sum(CASE WHEN l.kind = 'host_penalty' THEN l.amount_cents ELSE 0 END), 0)`.as('penalties'),
      sql<string>`coalesce(sum(${PAID_OUT_PART}), 0)`.as('paid'),
    ])
    .executeTakeFirstOrThrow();
  return { penaltiesCents: Number(row.penalties), paidOutCents: Number(row.paid) };
}

/** A host's penalty rows (what a statement lists), oldest first. */
export function hostPenalties(db: Db, hostId: string) {
  return db.selectFrom('ledger_entries').selectAll().where('host_id', '=', hostId).where('kind', '=', 'host_penalty').where('state', '=', 'succeeded').orderBy('seq').execute();
}

/** The payout and reversal rows naming these transfer references. */
export function rowsOfTransfers(db: Db, references: readonly string[]) {
  if (references.length === 0) return Promise.resolve([] as LedgerEntry[]);
  return db.selectFrom('ledger_entries').selectAll().where('provider_reference', 'in', [...references]).where('kind', 'in', ['payout', 'payout_reversal']).orderBy('seq').execute();
}

export async function countRefundsByState(db: Db): Promise<Record<LedgerState, number>> {
  const rows = await db.selectFrom('ledger_entries').select(['state', sql<string>`count(*)`.as('n')]).where('kind', '=', 'refund').groupBy('state').execute();
  const counts: Record<LedgerState, number> = { pending: 0, succeeded: 0, failed: 0 };
  for (const r of rows) counts[r.state] = Number(r.n);
  return counts;
}

/** The retry recorded for a failed refund, if an administrator asked again already (the row `refundRetried` looks for). */
export function retryOf(db: Db, failed: Pick<LedgerEntry, 'booking_id' | 'charge_reference' | 'code' | 'amount_cents' | 'seq'>): Promise<LedgerEntry | undefined> {
  let query = db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('booking_id', '=', failed.booking_id)
    .where('kind', '=', 'refund')
    .where('code', '=', failed.code)
    .where('amount_cents', '=', failed.amount_cents)
    .where('seq', '>', failed.seq);
  query = failed.charge_reference === null ? query.where('charge_reference', 'is', null) : query.where('charge_reference', '=', failed.charge_reference);
  return query.orderBy('seq').executeTakeFirst();
}

/** Refunds in one state with their booking and renter, oldest first (the administrators' list). */
export function listRefunds(db: Db, state: 'pending' | 'failed', limit = 200) {
  return db
    .selectFrom('ledger_entries as l')
    .innerJoin('bookings as b', 'b.id', 'l.booking_id')
    .innerJoin('users as r', 'r.id', 'l.renter_id')
    .selectAll('l')
    .select(['b.booking_number', 'r.username as renter_username'])
    .select(refundRetried('l').as('retried'))
    .where('l.kind', '=', 'refund')
    .where('l.state', '=', state)
    .orderBy('l.recorded_at')
    .orderBy('l.seq')
    .limit(limit)
    .execute();
}

// ---- The CPA s. 17 waiver (decision 067) ----

/** The cancellation fee a booking kept, as its rows say: the host's and the platform's parts, net of any waiver already given. */
export async function cancellationFeeKept(db: Db, bookingId: string): Promise<{ hostCents: number; platformCents: number }> {
  const rows = await db
    .selectFrom('ledger_entries')
    .select(['kind', sql<string>`sum(amount_cents)`.as('cents')])
    .where('booking_id', '=', bookingId)
    .where('code', 'in', ['cancellation_fee', CPA_WAIVER_CODE])
    .where('kind', 'in', ['host_earning', 'platform_fee'])
    .groupBy('kind')
    .execute();
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.cents ?? 0);
  return { hostCents: of('host_earning'), platformCents: of('platform_fee') };
}


/**
 * A kept cancellation fee given back (CPA s. 17): the host's and the platform's parts taken back and
 * a pending refund of their sum to the card the trip was paid with, on the refund queue like every
 * refund (so the provider's refund and the ledger agree).
 */
export async function recordFeeWaiver(db: Db, parties: LedgerParties, at: Date, w: { hostCents: number; platformCents: number; chargeReference: string | null; reason: string; actorId: string }): Promise<LedgerEntry> {
  const rows = await insertEntries(db, parties, at, [
    { kind: 'host_earning', code: CPA_WAIVER_CODE, amountCents: -w.hostCents, movedAt: at, chargeReference: w.chargeReference, actorId: w.actorId },
    { kind: 'platform_fee', code: CPA_WAIVER_CODE, amountCents: -w.platformCents, movedAt: at, chargeReference: w.chargeReference, actorId: w.actorId },
    { kind: 'refund', code: CPA_WAIVER_CODE, amountCents: w.hostCents + w.platformCents, state: 'pending', movedAt: null, chargeReference: w.chargeReference, reason: w.reason, actorId: w.actorId },
  ]);
  return rows.find((r) => r.kind === 'refund')!;
}

/** What is still on its way back to a renter's card: each refund pending, or failed and not retried yet. */
export async function refundsStillOwedTo(db: Db, renterId: string): Promise<{ bookingId: string; amountCents: number; state: LedgerState }[]> {
  const rows = await db
    .selectFrom('ledger_entries as l')
    .select(['l.booking_id', 'l.amount_cents', 'l.state'])
    .where('l.renter_id', '=', renterId)
    .where(refundStillOwed('l'))
    .orderBy('l.seq')
    .execute();
  return rows.map((r) => ({ bookingId: r.booking_id, amountCents: Number(r.amount_cents), state: r.state }));
}

// ---- Trip changes (decision 081) ----

/** The code of a trip change's charge and refund rows, and of the fee the policy keeps for time given up. */
export const TRIP_CHANGE_CODE = 'trip_change';
export const CHANGE_FEE_CODE = 'change_fee';

/** How an accepted change moves the money, in cents: the shares' differences, what is kept, and the charge or refunds. */
export interface TripChangeMoney {
  changeId: string;
  /** The differences of the trip's shares (new − old): the host's, and the platform's by code. */
  hostDeltaCents: number;
  serviceFeeDeltaCents: number;
  insuranceDeltaCents: number;
  hostFeeDeltaCents: number;
  /** The fee the policy keeps for time given up, shared. */
  keptHostCents: number;
  keptPlatformCents: number;
  /** A longer trip: the card charge that paid the difference. */
  charge?: { reference: string; amountCents: number };
  /** A shorter one: refunds, each against a charge it can come back from. */
  refunds?: { reference: string; amountCents: number }[];
  reason: string;
  actorId: string | null;
}

/**
 * An accepted change: the trip's shares move by their differences under their own codes (so the
 * trip's price stays the sum of its 'trip' shares), the kept fee is shared as 'change_fee' (kept
 * for good: a later cancellation takes back only the trip's shares), and the difference is charged
 * or refunded. The rows balance: charge − refunds = share differences + kept fee.
 */
export function recordTripChange(db: Db, parties: LedgerParties, at: Date, m: TripChangeMoney): Promise<LedgerEntry[]> {
  const reason = `change ${m.changeId}`;
  const ref = m.charge?.reference ?? null;
  const row = (kind: LedgerKind, code: string, amountCents: number) => ({ kind, code, amountCents, movedAt: at, chargeReference: ref, reason, actorId: m.actorId });
  return insertEntries(db, parties, at, [
    ...(m.charge ? [row('charge', TRIP_CHANGE_CODE, m.charge.amountCents)] : []),
    row('host_earning', 'trip', m.hostDeltaCents),
    row('platform_fee', 'service_fee', m.serviceFeeDeltaCents),
    row('platform_fee', 'insurance', m.insuranceDeltaCents),
    row('platform_fee', 'host_fee', m.hostFeeDeltaCents),
    row('host_earning', CHANGE_FEE_CODE, m.keptHostCents),
    row('platform_fee', CHANGE_FEE_CODE, m.keptPlatformCents),
    ...(m.refunds ?? []).map((r) => ({
      kind: 'refund' as const,
      code: TRIP_CHANGE_CODE,
      amountCents: r.amountCents,
      state: 'pending' as const,
      movedAt: null,
      chargeReference: r.reference,
      reason: m.reason,
      actorId: m.actorId,
    })),
  ]);
}

/**
 * What can still come back from each card charge of a trip (the trip's own and its changes'),
 * newest first: the charge, less its refunds that are on their way or paid (a failed one still
 * owed counts too, until its Retry takes its place). A refund is split over these, so none asks a
 * charge for more than is left of it.
 */
export async function refundableCharges(db: Db, bookingId: string): Promise<{ reference: string; cents: number }[]> {
  const { rows } = await sql<{ reference: string; cents: string }>`
    SELECT c.charge_reference AS reference,
      c.amount_cents + coalesce((SELECT sum(d.amount_cents) FROM ledger_entries d WHERE d.booking_id = c.booking_id AND d.kind = 'deposit' AND d.charge_reference = c.charge_reference), 0)
        - coalesce((SELECT sum(r.amount_cents) FROM ledger_entries r WHERE r.booking_id = c.booking_id AND r.kind = 'refund' AND r.charge_reference = c.charge_reference
            AND (r.state <> 'failed' OR NOT ${refundRetried('r')})), 0) AS cents
    FROM ledger_entries c
    WHERE c.booking_id = ${bookingId}::uuid AND c.kind = 'charge' AND c.code IN ('trip', ${TRIP_CHANGE_CODE}) AND c.charge_reference IS NOT NULL
    ORDER BY c.seq DESC`.execute(db);
  return rows.map((r) => ({ reference: r.reference, cents: Number(r.cents) })).filter((r) => r.cents > 0);
}

/** `amountCents` split over the charges it can come back from (refundableCharges' order); what no charge can take is left out (none, on a balanced booking). */
export function splitRefund(charges: readonly { reference: string; cents: number }[], amountCents: number): { reference: string; amountCents: number }[] {
  const parts: { reference: string; amountCents: number }[] = [];
  let left = amountCents;
  for (const c of charges) {
    if (left <= 0) break;
    const take = Math.min(left, c.cents);
    if (take > 0) parts.push({ reference: c.reference, amountCents: take });
    left -= take;
  }
  return parts;
}

/** Whether a card charge of this reference is on the ledger already (kept on its booking, or taken and refunded). */
export async function isChargeRecorded(db: Db, reference: string): Promise<boolean> {
  const row = await db.selectFrom('ledger_entries').select('id').where('kind', '=', 'charge').where('charge_reference', '=', reference).executeTakeFirst();
  return row !== undefined;
}
