// Payouts sent by themselves (issue 35; docs/decisions/068-payouts-by-themselves.md).
// A host's bank account is checked with the provider (the bank's name for its holder, which the
// host confirms) and kept as a transfer recipient; a change holds payouts for a cooling-off period
// and is mailed to the host. The run pays each host what is payable on their schedule as one
// transfer: the unpaid shares of trips payable now (payable.ts), less penalties owed, never below
// zero. Never twice: the host's payouts are worked out under one lock (ledger.lockHostPayouts),
// the run key is unique per host and run, the reference is ours and the provider refuses a second
// transfer with it, and the money is a pending payout row per booking from the moment it is sent
// (counted as paid), settled when the provider says paid, failed (owed again) when it fails, and
// reversed by a payout_reversal row when the bank returns it.
import {
  DEFAULT_PAYOUT_SCHEDULE,

  isAdmin,
  isHost,
  nextRunDay,
  scheduleLabel,
  todayIn,
  monthIn,
  type AdminPayouts,
  type Bank,
  type HostPayouts,
  type PayoutLine,
  type PayoutSchedule,
  type PayoutTransfer,
  type ResolvedBankAccount,
  type TransferState,
} from '@karoo/shared';
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { PaymentProviderError, PayoutRefusedError, type ProviderTransfer } from '../../lib/payments';
import { lockPayout, updatePayout as setBookingPayout, clearPaidPayout } from '../bookings';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import { payableAfterHours, unpaidFinalTrips, type PayableTrip } from './payable';
import * as repo from './payouts.repository';
import type { TransferBooking } from './payouts.tables';

const rand = (cents: number) => cents / 100;
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const last4 = (accountNumber: string) => accountNumber.slice(-4);
/** The days after a paid transfer in which a bank may still return it (the sync keeps asking). */
const RETURN_WINDOW_MS = 10 * 24 * 3_600_000;

function requireHost(user: UserRow) {
  if (!isHost(user) && !isAdmin(user)) throw forbidden('Only hosts are paid out. List a car to become a host.');
}

/** The provider could not answer: a 503 that says to try again, never a 500. */
function providerTrouble(error: unknown): never {
  if (error instanceof PaymentProviderError) throw new AppError(503, error.message);
  if (error instanceof PayoutRefusedError) throw badRequest(error.message, { account_number: error.message });
  throw error;
}

// ---- The bank account ----

export async function listBanks(ctx: AppContext): Promise<Bank[]> {
  try {
    return await ctx.payouts.listBanks();
  } catch (error) {
    providerTrouble(error);
  }
}

async function bankName(ctx: AppContext, code: string): Promise<string> {
  const bank = (await listBanks(ctx)).find((b) => b.code === code);
  if (!bank) throw badRequest('Choose your bank from the list.', { bank_code: 'Choose your bank from the list.' });
  return bank.name;
}

/** The holder's name the bank has for an account, for the host to confirm (nothing is saved). */
export async function resolveAccount(ctx: AppContext, user: UserRow, input: { bank_code: string; account_number: string }): Promise<ResolvedBankAccount> {
  requireHost(user);
  const name = await bankName(ctx, input.bank_code);
  try {
    const resolved = await ctx.payouts.resolveAccount({ accountNumber: input.account_number, bankCode: input.bank_code });
    return { bank_code: input.bank_code, bank_name: name, account_number: input.account_number, account_name: resolved.accountName };
  } catch (error) {
    providerTrouble(error);
  }
}

const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, ' ').toUpperCase() === b.trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * Saves the account the host confirmed: resolved again (the name must still be the one they saw),
 * a recipient made for it; a change of account (not the first) holds payouts for the cooling-off
 * hours and is mailed to the host.
 */
export async function saveAccount(ctx: AppContext, user: UserRow, input: { bank_code: string; account_number: string; confirmed_account_name: string }) {
  const resolved = await resolveAccount(ctx, user, input);
  if (!sameName(resolved.account_name, input.confirmed_account_name)) {
    throw conflict(`The bank's name for this account is ${resolved.account_name}. Check it and confirm again.`, { confirmed_account_name: 'The name does not match the bank\'s.' });
  }
  let recipientCode: string;
  try {
    recipientCode = await ctx.payouts.createRecipient({ name: resolved.account_name, accountNumber: input.account_number, bankCode: input.bank_code });
  } catch (error) {
    providerTrouble(error);
  }
  const settings = await getSettings(ctx);
  await inTransaction(
    ctx,
    async (tx) => {
      await ledger.lockHostPayouts(tx.db, user.id);
      const before = await repo.findAccount(tx.db, user.id);
      const changed = before !== undefined && (before.bank_code !== input.bank_code || before.account_number !== input.account_number);
      if (before && !changed) {
        await repo.updateAccount(tx.db, user.id, { account_name: resolved.account_name, recipient_code: recipientCode, updated_at: tx.now });
        return;
      }
      const holdUntil = changed && settings.payout_account_hold_hours > 0 ? new Date(tx.now.getTime() + settings.payout_account_hold_hours * 3_600_000) : null;
      await repo.saveAccount(tx.db, {
        host_id: user.id,
        bank_code: input.bank_code,
        bank_name: resolved.bank_name,
        account_number: input.account_number,
        account_name: resolved.account_name,
        recipient_code: recipientCode,
        confirmed_at: tx.now,
        hold_until: holdUntil,
        updated_at: tx.now,
      });
      if (changed) tx.emit({ type: 'payout.account_changed', hostId: user.id, bankName: resolved.bank_name, last4: last4(input.account_number), holdUntil });
    },
    { by: user },
  );
  return hostPayouts(ctx, user);
}

export async function setSchedule(ctx: AppContext, user: UserRow, input: { schedule: PayoutSchedule['schedule']; weekday?: number | undefined; month_day?: number | undefined }) {
  requireHost(user);
  const account = await repo.findAccount(ctx.db, user.id);
  if (!account) throw conflict('Add your bank account first: the schedule is kept with it.');
  await repo.updateAccount(ctx.db, user.id, {
    schedule: input.schedule,
    ...(input.weekday !== undefined ? { weekday: input.weekday } : {}),
    ...(input.month_day !== undefined ? { month_day: input.month_day } : {}),
    updated_at: ctx.clock.now(),
  });
  return hostPayouts(ctx, user);
}

// ---- What a host is owed now ----

const scheduleOf = (account: repo.PayoutAccountRow | undefined): PayoutSchedule =>
  account ? { schedule: account.schedule, weekday: account.weekday, month_day: account.month_day } : DEFAULT_PAYOUT_SCHEDULE;

interface Position {
  /** What a transfer would send now. */
  amountCents: number;
  /** Payable trips not paid yet, in the order they became final. */
  trips: PayableTrip[];
  /** Of each trip, what this transfer pays (a penalty may take the rest). */
  allocation: Map<string, number>;
  /** Trips final but not payable yet. */
  upcoming: PayableTrip[];
  lines: PayoutLine[];
}

/**
 * What the host would be sent now: the unpaid shares of the trips payable now, less what they owe
 * (their ledger balance, from which the shares not payable yet are set aside), never below zero.
 */
async function positionOf(db: Db, hostId: string, now: Date, delayHours: number): Promise<Position> {
  const [{ payable, upcoming }, balance] = await Promise.all([unpaidFinalTrips(db, [hostId], now, delayHours), ledger.hostBalanceCents(db, hostId)]);
  const unpaid = (t: PayableTrip) => t.shareCents - t.paidCents;
  const owedTrips = payable.reduce((sum, t) => sum + unpaid(t), 0);
  const notYet = upcoming.reduce((sum, t) => sum + unpaid(t), 0);
  const amountCents = Math.max(0, Math.min(owedTrips, balance - notYet));
  const allocation = new Map<string, number>();
  let left = amountCents;
  for (const t of payable) {
    const part = Math.min(unpaid(t), left);
    allocation.set(t.bookingId, part);
    left -= part;
  }
  const lines: PayoutLine[] = payable.map((t) => ({ kind: 'trip', booking_number: t.bookingNumber, label: `${t.bookingNumber} · ${t.carName}`, amount: rand(unpaid(t)) }));
  if (amountCents < owedTrips) lines.push({ kind: 'penalty', booking_number: null, label: 'Cancellation penalties deducted', amount: rand(amountCents - owedTrips) });
  return { amountCents, trips: payable, allocation, upcoming, lines };
}

/** Why the host's payout will not go at its run, or null. */
async function heldReason(db: Db, account: repo.PayoutAccountRow | undefined, pausedAll: boolean, now: Date): Promise<string | null> {
  if (!account) return 'Add your bank account to be paid.';
  if (pausedAll) return 'Payouts are paused by Karoo for everyone for now.';
  if (account.paused_at) return 'Karoo has paused your payouts. Contact support to find out why.';
  if (account.hold_until && account.hold_until.getTime() > now.getTime()) return `Your bank account changed recently: payouts wait until ${new Date(account.hold_until).toISOString()}.`;
  const returned = await repo.unresolvedReturn(db, account.host_id);
  if (returned && account.confirmed_at.getTime() <= new Date(returned.updated_at).getTime()) return 'Your last payout did not reach your account: Karoo will send it again, or change your bank account.';
  return null;
}

export function toTransfer(t: repo.TransferRow, hostUsername: string, retried: Set<string>): PayoutTransfer {
  return {
    id: t.id,
    host_id: t.host_id,
    host_username: hostUsername,
    amount: rand(t.amount_cents),
    state: t.state,
    reference: t.reference,
    transfer_code: t.transfer_code,
    failure_reason: t.failure_reason,
    bank_name: t.bank_name,
    account_number_last4: t.account_number_last4,
    bookings: t.bookings.map((b) => b.number),
    created_at: new Date(t.created_at).toISOString(),
    settled_at: iso(t.settled_at),
    retried: retried.has(t.id),
  };
}

export async function hostPayouts(ctx: AppContext, user: UserRow): Promise<HostPayouts> {
  requireHost(user);
  const now = ctx.clock.now();
  const settings = await getSettings(ctx);
  const [account, position, transfers] = await Promise.all([
    repo.findAccount(ctx.db, user.id),
    positionOf(ctx.db, user.id, now, payableAfterHours(settings)),
    repo.transfersOfHost(ctx.db, user.id),
  ]);
  const schedule = scheduleOf(account);
  const retried = await repo.retriedIds(ctx.db, transfers.map((t) => t.id));
  const months = new Set<string>(transfers.map((t) => monthIn(new Date(t.created_at))));
  let day = nextRunDay(schedule, todayIn(now));
  if (account?.hold_until && account.hold_until.getTime() > now.getTime()) day = nextRunDay(schedule, todayIn(account.hold_until) > day ? todayIn(account.hold_until) : day);
  return {
    account: account
      ? { bank_code: account.bank_code, bank_name: account.bank_name, account_number_last4: last4(account.account_number), account_name: account.account_name, confirmed_at: account.confirmed_at.toISOString(), hold_until: iso(account.hold_until) }
      : null,
    schedule: { ...schedule, label: scheduleLabel(schedule) },
    next_payout: { amount: rand(position.amountCents), day, lines: position.lines, held_reason: await heldReason(ctx.db, account, settings.payouts_paused, now) },
    upcoming: position.upcoming.map((t) => ({ booking_number: t.bookingNumber, amount: rand(t.shareCents - t.paidCents), payable_from: t.payableFrom.toISOString() })),
    transfers: transfers.map((t) => toTransfer(t, user.username, retried)),
    statement_months: [...months].sort().reverse(),
  };
}

// ---- The run ----

const newReference = () => `KAROO-PO-${randomBytes(8).toString('hex').toUpperCase()}`;

export interface RunResult {
  /** Transfers made by this run. */
  sent: number;
  /** Hosts due today whose payout waits (paused, cooling off, a failed transfer not retried). */
  held: number;
}

/**
 * The scheduled run (the payouts.run job, hourly): every host with an account whose run day is
 * today (Johannesburg) and who is owed something is sent one transfer, keyed by host and day, so
 * that every later run of the day, on any instance, finds it made.
 */
export async function runPayouts(ctx: AppContext): Promise<RunResult> {
  const now = ctx.clock.now();
  const settings = await getSettings(ctx);
  const result: RunResult = { sent: 0, held: 0 };
  if (settings.payouts_paused) return result;
  const today = todayIn(now);
  const { payable } = await unpaidFinalTrips(ctx.db, null, now, payableAfterHours(settings));
  const hostIds = [...new Set(payable.map((t) => t.hostId))];
  for (const account of await repo.findAccounts(ctx.db, hostIds)) {
    if (nextRunDay(scheduleOf(account), today) !== today) continue;
    const sent = await payHost(ctx, account.host_id, `${account.host_id}:${today}`);
    if (sent === 'sent') result.sent++;
    else if (sent === 'held') result.held++;
  }
  return result;
}

/**
 * One transfer for one host, under the run key: worked out and recorded (pending payout rows, the
 * trips marked processing) in one transaction under the host's lock, then sent. 'none' when nothing
 * is owed or the run key was taken (another instance made it); 'held' when it must wait.
 */
export async function payHost(ctx: AppContext, hostId: string, runKey: string, retry?: { of: string; by: UserRow }): Promise<'sent' | 'none' | 'held'> {
  const settings = await getSettings(ctx);
  const made = await inTransaction(
    ctx,
    async (tx) => {
      await ledger.lockHostPayouts(tx.db, hostId);
      const account = await repo.findAccount(tx.db, hostId);
      if (!account) return 'held' as const;
      // An administrator's Retry goes past an unretried failure (it is that failure's retry).
      const reason = await heldReason(tx.db, account, settings.payouts_paused, tx.now);
      if (reason && !(retry && reason.startsWith('Your last payout'))) return 'held' as const;
      const position = await positionOf(tx.db, hostId, tx.now, payableAfterHours(settings));
      if (position.amountCents <= 0) return 'none' as const;
      const reference = newReference();
      const bookings: TransferBooking[] = position.trips.map((t) => ({ id: t.bookingId, number: t.bookingNumber }));
      const transfer = await repo.insertTransfer(tx.db, {
        host_id: hostId,
        run_key: runKey,
        reference,
        amount_cents: position.amountCents,
        recipient_code: account.recipient_code,
        bank_name: account.bank_name,
        account_number_last4: last4(account.account_number),
        bookings,
        retry_of: retry?.of ?? null,
        actor_id: retry?.by.id ?? null,
        created_at: tx.now,
        updated_at: tx.now,
      });
      if (!transfer) return 'none' as const;
      await ledger.recordTransferPayouts(
        tx.db,
        position.trips.flatMap((t) => {
          const cents = position.allocation.get(t.bookingId) ?? 0;
          return cents > 0 ? [{ parties: { bookingId: t.bookingId, renterId: t.renterId, hostId }, amountCents: cents }] : [];
        }),
        { reference, at: tx.now, actorId: retry?.by.id ?? null },
      );
      for (const t of position.trips) {
        await lockPayout(tx.db, t.bookingId);
        await setBookingPayout(tx.db, t.bookingId, { payout_status: 'processing', payout_reference: reference }, tx.now);
      }
      return transfer;
    },
    retry ? { by: retry.by } : {},
  );
  if (typeof made === 'string') return made;
  await sendTransfer(ctx, made);
  return 'sent';
}

/** Asks the provider for a recorded transfer (again, after a lost answer: the reference makes it one). */
async function sendTransfer(ctx: AppContext, transfer: repo.TransferRow): Promise<void> {
  let answer: ProviderTransfer;
  try {
    answer = await ctx.payouts.initiateTransfer({
      reference: transfer.reference,
      amountCents: transfer.amount_cents,
      recipientCode: transfer.recipient_code,
      reason: `Karoo payout ${transfer.reference}`,
    });
  } catch (error) {
    if (error instanceof PayoutRefusedError) {
      await applyOutcome(ctx, transfer.reference, { status: 'failed', transferCode: null, reason: error.message });
      return;
    }
    // Unreachable: it stays queued, and the sync asks again with the same reference.
    if (error instanceof PaymentProviderError) return;
    throw error;
  }
  await applyOutcome(ctx, transfer.reference, answer);
}

/** The moves a transfer's state may make. */
const NEXT: Record<TransferState, readonly TransferState[]> = {
  queued: ['otp', 'pending', 'success', 'failed'],
  otp: ['pending', 'success', 'failed'],
  pending: ['success', 'failed', 'reversed'],
  success: ['reversed'],
  failed: [],
  reversed: [],
};

/**
 * What the provider said of a transfer, recorded once: paid (its payout rows settle, the trips are
 * paid), failed (its rows fail: owed again, the trips back to pending), reversed (a reversal row
 * for each payout row, the trips back to pending). The same news again, or news out of order,
 * changes nothing. Answers whether it changed the transfer.
 */
export async function applyOutcome(ctx: AppContext, reference: string, outcome: ProviderTransfer): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const transfer = await repo.lockTransferByReference(tx.db, reference);
    if (!transfer) return false;
    let to: TransferState = outcome.status;
    // A transfer never seen paid that comes back reversed failed for us (nothing reached the host).
    if (to === 'reversed' && transfer.state !== 'success') to = 'failed';
    if (!NEXT[transfer.state].includes(to)) {
      if (outcome.transferCode && !transfer.transfer_code) await repo.setTransfer(tx.db, transfer.id, { transfer_code: outcome.transferCode });
      return false;
    }
    const reason = outcome.reason ?? (to === 'failed' ? 'The bank did not accept the transfer.' : to === 'reversed' ? 'The bank returned the transfer.' : null);
    await repo.setTransfer(tx.db, transfer.id, {
      state: to,
      transfer_code: outcome.transferCode ?? transfer.transfer_code,
      failure_reason: to === 'failed' || to === 'reversed' ? reason : null,
      updated_at: tx.now,
      ...(to === 'success' || to === 'failed' || to === 'reversed' ? { settled_at: tx.now } : {}),
    });
    if (to === 'success') {
      await ledger.settleTransferPayouts(tx.db, reference, tx.now);
      for (const b of transfer.bookings) await setBookingPayout(tx.db, b.id, { payout_status: 'paid', payout_reference: reference }, tx.now);
      tx.emit({ type: 'payout.transfer_paid', hostId: transfer.host_id, transferId: transfer.id, reference, amountCents: transfer.amount_cents, bankName: transfer.bank_name, last4: transfer.account_number_last4 });
    } else if (to === 'failed') {
      await ledger.failTransferPayouts(tx.db, reference, reason!);
      for (const b of transfer.bookings) await setBookingPayout(tx.db, b.id, { payout_status: 'pending', payout_reference: null }, tx.now);
      tx.emit({ type: 'payout.transfer_returned', hostId: transfer.host_id, transferId: transfer.id, reference, amountCents: transfer.amount_cents, state: 'failed', reason: reason! });
    } else if (to === 'reversed') {
      await ledger.recordTransferReversal(tx.db, reference, { reason: reason!, at: tx.now });
      for (const b of transfer.bookings) await clearPaidPayout(tx.db, b.id, tx.now);
      tx.emit({ type: 'payout.transfer_returned', hostId: transfer.host_id, transferId: transfer.id, reference, amountCents: transfer.amount_cents, state: 'reversed', reason: reason! });
    }
    return true;
  });
}

/**
 * The payouts.sync job: queued transfers are sent again (same reference), and those under way or
 * paid in the last days are checked with the provider (a missed webhook, a reversal days later).
 */
export async function syncTransfers(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  let changed = 0;
  for (const t of await repo.openTransfers(ctx.db, new Date(now.getTime() - RETURN_WINDOW_MS))) {
    if (t.state === 'queued') {
      await sendTransfer(ctx, t);
      changed++;
      continue;
    }
    let answer: ProviderTransfer | null;
    try {
      answer = await ctx.payouts.verifyTransfer(t.reference);
    } catch (error) {
      if (error instanceof PaymentProviderError) continue;
      throw error;
    }
    if (answer && (await applyOutcome(ctx, t.reference, answer))) changed++;
  }
  return changed;
}

/** Paystack's transfer.success, transfer.failed and transfer.reversed (signature checked by the payments webhook). */
export async function handleTransferEvent(ctx: AppContext, event: string, data: { reference?: string; transfer_code?: string; status?: string; reason?: string }): Promise<{ handled: boolean; message: string }> {
  const status = event === 'transfer.success' ? 'success' : event === 'transfer.failed' ? 'failed' : event === 'transfer.reversed' ? 'reversed' : null;
  if (!status || !data.reference) return { handled: false, message: 'Event ignored' };
  const changed = await applyOutcome(ctx, data.reference, { status, transferCode: data.transfer_code ?? null, reason: null });
  return { handled: changed, message: changed ? `Transfer ${status}` : 'Transfer already recorded' };
}

// ---- Administrators ----

async function transferOrNotFound(db: Db, id: string) {
  const transfer = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findTransfer(db, id) : undefined;
  if (!transfer) throw notFound('Transfer not found');
  return transfer;
}

/** Retry on a failed or reversed transfer: what the host is owed now, sent as a new transfer naming it. */
export async function retryTransfer(ctx: AppContext, admin: UserRow, id: string): Promise<PayoutTransfer> {
  const failed = await transferOrNotFound(ctx.db, id);
  if (failed.state !== 'failed' && failed.state !== 'reversed') throw conflict(`Only a failed or reversed transfer can be sent again: this one is ${failed.state}.`);
  if ((await repo.retriedIds(ctx.db, [failed.id])).size > 0) throw conflict('This transfer was already sent again.');
  const outcome = await payHost(ctx, failed.host_id, `retry:${failed.id}`, { of: failed.id, by: admin });
  if (outcome === 'held') throw conflict('This host\'s payouts are on hold (paused, or a bank account change cooling off): nothing was sent.');
  if (outcome === 'none') throw conflict('Nothing is owed to this host now: nothing was sent.');
  const retry = await ctx.db.selectFrom('payout_transfers').selectAll().where('retry_of', '=', failed.id).executeTakeFirstOrThrow();
  const [host] = await repo.usernames(ctx.db, [failed.host_id]);
  await inTransaction(ctx, async (tx) => {
    tx.emit({ type: 'payout.transfer_retried', transferId: failed.id, reference: failed.reference, hostUsername: host?.username ?? '', newReference: retry.reference, amountCents: retry.amount_cents });
  }, { by: admin });
  return toTransfer((await repo.findTransfer(ctx.db, retry.id))!, host?.username ?? '', new Set());
}

/** The OTP Paystack sent for a transfer waiting for it. */
export async function finalizeTransfer(ctx: AppContext, admin: UserRow, id: string, otp: string): Promise<PayoutTransfer> {
  const transfer = await transferOrNotFound(ctx.db, id);
  if (transfer.state !== 'otp' || !transfer.transfer_code) throw conflict(`Only a transfer waiting for its OTP can be finalized: this one is ${transfer.state}.`);
  let answer: ProviderTransfer;
  try {
    answer = await ctx.payouts.finalizeTransfer({ transferCode: transfer.transfer_code, otp });
  } catch (error) {
    if (error instanceof PayoutRefusedError) throw badRequest(error.message, { otp: error.message });
    providerTrouble(error);
  }
  await applyOutcome(ctx, transfer.reference, answer);
  const [host] = await repo.usernames(ctx.db, [transfer.host_id]);
  await inTransaction(ctx, async (tx) => {
    tx.emit({ type: 'payout.transfer_finalized', transferId: transfer.id, reference: transfer.reference, hostUsername: host?.username ?? '' });
  }, { by: admin });
  return toTransfer((await repo.findTransfer(ctx.db, transfer.id))!, host?.username ?? '', new Set());
}

/** Pauses (with a reason) or resumes one host's payouts; audited. */
export async function pauseHost(ctx: AppContext, admin: UserRow, hostId: string, body: { paused: boolean; reason?: string | undefined }) {
  const reason = body.reason?.trim() ?? '';
  if (body.paused && reason.length < 3) throw badRequest('Give the reason for pausing this host\'s payouts.', { reason: 'A reason is required.' });
  const account = /^[0-9a-f-]{36}$/i.test(hostId) ? await repo.findAccount(ctx.db, hostId) : undefined;
  if (!account) throw notFound('This host has no payout account.');
  const [host] = await repo.usernames(ctx.db, [hostId]);
  await inTransaction(
    ctx,
    async (tx) => {
      await repo.updateAccount(tx.db, hostId, body.paused ? { paused_at: tx.now, paused_reason: reason, paused_by: admin.id } : { paused_at: null, paused_reason: null, paused_by: null });
      tx.emit({ type: 'payout.host_paused', hostId, hostUsername: host?.username ?? '', paused: body.paused, reason: body.paused ? reason : reason || null });
    },
    { by: admin },
  );
  return adminPayouts(ctx);
}

export async function adminPayouts(ctx: AppContext): Promise<AdminPayouts> {
  const now = ctx.clock.now();
  const settings = await getSettings(ctx);
  const today = todayIn(now);
  const { payable } = await unpaidFinalTrips(ctx.db, null, now, payableAfterHours(settings));
  const accounts = await repo.findAccounts(ctx.db);
  const transfers = await repo.latestTransfers(ctx.db, 200);
  const people = new Map((await repo.usernames(ctx.db, [...accounts.map((a) => a.host_id), ...transfers.map((t) => t.host_id)])).map((p) => [p.id, p]));
  const owed = new Set(payable.map((t) => t.hostId));
  const scheduled: AdminPayouts['scheduled'] = [];
  for (const account of accounts) {
    if (!owed.has(account.host_id)) continue;
    const position = await positionOf(ctx.db, account.host_id, now, payableAfterHours(settings));
    if (position.amountCents <= 0) continue;
    scheduled.push({
      host_id: account.host_id,
      host_username: people.get(account.host_id)?.username ?? '',
      amount: rand(position.amountCents),
      day: nextRunDay(scheduleOf(account), today),
      held_reason: await heldReason(ctx.db, account, settings.payouts_paused, now),
    });
  }
  scheduled.sort((a, b) => a.day.localeCompare(b.day) || b.amount - a.amount);
  const retried = await repo.retriedIds(ctx.db, transfers.map((t) => t.id));
  return {
    paused_all: settings.payouts_paused,
    needed_for_next_run: scheduled.filter((s) => !s.held_reason).reduce((sum, s) => sum + Math.round(s.amount * 100), 0) / 100,
    scheduled,
    transfers: transfers.map((t) => toTransfer(t, people.get(t.host_id)?.username ?? '', retried)),
    paused_hosts: accounts
      .filter((a) => a.paused_at)
      .map((a) => ({ host_id: a.host_id, host_username: people.get(a.host_id)?.username ?? '', reason: a.paused_reason ?? '', paused_at: a.paused_at!.toISOString() })),
  };
}

