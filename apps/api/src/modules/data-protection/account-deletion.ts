// Deleting one's own account (issue 24, POPIA s. 24; docs/decisions/050-account-deletion-retention-breaches.md).
// Refused, with the reason, while a trip is under way or paid and to come, while Karoo owes the
// person money or they owe Karoo (a host's ledger balance, a refund still on its way, an open damage
// report). Otherwise, in one transaction: their cars leave Karoo and their unpaid requests are
// cancelled (in that order, the deletion's own steps; as an administrator's deletion), then, after every notice of that has
// been written, the person is erased (account.erasing): the profile anonymised, documents, sessions,
// links, notifications and mail to them deleted, the text of their messages replaced, and any
// mention of them anywhere else rewritten (erasure.ts). Financial and trip records stay, under the
// anonymous member, for the 5 years the Tax Administration Act asks. The confirmation goes to the
// address they had, written after the erasure and scrubbed from the outbox once sent.
import { z } from 'zod';
import { randomBytes } from 'node:crypto';
import { formatRand, isAdmin, todayIn } from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { inTransaction, type EventOf, type Tx } from '../../events/domain-events';
import type { JobDefinition } from '../../jobs/queue';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { queueMail, renderMail } from '../../lib/mail';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { cancelRenterBookings } from '../bookings';
import { removeOwnerCars } from '../cars';
import { hostBalanceCents, refundsStillOwedTo } from '../ledger';
import { findUser } from '../users';
import { beginErasure, earlierIdentities, endErasure, needlesFor, sweepMentions, type Needle, type Person } from './erasure';
import type { KeptRecord } from './data-protection.tables';
import { reachOf } from './erasure.registry';

declare module '../../events/domain-events' {
  interface DomainEvents {
    /**
     * The last step of an account deletion (emitted by it; its subscriber runs after every other
     * event of the unit of work, so the notices of the cancellations are erased too). `person` is
     * the profile as it was: in memory only, never stored.
     */
    'account.erasing': { userId: string; role: UserRow['role']; person: Person; erased: string[]; kept: KeptRecord[]; keptUntil: string; byAdmin: boolean };
  }
}

declare module '../../jobs/queue' {
  interface JobPayloads {
    /** Empties the confirmation email's row once it has been delivered (its address is the last copy of it). */
    'privacy.scrub_mail': { mailId: string };
  }
}

/** Financial records: 5 years (Tax Administration Act 28 of 2011, s. 29). */
export const FINANCIAL_RECORDS_YEARS = 5;
/** The confirmation's outbox row is emptied this long after the deletion, once delivered (retried until then). */
export const CONFIRMATION_SCRUB_DELAY_SECONDS = 10 * 60;

export const DELETED_MESSAGE = '[deleted]';
export const FORMER_MEMBER = 'Former member';

export interface DeletionPlan {
  /** Why the account cannot be deleted now; empty when it can. */
  blockers: string[];
  /** Booking requests that deleting will cancel (not paid yet). */
  cancelsRequests: number;
  erased: string[];
  kept: KeptRecord[];
  records_kept_until: string;
}

function plusYears(day: string, years: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  // 29 February goes to 28 February in a year without it.
  const date = new Date(Date.UTC(y + years, m - 1, d));
  if (date.getUTCMonth() !== m - 1) date.setUTCDate(0);
  return date.toISOString().slice(0, 10);
}

function erasedList(ownsCars: boolean): string[] {
  return [
    'Your name, username, email address, phone number and address',
    'Your ID number and bank account details',
    'Your identity documents and, for hosts, your cars’ registration documents (the files)',
    'What you wrote in messages: the other person now sees “[deleted]”',
    'Your sign-in history, sessions and sign-in links, and your notifications',
    'The emails we sent you, and any mention of your name, email, phone or ID number in other records',
    ...(ownsCars ? ['Your cars’ listings: they are taken off Karoo'] : []),
  ];
}

function keptList(until: string): KeptRecord[] {
  return [
    {
      what: 'Payments, refunds, payouts and invoices of your trips (the ledger)',
      why: 'Financial records are kept for 5 years (Tax Administration Act 28 of 2011, s. 29); they name an anonymous “Former member”, not you',
      until,
    },
    {
      what: 'Your bookings and their check-in, check-out and damage records',
      why: 'They are the other party’s records of the trip and of the money it moved; kept as long as the financial records, under “Former member”',
      until,
    },
    {
      what: 'Reviews you wrote and reviews of your trips',
      why: 'They describe a car or a trip for other members; shown under “Former member”',
      until: 'the car leaves Karoo',
    },
    {
      what: 'That your account was verified, and when',
      why: 'The record of a verification, without its documents',
      until,
    },
  ];
}

const bookingRef = (n: string) => `booking ${n}`;

/** The reasons said to the person (`self`) or to an administrator deleting the account (`admin`). */
const BLOCKER_WORDS = {
  self: {
    renting: (ref: string) => `Your paid trip (${ref}) is under way or still to come: return the car, or cancel the trip, before deleting your account.`,
    hosting: (ref: string) => `A paid trip in your car (${ref}) is under way or still to come: it must be returned or cancelled before your account is deleted.`,
    owed: (amount: string) => `Karoo still owes you ${amount} in payouts. It is paid to your bank account first, which needs your bank details: try again once it has been paid.`,
    owes: (amount: string) => `You owe Karoo ${amount} in host cancellation penalties. Contact support to settle it before deleting your account.`,
    refund: (amount: string) => `A refund of ${amount} to your card is still on its way. Try again once it has reached you: we need your details until then.`,
    dispute: (ref: string) => `A damage or missing-item report on ${ref} is still open: an administrator must resolve it first, as it may move money.`,
  },
  admin: {
    renting: (ref: string) => `Their paid trip (${ref}) is under way or still to come: the car must be returned, or the trip cancelled, first.`,
    hosting: (ref: string) => `A paid trip in their car (${ref}) is under way or still to come: it must be returned, or cancelled, first.`,
    owed: (amount: string) => `Karoo still owes them ${amount} in payouts: pay it to their bank account first, which needs their bank details.`,
    owes: (amount: string) => `They owe Karoo ${amount} in host cancellation penalties: settle it first.`,
    refund: (amount: string) => `A refund of ${amount} to their card is still on its way: wait until it has reached them.`,
    dispute: (ref: string) => `A damage or missing-item report on ${ref} is still open: resolve it first, as it may move money.`,
  },
} as const;

/** Why the account cannot go now, read through `db` (inside the deleting transaction, or for the preview). */
export async function deletionBlockers(db: Db, user: UserRow, voice: keyof typeof BLOCKER_WORDS = 'self'): Promise<string[]> {
  const words = BLOCKER_WORDS[voice];
  const blockers: string[] = [];
  const running = await db
    .selectFrom('bookings')
    .select(['booking_number', 'renter_id'])
    .where((eb) => eb.or([eb('renter_id', '=', user.id), eb('owner_id', '=', user.id)]))
    .where('status', '=', 'active')
    .orderBy('start_date')
    .execute();
  for (const b of running) {
    blockers.push(b.renter_id === user.id ? words.renting(bookingRef(b.booking_number)) : words.hosting(bookingRef(b.booking_number)));
  }
  const balance = await hostBalanceCents(db, user.id);
  if (balance > 0) blockers.push(words.owed(formatRand(balance / 100)));
  else if (balance < 0) blockers.push(words.owes(formatRand(-balance / 100)));
  // A refund still on its way (pending, or failed and not retried yet): the ledger module's rule.
  const refunds = await refundsStillOwedTo(db, user.id);
  if (refunds.length > 0) {
    const owed = refunds.reduce((sum, r) => sum + r.amountCents, 0);
    blockers.push(words.refund(formatRand(owed / 100)));
  }
  const disputes = await db
    .selectFrom('trip_disputes as d')
    .innerJoin('bookings as b', 'b.id', 'd.booking_id')
    .select('b.booking_number')
    .where('d.status', '=', 'open')
    .where((eb) => eb.or([eb('b.renter_id', '=', user.id), eb('b.owner_id', '=', user.id)]))
    .execute();
  for (const d of disputes) {
    blockers.push(words.dispute(bookingRef(d.booking_number)));
  }
  return blockers;
}

/** GET /api/privacy/account-deletion: what deleting would do now, or why it cannot. */
export async function deletionPlan(ctx: AppContext, user: UserRow): Promise<DeletionPlan> {
  const blockers = isAdmin(user) ? ['Administrator accounts are not deleted from the profile: another administrator first changes your role.'] : await deletionBlockers(ctx.db, user);
  const requests = await ctx.db
    .selectFrom('bookings')
    .select(sql<string>`count(*)`.as('n'))
    .where((eb) => eb.or([eb('renter_id', '=', user.id), eb('owner_id', '=', user.id)]))
    .where('status', 'in', ['pending', 'confirmed'])
    .executeTakeFirstOrThrow();
  const ownsCars = !!(await ctx.db.selectFrom('cars').select('id').where('owner_id', '=', user.id).where('deleted_at', 'is', null).executeTakeFirst());
  const until = plusYears(todayIn(ctx.clock.now()), FINANCIAL_RECORDS_YEARS);
  return { blockers, cancelsRequests: Number(requests.n), erased: erasedList(ownsCars), kept: keptList(until), records_kept_until: until };
}

/** POST /api/privacy/account-deletion: the person deletes their own account, confirming with their password. */
export async function deleteOwnAccount(ctx: AppContext, viewer: UserRow, password: string): Promise<{ deleted_at: string; records_kept_until: string }> {
  if (isAdmin(viewer)) throw forbidden('Administrator accounts are not deleted from the profile: another administrator first changes your role.');
  if (!(await verifyPassword(viewer.password_hash, password))) {
    throw badRequest('That is not your password. Enter the password you sign in with to delete your account.', { password: 'Incorrect password' });
  }
  const unusable = await hashPassword(randomBytes(24).toString('hex'));
  return inTransaction(
    ctx,
    async (tx) => {
      const user = await lockAccount(tx, viewer.id);
      if (!user) throw conflict('This account has already been deleted.');
      const blockers = await deletionBlockers(tx.db, user);
      if (blockers.length > 0) throw conflict(`Your account cannot be deleted yet. ${blockers.join(' ')}`, { blockers: blockers.join('\n') });
      return deleteAndErase(tx, user, unusable, false);
    },
    { by: viewer },
  );
}

/**
 * DELETE /api/user/delete/{id}: an administrator deletes a member's account (a deletion the person
 * asked for by email or telephone, an account that must go). The same as the person's own deletion,
 * with the same refusals said to the administrator: the person is erased everywhere, the records
 * the law keeps stay under "Former member", and the confirmation says an administrator did it. The
 * audit log keeps who did it. Administrators are not deleted (403): another first changes their role.
 */
export async function deleteAccountByAdmin(ctx: AppContext, admin: UserRow, idOrUsername: string): Promise<void> {
  const target = await findUser(ctx, idOrUsername);
  if (!target) throw notFound('User not found');
  if (isAdmin(target)) throw forbidden('Administrator accounts cannot be deleted.');
  const unusable = await hashPassword(randomBytes(24).toString('hex'));
  await inTransaction(
    ctx,
    async (tx) => {
      const user = await lockAccount(tx, target.id);
      if (!user) throw notFound('User not found');
      if (isAdmin(user)) throw forbidden('Administrator accounts cannot be deleted.');
      const blockers = await deletionBlockers(tx.db, user, 'admin');
      if (blockers.length > 0) throw conflict(`This account cannot be deleted yet. ${blockers.join(' ')}`, { blockers: blockers.join('\n') });
      await deleteAndErase(tx, user, unusable, true);
    },
    { by: admin },
  );
}

/** The account, locked for the deletion; undefined when it is already deleted. */
function lockAccount(tx: Tx, userId: string): Promise<UserRow | undefined> {
  return tx.db.selectFrom('users').selectAll().where('id', '=', userId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
}

/**
 * In the deleting transaction: their cars leave Karoo and their unpaid requests are cancelled (the
 * other parties are told), the account is closed, and the person is erased last (account.erasing).
 */
async function deleteAndErase(tx: Tx, user: UserRow, unusablePasswordHash: string, byAdmin: boolean): Promise<{ deleted_at: string; records_kept_until: string }> {
  const ownsCars = !!(await tx.db.selectFrom('cars').select('id').where('owner_id', '=', user.id).where('deleted_at', 'is', null).executeTakeFirst());
  const ref = { id: user.id, username: user.username };
  // The steps in their order, called here rather than left to the order modules subscribe in: the
  // person's cars leave first (each car's bookings are cancelled with it, car.removing), then the
  // trips they asked for as a renter. Either refuses with a 409 while a paid trip is open.
  await removeOwnerCars(tx, ref);
  await cancelRenterBookings(tx, ref);
  await tx.db.updateTable('users').set({ password_hash: unusablePasswordHash, deleted_at: tx.now, updated_at: tx.now }).where('id', '=', user.id).execute();
  // The audit log's record of the deletion names no personal detail: the anonymous username (a short
  // one the erasure's sweep could not find), the role and the status before.
  tx.emit({ type: 'user.deleted', user: { id: user.id, username: anonymousUsername(user.id) }, before: { role: user.role, verification_status: user.verification_status } });
  const until = plusYears(todayIn(tx.now), FINANCIAL_RECORDS_YEARS);
  tx.emit({
    type: 'account.erasing',
    userId: user.id,
    role: user.role,
    person: {
      full_name: user.full_name,
      email: user.email,
      username: user.username,
      phone_number: user.phone_number,
      id_number: user.id_number,
      bank_account_number: user.bank_account_number,
      address: user.address,
    },
    erased: erasedList(ownsCars),
    kept: keptList(until),
    keptUntil: until,
    byAdmin,
  });
  return { deleted_at: tx.now.toISOString(), records_kept_until: until };
}

/** The anonymous username of an erased account: stable, unique, and saying nothing of the person. */
export const anonymousUsername = (userId: string) => `former_${userId.replace(/-/g, '').slice(0, 12)}`;

/**
 * account.erasing's subscriber: the erasure itself, after every other event of the deletion (a
 * notice written later would name the person again, so it waits for them).
 */
export async function eraseAccount(tx: Tx, event: EventOf<'account.erasing'>, ctx: AppContext): Promise<void> {
  if (tx.events[tx.events.length - 1] !== event) {
    tx.emit({ ...event });
    return;
  }
  const { userId, person } = event;
  const anonymous = anonymousUsername(userId);
  const db = tx.db;
  await beginErasure(db);
  await db
    .updateTable('users')
    .set({
      username: anonymous,
      email: `${anonymous}@deleted.invalid`,
      full_name: FORMER_MEMBER,
      phone_number: null,
      address: null,
      id_number: null,
      driver_licence_number: null,
      driver_licence_issued_on: null,
      bank_account_number: null,
      bank_code: null,
      verification_notes: null,
      terms_accepted_at: null,
      privacy_accepted_at: null,
      updated_at: tx.now,
    })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  await db.deleteFrom('password_reset_tokens').where('user_id', '=', userId).execute();
  await db.deleteFrom('sign_in_links').where('user_id', '=', userId).execute();
  await db.deleteFrom('notifications').where('user_id', '=', userId).execute();
  // The payout bank account (decision 068): nothing is paid to a closed account.
  await db.deleteFrom('host_payout_accounts').where('host_id', '=', userId).execute();
  const documents = await db.deleteFrom('user_documents').where('user_id', '=', userId).returning('storage_key').execute();
  const registrations = await db.selectFrom('cars').select('registration_storage_key').where('owner_id', '=', userId).where('registration_storage_key', 'is not', null).execute();
  await db
    .updateTable('cars')
    .set({ registration_storage_key: null, registration_filename: null, registration_mime: null, updated_at: tx.now })
    .where('owner_id', '=', userId)
    .where('registration_storage_key', 'is not', null)
    .execute();
  await db.updateTable('booking_messages').set({ body: DELETED_MESSAGE }).where('sender_id', '=', userId).where('body', '<>', DELETED_MESSAGE).execute();
  await db.deleteFrom('mail_outbox').where(sql<boolean>`lower(to_address) = lower(${person.email})`).execute();
  // The privacy module's requests of this person (a correction names the old and new value; an export is their whole record).
  const exports = await removeOwnRows(db, userId);
  const identities = [person, ...(await earlierIdentities(db, userId))];
  const needles: Needle[] = [];
  for (const who of identities) {
    for (const needle of needlesFor(who, anonymous)) if (!needles.some((n) => n.pattern === needle.pattern)) needles.push(needle);
  }
  const reach = await reachOf(db, userId, { emails: identities.map((p) => p.email), usernames: identities.map((p) => p.username) });
  await sweepMentions(db, needles, reach);
  await endErasure(db);

  await db
    .insertInto('account_deletions')
    .values({ user_id: userId, role: event.role, deleted_at: tx.now, erased: JSON.stringify(event.erased), kept: JSON.stringify(event.kept), records_kept_until: event.keptUntil })
    .execute();
  // The confirmation goes to the address they had: its row is the one copy left, emptied once sent.
  const mail = await renderMail({
    greeting: `Hi ${person.full_name},`,
    paragraphs: [
      `Your Karoo account was deleted on ${todayIn(tx.now)}, ${event.byAdmin ? 'by a Karoo administrator' : 'as you asked'}. You can no longer sign in, and you have been signed out everywhere.`,
      `What we deleted: ${event.erased.map((line) => line.replace(/\.$/, '')).join('; ')}.`,
      `What we keep, and why: ${event.kept.map((k) => `${k.what}, until ${k.until} (${k.why})`).join('; ')}.`,
      `This email is the last message we send to this address; we delete our copy of it once it is delivered. ${event.byAdmin ? 'If you did not ask for this, reply to this email.' : 'If you did not ask for this, reply to this email at once.'}`,
    ],
  });
  const mailId = await queueMail(ctx, tx, { to: person.email, subject: 'Your Karoo account has been deleted', ...mail });
  await ctx.jobs.enqueue(tx, 'privacy.scrub_mail', { mailId }, { delaySeconds: CONFIRMATION_SCRUB_DELAY_SECONDS });
  // A fee waiver's evidence (a death certificate, a hospital letter: health information, decision
  // 067) goes with the account; the request's row stays with the money it moved, and its evidence
  // link answers 404 from now on.
  const waiverEvidence = await db.selectFrom('cancellation_fee_waivers').select('evidence_storage_key').where('renter_id', '=', userId).execute();
  const files = [
    ...documents.map((d) => d.storage_key),
    ...exports,
    ...registrations.map((r) => r.registration_storage_key).filter((k): k is string => !!k),
    ...waiverEvidence.map((w) => w.evidence_storage_key),
  ];
  tx.afterCommit(() => {
    void Promise.all(files.map((key) => ctx.privateFiles.remove(key))).catch(() => undefined);
  });
}

/**
 * Rows of other modules that are wholly the person's own requests, where those tables exist
 * (correction requests, data exports: the privacy module, decision 049). Returns the export files
 * to delete after the commit.
 */
async function removeOwnRows(db: Db, userId: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_name IN ('correction_requests', 'data_exports')
  `.execute(db);
  const present = new Set(rows.map((r) => r.name));
  if (present.has('correction_requests')) await sql`DELETE FROM correction_requests WHERE user_id = ${userId}`.execute(db);
  if (!present.has('data_exports')) return [];
  const { rows: files } = await sql<{ storage_key: string | null }>`DELETE FROM data_exports WHERE user_id = ${userId} RETURNING storage_key`.execute(db);
  return files.map((f) => f.storage_key).filter((k): k is string => !!k);
}

/** Empties a delivered confirmation's row; a row not delivered yet throws, so the job is tried again later. */
export async function scrubDeliveredMail(db: Db, mailId: string): Promise<'scrubbed' | 'gone'> {
  const row = await db.selectFrom('mail_outbox').select(['status']).where('id', '=', mailId).executeTakeFirst();
  if (!row) return 'gone';
  if (row.status === 'pending') throw new Error('The confirmation has not been delivered yet');
  await db
    .updateTable('mail_outbox')
    .set({ to_address: 'erased@deleted.invalid', subject: 'Account deletion confirmation (erased after delivery)', text_body: '[erased after delivery]', html_body: null })
    .where('id', '=', mailId)
    .execute();
  return 'scrubbed';
}

export const scrubMailJob = (ctx: AppContext): JobDefinition<'privacy.scrub_mail'> => ({
  name: 'privacy.scrub_mail',
  payload: z.object({ mailId: z.uuid() }),
  // The mail itself retries for up to about 8 hours; this waits for it, then empties the row either way (sent, kept or failed).
  retry: { limit: 12, delaySeconds: 5 * 60, maxDelaySeconds: 2 * 3600 },
  timeoutSeconds: 60,
  run: async (job) => {
    await scrubDeliveredMail(ctx.db, job.data.mailId);
  },
});
