// Deleting one's own account (issue 24, POPIA s. 24; decision 050) through the routes on the real
// database: refused while a trip is under way or money is owed either way; otherwise no personal
// field of the person is left in ANY text, varchar or JSON column of ANY table (information_schema),
// the ledger still balances to the cent, the confirmation reaches their old address and is emptied
// once delivered, they can no longer sign in, and their host sees "Former member".
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRand, type Booking, type Conversation, type DeletionPlan } from '@karoo/shared';
import { sendMail } from '../src/lib/mail';
import { inTransaction } from '../src/events/domain-events';
import { MENTION_TABLES, NO_MENTION, reachOf, textColumns } from '../src/modules/data-protection';
import { notify } from '../src/modules/notifications';
import * as ledger from '../src/modules/ledger';
import { authHeader, createSignedInUser, createTestApp, createUser, expectError, expectOk, login, loginResponse, MINUTE, SECOND, TEST_PASSWORD, type TestApp } from './helpers';
import { cancelTestTrip, recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar, createTestReview } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
const BASE = '2030-06-10T08:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Thabo Nkosi' });
});
afterAll(() => t.close());

/** A person whose every identifier is unique to them, so the scan finds only them. */
function personOf(n: number) {
  const name = `Sipho${n} Dlamini${n}`;
  return {
    full_name: name,
    email: `sipho.dlamini.${n}@example.org`,
    phone: `+27 82 555 ${String(1000 + n).slice(-4)}`,
    localPhone: `082 555 ${String(1000 + n).slice(-4)}`,
    id_number: `92030458${String(10000 + n).slice(-5)}`,
    bank: `7001${String(100000 + n).slice(-6)}`,
    address: `${n} Bree Street, Cape Town, 8001`,
  };
}

let counter = 0;
async function signedPerson() {
  counter += 1;
  const p = personOf(counter);
  const who = await createSignedInUser(t.app, t.ctx, {
    email: p.email,
    full_name: p.full_name,
    verification_status: 'verified',
    withDocuments: true,
    overrides: { phone_number: p.phone, id_number: p.id_number, bank_account_number: p.bank, address: p.address, driver_licence_issued_on: '2015-05-20' },
  });
  return { ...who, p };
}

const plan = async (who: Signed) => expectOk<DeletionPlan>(await t.app.inject({ method: 'GET', url: '/api/privacy/account-deletion', headers: who.headers }));
const del = (who: Signed, password = TEST_PASSWORD) => t.app.inject({ method: 'POST', url: '/api/privacy/account-deletion', headers: who.headers, payload: { password } });

/** Every row of every text, varchar or JSON column of every table that mentions one of `needles` (case-insensitive). */
async function findMentions(needles: string[]): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    SELECT c.table_name, c.column_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    WHERE c.table_schema = current_schema() AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json')
  `.execute(t.db);
  expect(columns.length).toBeGreaterThan(50);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const { rows } = await sql<{ v: string }>`SELECT ${sql.ref(column_name)}::text AS v FROM ${sql.table(table_name)} WHERE ${sql.ref(column_name)}::text ILIKE ${`%${needle}%`} LIMIT 3`.execute(t.db);
      for (const r of rows) found.push(`${table_name}.${column_name} has "${needle}": ${r.v.slice(0, 160)}`);
    }
  }
  return found;
}

async function ledgerState(bookingIds: string[], hostId: string) {
  const rows = await t.db.selectFrom('ledger_entries').selectAll().orderBy('seq').execute();
  return {
    rows: rows.map((r) => ({ ...r })),
    byBooking: await ledger.sumMoneyByBooking(t.db, { bookingIds }),
    moved: await ledger.sumMoneyMoved(t.db, {}),
    hostBalance: await ledger.hostBalanceCents(t.db, hostId),
    owed: await ledger.hostBalancesOwed(t.db),
  };
}

describe('deleting an account', () => {
  it('erases every personal field of the person everywhere, keeps the ledger balanced, and confirms by email', async () => {
    const renter = await signedPerson();
    const { p } = renter;
    const car = await createTestCar(t.ctx, host.user);
    // A completed, paid trip with its money, a conversation, a review; a cancelled paid trip with its refund.
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-01', days: 3, status: 'completed' });
    await recordTestCharge(t.ctx, { ...trip, payment_reference: `ref-${trip.id}` });
    const cancelled = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-20', days: 2, status: 'active' });
    await recordTestCharge(t.ctx, { ...cancelled, payment_reference: `ref-${cancelled.id}` });
    await cancelTestTrip(t.ctx, { ...cancelled, payment_reference: `ref-${cancelled.id}` }, { at: '2030-05-10T08:00:00Z', cause: 'renter', feeHostCents: 5000, feePlatformCents: 1000 });
    const pending = await createTestBooking(t.ctx, car, renter.user, { start: '2030-07-01', days: 2, status: 'pending' });

    const say = async (who: Signed, body: string) => expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/${trip.id}/messages`, headers: who.headers, payload: { body } }), 201);
    await say(renter, `Hi, this is ${p.full_name}. Call me on ${p.localPhone} or mail ${p.email}.`);
    t.clock.advance(SECOND);
    await say(host, `Thanks ${p.full_name}, your ID ${p.id_number} matches. I live at 3 Loop St.`);
    await createTestReview(t.ctx, car, renter.user, 5, `Lovely car, thanks Thabo! — ${p.full_name}`);
    // Others' records naming them: an admin's audited edit, a mail to the host, a notification of the host.
    expectOk(await t.app.inject({ method: 'PUT', url: `/api/user/update/${renter.user.id}`, headers: admin.headers, payload: { address: `${p.address} (flat 2)` } }));
    await sendMail(t.ctx, { to: host.user.email, subject: `Your trip with ${p.full_name}`, text: `${p.full_name} (${p.phone}) returned the car.`, html: `<p>${p.full_name} returned the car.</p>`, bookingId: trip.id });
    await sendMail(t.ctx, { to: p.email, subject: 'Welcome', text: `Hi ${p.full_name}` });
    await t.outbox.drain();
    const documents = await t.db.selectFrom('user_documents').select('storage_key').where('user_id', '=', renter.user.id).execute();
    expect(documents).toHaveLength(3);
    for (const d of documents) expect(await t.ctx.privateFiles.read(d.storage_key)).not.toBeNull();

    const needles = [p.full_name, p.email, p.phone, p.localPhone, p.id_number, p.bank, p.address];
    expect((await findMentions(needles)).length).toBeGreaterThan(5);
    const before = await ledgerState([trip.id, cancelled.id], host.user.id);

    const shown = await plan(renter);
    expect(shown.blockers).toEqual([]);
    expect(shown.cancelsRequests).toBe(1);
    expect(shown.kept.map((k) => k.why).join(' ')).toMatch(/Tax Administration Act 28 of 2011, s\. 29/);
    expect(shown.records_kept_until).toBe('2035-06-10');

    expectError(await del(renter, 'not-my-password'), 400, /not your password/);
    t.clock.advance(MINUTE);
    const done = expectOk<{ deleted_at: string; records_kept_until: string }>(await del(renter));
    expect(done.records_kept_until).toBe('2035-06-10');

    // The confirmation went to the address they had, listing what went and what stays until when.
    await t.outbox.drain();
    const confirmation = await t.outbox.latest(p.email);
    expect(confirmation).toMatchObject({ subject: 'Your Karoo account has been deleted', status: 'kept' });
    expect(confirmation!.text).toMatch(/What we deleted: Your name, username, email address, phone number and address/);
    expect(confirmation!.text).toMatch(/Payments, refunds, payouts and invoices of your trips \(the ledger\), until 2035-06-10/);
    // ...and is emptied once delivered.
    t.clock.advance(11 * MINUTE);
    expect(await t.ctx.jobs.runDue('privacy.scrub_mail')).toBe(1);
    expect(await t.outbox.latest(p.email)).toBeUndefined();

    // Nothing of the person is left anywhere.
    expect(await findMentions(needles)).toEqual([]);
    // The documents' files are gone from the store.
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (const d of documents) expect(await t.ctx.privateFiles.read(d.storage_key)).toBeNull();

    // The ledger is untouched and still balances per booking.
    const after = await ledgerState([trip.id, cancelled.id], host.user.id);
    expect(after).toEqual(before);
    const money = await ledger.moneyOfBookings(t.db, [trip.id, cancelled.id]);
    for (const m of money.values()) expect(m.chargedCents).toBe(m.refundedCents + m.refundPendingCents + m.refundFailedCents + m.hostShareCents + m.platformShareCents);
    expect(after.rows.filter((r) => r.renter_id === renter.user.id)).toHaveLength(before.rows.filter((r) => r.renter_id === renter.user.id).length);

    // They cannot sign in, and their sessions ended.
    expectError(await loginResponse(t.app, p.email), 401);
    expectError(await loginResponse(t.app, renter.user.username), 401);
    expectError(await t.app.inject({ method: 'GET', url: '/api/privacy/account-deletion', headers: renter.headers }), 401);

    // Their host sees "Former member" on the trip, their words as "[deleted]", mentions rewritten.
    const seen = expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${trip.id}`, headers: host.headers }));
    expect(seen.renter).toMatchObject({ full_name: 'Former member' });
    const talk = expectOk<Conversation>(await t.app.inject({ method: 'GET', url: `/api/booking/${trip.id}/messages`, headers: host.headers }));
    expect(talk.messages.map((m) => [m.sender.full_name, m.body])).toEqual([
      ['Former member', '[deleted]'],
      ['Thabo Nkosi', 'Thanks Former member, your ID [ID number removed] matches. I live at 3 Loop St.'],
    ]);
    const review = await t.db.selectFrom('reviews').select(['comment', 'reviewer_id']).where('car_id', '=', car.id).executeTakeFirstOrThrow();
    expect(review).toEqual({ comment: 'Lovely car, thanks Thabo! — Former member', reviewer_id: renter.user.id });
    // Their unpaid request was cancelled; the register keeps what was done.
    expect(await t.db.selectFrom('bookings').select('status').where('id', '=', pending.id).executeTakeFirstOrThrow()).toEqual({ status: 'cancelled' });
    const register = await t.db.selectFrom('account_deletions').selectAll().where('user_id', '=', renter.user.id).executeTakeFirstOrThrow();
    expect(register).toMatchObject({ role: 'customer', records_kept_until: '2035-06-10' });
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', renter.user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ full_name: 'Former member', phone_number: null, id_number: null, bank_account_number: null, address: null, driver_licence_issued_on: null, verification_status: 'verified' });
    expect(row.deleted_at).not.toBeNull();
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', renter.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('user_documents').select('id').where('user_id', '=', renter.user.id).execute()).toEqual([]);
  });

  it('takes a host’s cars off Karoo', async () => {
    const owner = await signedPerson();
    await t.db.updateTable('users').set({ role: 'host' }).where('id', '=', owner.user.id).execute();
    const car = await createTestCar(t.ctx, owner.user);
    expectOk(await del(owner));
    const row = await t.db.selectFrom('cars').select(['deleted_at', 'status', 'registration_storage_key']).where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row.registration_storage_key).toBeNull();
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}` }), 404);
  });
});

describe('refused with the reason', () => {
  it('while a paid trip is under way or still to come', async () => {
    const renter = await signedPerson();
    const car = await createTestCar(t.ctx, host.user);
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-06-09', days: 3, status: 'active' });
    await recordTestCharge(t.ctx, { ...trip, payment_reference: `ref-${trip.id}` });
    expect((await plan(renter)).blockers.join(' ')).toMatch(/Your paid trip \(booking KT\w+\) is under way or still to come/);
    expectError(await del(renter), 409, /cannot be deleted yet\. Your paid trip/);
    // Nothing happened: they still sign in, as themselves.
    expect(await login(t.app, renter.p.email)).toBeTruthy();
    // And the host of that trip cannot leave either.
    const hostPlan = expectOk<DeletionPlan>(await t.app.inject({ method: 'GET', url: '/api/privacy/account-deletion', headers: host.headers }));
    expect(hostPlan.blockers.join(' ')).toMatch(/A paid trip in your car/);
  });

  it('while Karoo owes a host a payout, or the host owes a penalty', async () => {
    const owner = await signedPerson();
    const renter = await signedPerson();
    await t.db.updateTable('users').set({ role: 'host' }).where('id', '=', owner.user.id).execute();
    const car = await createTestCar(t.ctx, owner.user);
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-01', days: 2, status: 'completed' });
    await recordTestCharge(t.ctx, { ...trip, payment_reference: `ref-${trip.id}` });
    expectError(await del(owner), 409, /Karoo still owes you R/);
    const balance = await ledger.hostBalanceCents(t.db, owner.user.id);
    await ledger.recordPayout(t.db, { bookingId: trip.id, renterId: renter.user.id, hostId: owner.user.id }, { amountCents: balance + 25_000, reference: 'EFT-1', at: t.clock.now(), actorId: admin.user.id });
    expectError(await del(owner), 409, /You owe Karoo R\s?250/);
  });

  it('while a refund is still on its way to the renter', async () => {
    const renter = await signedPerson();
    const car = await createTestCar(t.ctx, host.user);
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-07-01', days: 2, status: 'active' });
    const paid = { ...trip, payment_reference: `ref-${trip.id}` };
    await recordTestCharge(t.ctx, paid);
    await cancelTestTrip(t.ctx, paid, { at: t.clock.now(), cause: 'renter', refundedAt: null });
    expectError(await del(renter), 409, /A refund of R[\s\d]+ to your card is still on its way/);
  });

  it('names a failed refund once, however many Retries failed, and lets go once a Retry is paid (the ledger module\'s rule)', async () => {
    const renter = await signedPerson();
    const car = await createTestCar(t.ctx, host.user);
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-01', days: 2, status: 'active' });
    const paid = { ...trip, payment_reference: `ref-${trip.id}` };
    await recordTestCharge(t.ctx, paid);
    await cancelTestTrip(t.ctx, paid, { at: t.clock.now(), cause: 'renter', refundedAt: null });
    const [first] = await ledger.refundsStillOwedTo(t.db, renter.user.id);
    const refund = await t.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', trip.id).where('kind', '=', 'refund').executeTakeFirstOrThrow();
    expect(first).toMatchObject({ bookingId: trip.id, amountCents: refund.amount_cents, state: 'pending' });
    // It fails; an administrator retries; the retry fails too: one refund is owed, not two.
    await ledger.failRefund(t.db, refund.id, 'Card closed');
    const retry = await ledger.recordRefundRetry(t.db, (await ledger.findEntry(t.db, refund.id))!, t.clock.now(), admin.user.id);
    await ledger.failRefund(t.db, retry.id, 'Card closed');
    expect(await ledger.refundsStillOwedTo(t.db, renter.user.id)).toEqual([{ bookingId: trip.id, amountCents: refund.amount_cents, state: 'failed' }]);
    const blocked = expectError(await del(renter), 409, /A refund of R[\s\d]+ to your card is still on its way/);
    expect(blocked.message).toContain(`A refund of ${formatRand(refund.amount_cents / 100)} to your card`);
    // A second Retry is paid: nothing is owed, and the refund no longer holds the account.
    const again = await ledger.recordRefundRetry(t.db, (await ledger.findEntry(t.db, retry.id))!, t.clock.now(), admin.user.id);
    await ledger.settleRefund(t.db, again.id, { providerReference: `TEST-REFUND-AGAIN-${trip.id}`, at: t.clock.now() });
    expect(await ledger.refundsStillOwedTo(t.db, renter.user.id)).toEqual([]);
  });

  it('for an administrator', async () => {
    expectError(await del(admin), 403, /Administrator accounts/);
  });

  it('needs a signed-in person', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/privacy/account-deletion', payload: { password: 'x' } }), 401);
    const someone = await createUser(t.ctx);
    expect(someone.deleted_at).toBeNull();
    expect(authHeader('nope')).toBeTruthy();
  });
});

describe('the erasure reaches every place a person can be named (erasure.registry.ts)', () => {
  it('lists every text and JSON column of the schema, as one that can name a person or one that cannot (with the reason)', async () => {
    const schema = (await textColumns(t.db)).map((c) => `${c.table}.${c.column}`);
    const mentions = MENTION_TABLES.flatMap((m) => m.columns.map((c) => `${m.table}.${c}`));
    const unlisted = schema.filter((key) => !mentions.includes(key) && !(key in NO_MENTION));
    expect(unlisted, 'columns to add to MENTION_TABLES (with how their rows are found from the person) or to NO_MENTION (with why)').toEqual([]);
    // Nothing listed that the schema does not have, and nothing listed twice.
    expect([...mentions, ...Object.keys(NO_MENTION)].filter((key) => !schema.includes(key))).toEqual([]);
    expect(mentions.filter((key) => key in NO_MENTION)).toEqual([]);
    expect(new Set(mentions).size).toBe(mentions.length);
    for (const why of Object.values(NO_MENTION)) expect(why.length).toBeGreaterThan(10);
  });

  it('rewrites the mentions of a host and renter in the audit log, messages, reports, notifications and mail of the people they dealt with, trip records, disputes, holds, reviews, reversals, breaches and throttles', async () => {
    const person = await signedPerson();
    const { p } = person;
    await t.db.updateTable('users').set({ role: 'host' }).where('id', '=', person.user.id).execute();
    const renter = await signedPerson();
    // As a renter of `host`, and as a host of `renter`.
    const hostsCar = await createTestCar(t.ctx, host.user);
    const rented = await createTestBooking(t.ctx, hostsCar, person.user, { start: '2030-04-01', days: 2, status: 'completed' });
    const ownCar = await createTestCar(t.ctx, person.user);
    const hosted = await createTestBooking(t.ctx, ownCar, renter.user, { start: '2030-04-10', days: 2, status: 'completed' });
    const named = `${p.full_name} (${p.localPhone})`;
    const message = await t.db.insertInto('booking_messages').values({ booking_id: rented.id, sender_id: host.user.id, body: `See you, ${named}` }).returning('id').executeTakeFirstOrThrow();
    await t.db.insertInto('booking_message_reports').values({ message_id: message.id, reporter_id: host.user.id, reason: `${p.full_name} sent me ${p.email}` }).execute();
    await t.db.insertInto('trip_records').values({ booking_id: hosted.id, stage: 'check_in', party: 'renter', author_id: renter.user.id, odometer_km: 1000, fuel_eighths: 8, note: `Met ${named}`, created_at: t.clock.now() }).execute();
    await t.db
      .insertInto('trip_disputes')
      .values({ booking_id: hosted.id, kind: 'damage', description: `Scratch; ask ${p.full_name}`, opened_by: person.user.id, status: 'resolved', resolved_by: admin.user.id, resolved_at: t.clock.now(), resolution_note: `Settled with ${p.email}`, created_at: t.clock.now() })
      .execute();
    await t.db.insertInto('car_holds').values({ car_id: ownCar.id, during: sql`tstzrange('2030-08-01', '2030-08-03')`, note: `${p.full_name} on leave`, created_by: person.user.id }).execute();
    await t.db.insertInto('reviews').values({ car_id: ownCar.id, booking_id: hosted.id, reviewer_id: renter.user.id, rating: 5, comment: `${p.full_name} was kind` }).execute();
    await t.db
      .insertInto('payout_reversals')
      .values({ booking_id: hosted.id, amount_cents: 100, payout_reference: 'EFT-9', paid_at: t.clock.now(), reason: `Wrong account of ${p.full_name}`, reversed_by: admin.user.id, reversed_by_username: admin.user.username, reversed_at: t.clock.now() })
      .execute();
    // Notices and mail about their bookings (as notify() writes them, migration 0043), and one of each
    // written before 0043, whose booking is not known: found by recipient.
    await t.db.insertInto('notifications').values({ user_id: renter.user.id, type: 'booking', title: `${p.full_name} accepted`, message: `Call ${p.phone}`, link: null, booking_id: hosted.id }).execute();
    await t.db.insertInto('notifications').values({ user_id: admin.user.id, type: 'report', title: 'Reported message', message: `Reported by ${p.full_name}`, link: null, booking_id: rented.id }).execute();
    await t.db.insertInto('notifications').values({ user_id: host.user.id, type: 'booking', title: 'Older notice', message: `${p.full_name} asked to book`, link: null, reach_recorded: false }).execute();
    await sendMail(t.ctx, { to: renter.user.email, subject: `Your trip with ${p.full_name}`, text: `${p.full_name} (${p.email}) accepted.`, bookingId: hosted.id });
    const olderMail = await sendMail(t.ctx, { to: host.user.email, subject: 'Older mail', text: `${p.full_name} asked to book.` });
    await t.db.updateTable('mail_outbox').set({ reach_recorded: false }).where('id', '=', olderMail).execute();
    expectOk(await t.app.inject({ method: 'PUT', url: `/api/user/update/${person.user.id}`, headers: admin.headers, payload: { address: `${p.address} (back door)` } }));
    await t.db
      .insertInto('audit_log')
      .values([
        { admin_id: admin.user.id, admin_username: admin.user.username, action: 'booking.cancelled', target_type: 'booking', target_id: rented.id, target_label: rented.booking_number, reason: `${p.full_name} asked` },
        { admin_id: admin.user.id, admin_username: admin.user.username, action: 'car.verified', target_type: 'car', target_id: ownCar.id, target_label: ownCar.car_username, after: JSON.stringify({ note: `Owner ${p.full_name}` }) },
      ])
      .execute();
    const breach = await t.db
      .insertInto('data_breaches')
      .values({ summary: `A laptop with ${p.full_name}'s file was lost`, discovered_at: t.clock.now(), data_categories: JSON.stringify(['identity']), measures: 'Remote wipe done.', advice: 'Watch for phishing.', scope: 'listed', recorded_by: admin.user.id, recorded_at: t.clock.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.insertInto('data_breach_notices').values({ breach_id: breach.id, user_id: person.user.id, notified_at: t.clock.now() }).execute();
    await sql`INSERT INTO reset_request_throttle (key, granted_at) VALUES (${`email:${p.email}`}, ARRAY[now()])`.execute(t.db);
    await sql`INSERT INTO sign_in_throttle (key, failures, window_started_at, last_failed_at, wait_until, prev_wait_until)
      VALUES (${`pair:name:${p.email}|203.0.113.9`}, 2, now(), now(), now(), now())`.execute(t.db);

    const needles = [p.full_name, p.email, p.phone, p.localPhone, p.address];
    const before = await findMentions(needles);
    for (const table of ['audit_log', 'booking_messages', 'booking_message_reports', 'trip_records', 'trip_disputes', 'car_holds', 'reviews', 'payout_reversals', 'notifications', 'mail_outbox', 'data_breaches', 'reset_request_throttle', 'sign_in_throttle']) {
      expect(before.some((line) => line.startsWith(`${table}.`)), table).toBe(true);
    }

    expectOk(await del(person));
    // The confirmation to their own address is the one copy left, emptied once delivered.
    await t.outbox.drain();
    t.clock.advance(11 * MINUTE);
    await t.ctx.jobs.runDue('privacy.scrub_mail');
    expect(await findMentions(needles)).toEqual([]);
    expect(await t.db.selectFrom('booking_messages').select('body').where('id', '=', message.id).executeTakeFirstOrThrow()).toEqual({ body: 'See you, Former member ([phone number removed])' });
    const dispute = await t.db.selectFrom('trip_disputes').select(['description', 'resolution_note']).where('booking_id', '=', hosted.id).executeTakeFirstOrThrow();
    expect(dispute).toEqual({ description: 'Scratch; ask Former member', resolution_note: 'Settled with [email removed]' });
    // A deleted account's counters go; the breach's record stays, without the name.
    expect(await t.db.selectFrom('reset_request_throttle').select('key').where('key', '=', `email:${p.email}`).execute()).toEqual([]);
    expect(await t.db.selectFrom('data_breaches').select('summary').where('id', '=', breach.id).executeTakeFirstOrThrow()).toEqual({ summary: "A laptop with Former member's file was lost" });
  });

  it('reads the notices and mail about their own bookings, not every notice of the people they dealt with (migration 0043)', async () => {
    const person = await signedPerson();
    const { p } = person;
    const hostsCar = await createTestCar(t.ctx, host.user);
    const rented = await createTestBooking(t.ctx, hostsCar, person.user, { start: '2030-05-01', days: 2, status: 'completed' });
    const stranger = await signedPerson();
    const strangersTrip = await createTestBooking(t.ctx, hostsCar, stranger.user, { start: '2030-05-10', days: 2, status: 'completed' });
    // The host's notices through notify(), as the bookings module writes them: one about the
    // person's trip, one about another renter's trip.
    await inTransaction(t.ctx, (tx) => notify(t.ctx, tx, host.user.id, { type: 'booking', title: 'Trip ended', message: `${p.full_name} returned the car.`, booking: { id: rented.id } }));
    await inTransaction(t.ctx, (tx) => notify(t.ctx, tx, host.user.id, { type: 'booking', title: 'Trip ended', message: `${stranger.p.full_name} returned the car.`, booking: { id: strangersTrip.id } }));
    const stored = await t.db.selectFrom('notifications').select(['booking_id', 'reach_recorded', 'message']).where('user_id', '=', host.user.id).where('title', '=', 'Trip ended').execute();
    expect(stored).toEqual(expect.arrayContaining([{ booking_id: rented.id, reach_recorded: true, message: `${p.full_name} returned the car.` }]));
    const mails = await t.db.selectFrom('mail_outbox').select(['booking_id', 'user_id']).where('to_address', '=', host.user.email).where('subject', 'like', 'Trip ended%').execute();
    expect(mails).toEqual(expect.arrayContaining([{ booking_id: rented.id, user_id: host.user.id }, { booking_id: strangersTrip.id, user_id: host.user.id }]));

    const reach = await reachOf(t.db, person.user.id, { emails: [person.user.email], usernames: [person.user.username] });
    const rowsOf = (table: string) => MENTION_TABLES.find((m) => m.table === table)!.rowsOf(reach)!;
    const reached = async (table: 'notifications' | 'mail_outbox') =>
      (await sql<{ booking_id: string | null }>`SELECT t.booking_id FROM ${sql.table(table)} AS t WHERE ${rowsOf(table)}`.execute(t.db)).rows.map((r) => r.booking_id);
    // The host's notice and mail of the other renter's trip are not read; those of the person's trip are.
    for (const table of ['notifications', 'mail_outbox'] as const) {
      const ids = await reached(table);
      expect(ids, table).toContain(rented.id);
      expect(ids, table).not.toContain(strangersTrip.id);
    }

    expectOk(await del(person));
    const after = await t.db.selectFrom('notifications').select('message').where('user_id', '=', host.user.id).where('booking_id', '=', rented.id).executeTakeFirstOrThrow();
    expect(after.message).toBe('Former member returned the car.');
  });
});
