// Payouts sent by themselves (issue 35; decision 068), on the embedded sandbox provider: a host's
// bank account checked (the bank's holder name confirmed), a change holding payouts and mailed;
// the run paying each host on their schedule (Johannesburg days, public holidays moved), after the
// payout delay, less penalties, never below zero, never twice (two runs at once make one transfer);
// a failed transfer owed again and retried by an administrator; a reversal days later; pauses.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRand, type AdminPayouts, type AuditEntry, type HostPayouts, type PayoutTransfer, type ResolvedBankAccount } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { hostBalanceCents } from '../src/modules/ledger';
import { runPayouts, syncTransfers } from '../src/modules/payouts';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';
import { DAY, HOUR } from './helpers/clock';
import { cancelTestTrip, recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let renter: Signed;
let tripCounter = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-04-01T06:00:00.000Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

/** Johannesburg 10:00 of a day (08:00 UTC). */
const at10 = (day: string) => `${day}T08:00:00.000Z`;

/** A session signed in now (the clock moves by months between tests; a remembered one lasts the test). */
async function signedIn<T extends Signed>(who: T): Promise<T> {
  const token = await login(t.app, who.user.username, undefined, { remember: true });
  return { ...who, token, headers: authHeader(token) };
}
const adminHeaders = async () => (await signedIn(admin)).headers;
const renterHeaders = async () => (await signedIn(renter)).headers;

async function newHost(): Promise<Signed & { car: CarRow }> {
  const host = await signedIn(await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  return { ...host, car: await createTestCar(t.ctx, host.user) };
}

/** A completed trip of the host's car, its charge shared, completed at `completedAt`. */
async function completedTrip(host: { car: CarRow }, completedAt: string) {
  tripCounter += 1;
  const start = new Date(Date.UTC(2029, 0, 1 + tripCounter * 4)).toISOString().slice(0, 10);
  const b = await createTestBooking(t.ctx, host.car, renter.user, { start, days: 2, status: 'completed' });
  const paid = await t.db.updateTable('bookings').set({ paid_at: new Date(completedAt), completed_at: new Date(completedAt) }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, paid, completedAt);
  return paid;
}

async function addAccount(host: Signed, accountNumber = '62012345678') {
  const resolved = expectOk<ResolvedBankAccount>(await t.app.inject({ method: 'POST', url: '/api/payouts/bank-account/resolve', headers: host.headers, payload: { bank_code: '250655', account_number: accountNumber } }));
  return expectOk<HostPayouts>(await t.app.inject({ method: 'PUT', url: '/api/payouts/bank-account', headers: host.headers, payload: { bank_code: '250655', account_number: accountNumber, confirmed_account_name: resolved.account_name } }));
}

const payoutsOf = async (host: Signed) => expectOk<HostPayouts>(await t.app.inject({ method: 'GET', url: '/api/payouts', headers: host.headers }));
const adminView = async () => expectOk<AdminPayouts>(await t.app.inject({ method: 'GET', url: '/api/admin/payouts', headers: await adminHeaders() }));
const transfersOf = (hostId: string) => t.db.selectFrom('payout_transfers').selectAll().where('host_id', '=', hostId).orderBy('created_at').execute();
const payoutRows = (hostId: string) =>
  t.db.selectFrom('ledger_entries').select(['kind', 'code', 'state', 'amount_cents', 'provider_reference', 'booking_id']).where('host_id', '=', hostId).where('kind', 'in', ['payout', 'payout_reversal']).orderBy('seq').execute();
const setSettings = async (payload: Record<string, unknown>) => expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: await adminHeaders(), payload }));

describe('a host adds a bank account', () => {
  it('sees the name the bank returned, must confirm that name, and is not held for a first account', async () => {
    const host = await newHost();
    const resolved = expectOk<ResolvedBankAccount>(await t.app.inject({ method: 'POST', url: '/api/payouts/bank-account/resolve', headers: host.headers, payload: { bank_code: '250655', account_number: '62012345678' } }));
    expect(resolved).toEqual({ bank_code: '250655', bank_name: 'First National Bank', account_number: '62012345678', account_name: 'T MOKOENA' });
    expectError(await t.app.inject({ method: 'PUT', url: '/api/payouts/bank-account', headers: host.headers, payload: { bank_code: '250655', account_number: '62012345678', confirmed_account_name: 'J SMITH' } }), 409, /T MOKOENA/);
    expectError(await t.app.inject({ method: 'POST', url: '/api/payouts/bank-account/resolve', headers: host.headers, payload: { bank_code: '250655', account_number: '62012340000' } }), 400, /Could not resolve/);
    expectError(await t.app.inject({ method: 'POST', url: '/api/payouts/bank-account/resolve', headers: host.headers, payload: { bank_code: '250655', account_number: '12' } }), 400);
    const saved = await addAccount(host);
    expect(saved.account).toMatchObject({ bank_name: 'First National Bank', account_number_last4: '5678', account_name: 'T MOKOENA', hold_until: null });
    // The full number never comes back.
    expect(JSON.stringify(saved)).not.toContain('62012345678');
  });

  it('a changed account holds payouts for the cooling-off hours and is mailed to the host', async () => {
    t.clock.set(at10('2030-04-08'));
    const host = await newHost();
    await addAccount(host);
    await completedTrip(host, '2030-04-01T08:00:00.000Z');
    await addAccount(host, '62099999993');
    const view = await payoutsOf(host);
    expect(view.account!.hold_until).toBe(new Date(Date.parse(at10('2030-04-08')) + 48 * HOUR).toISOString());
    expect(view.next_payout.held_reason).toMatch(/bank account changed/);
    const mail = await t.outbox.latest(host.user.email);
    expect(mail?.subject).toBe('Your payout bank account was changed');
    expect(mail?.text).toContain('ending 9993');
    // A daily ("each trip") schedule: today's run holds it, the run after the hold pays.
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    expect((await runPayouts(t.ctx)).held).toBeGreaterThanOrEqual(1);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    t.clock.set(at10('2030-04-10'));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(1);
  });
});

describe('the scheduled run', () => {
  it('pays once the claim window has closed (72 h, past the 48 h delay), on the weekly day, moved past Good Friday and Family Day', async () => {
    t.clock.set(at10('2030-04-16'));
    const host = await newHost();
    await addAccount(host);
    // Weekly on Friday (the default). The trip completes Tue 16 Apr 2030, 10:00; the host may file
    // trip charges until Fri 19 Apr, 10:00, so its share is payable from then, not from Thursday.
    const trip = await completedTrip(host, at10('2030-04-16'));
    t.clock.set(at10('2030-04-18'));
    const early = await payoutsOf(host);
    expect(early.next_payout.amount).toBe(0);
    expect(early.upcoming).toEqual([{ booking_number: trip.booking_number, amount: trip.car_owner_earnings_cents / 100, payable_from: new Date(Date.parse(at10('2030-04-16')) + 72 * HOUR).toISOString() }]);
    // Fri 19 Apr is Good Friday and Mon 22 Apr Family Day: the run moves to Tue 23 Apr.
    t.clock.set(at10('2030-04-19'));
    const due = await payoutsOf(host);
    expect(due.next_payout).toMatchObject({ amount: trip.car_owner_earnings_cents / 100, day: '2030-04-23', held_reason: null });
    expect(due.next_payout.lines).toEqual([{ kind: 'trip', booking_number: trip.booking_number, label: `${trip.booking_number} · Toyota Corolla`, amount: trip.car_owner_earnings_cents / 100 }]);
    await runPayouts(t.ctx);
    t.clock.set(at10('2030-04-22'));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    t.clock.set('2030-04-22T21:59:00.000Z'); // 23:59 in Johannesburg, still Monday
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    t.clock.set('2030-04-22T22:01:00.000Z'); // 00:01 Tuesday in Johannesburg
    await runPayouts(t.ctx);
    const [transfer] = await transfersOf(host.user.id);
    expect(transfer).toMatchObject({ state: 'success', amount_cents: trip.car_owner_earnings_cents, run_key: `${host.user.id}:2030-04-23` });
    expect(await payoutRows(host.user.id)).toEqual([{ kind: 'payout', code: 'transfer', state: 'succeeded', amount_cents: trip.car_owner_earnings_cents, provider_reference: transfer!.reference, booking_id: trip.id }]);
    const booking = await t.db.selectFrom('bookings').select(['payout_status', 'payout_reference']).where('id', '=', trip.id).executeTakeFirstOrThrow();
    expect(booking).toEqual({ payout_status: 'paid', payout_reference: transfer!.reference });
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(0);
    // The host sees it with its state and reference.
    const after = await payoutsOf(host);
    expect(after.transfers).toEqual([expect.objectContaining({ state: 'success', reference: transfer!.reference, amount: trip.car_owner_earnings_cents / 100, bookings: [trip.booking_number] })]);
    expect(after.next_payout.amount).toBe(0);
  });

  it('holds a trip with a trip charge still open (awaiting the renter, or disputed) until the claim is settled', async () => {
    t.clock.set(at10('2030-07-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const trip = await completedTrip(host, at10('2030-07-01'));
    // The host files a claim inside the window; the renter disputes it.
    const claim = await t.db
      .insertInto('trip_claims')
      .values({ booking_id: trip.id, host_id: trip.owner_id, renter_id: trip.renter_id, status: 'disputed', claimed_cents: 45_000, answer_due_at: new Date(at10('2030-07-04')), created_at: new Date(at10('2030-07-02')), updated_at: new Date(at10('2030-07-02')) })
      .returning('id')
      .executeTakeFirstOrThrow();
    t.clock.set(at10('2030-07-08'));
    const held = await payoutsOf(host);
    expect(held.next_payout.amount).toBe(0);
    expect(held.upcoming.map((u) => u.booking_number)).toEqual([trip.booking_number]);
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    // Settled (here withdrawn by the host): the share is paid on the next run.
    await t.db.updateTable('trip_claims').set({ status: 'withdrawn', updated_at: new Date(at10('2030-07-08')) }).where('id', '=', claim.id).execute();
    await runPayouts(t.ctx);
    const [transfer] = await transfersOf(host.user.id);
    expect(transfer).toMatchObject({ amount_cents: trip.car_owner_earnings_cents });
  });

  it('waits for the claim window from the check-out when the host records it after the return (found by the ledger property)', async () => {
    t.clock.set(at10('2030-07-15'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    // Returned Mon 15 Jul 10:00; the host's check-out record (photos, fuel, odometer) written 20 hours
    // later, on Tue 06:00, within the 24 hours allowed: trip charges may be filed until Fri 06:00.
    const trip = await completedTrip(host, at10('2030-07-15'));
    await t.db
      .insertInto('trip_records')
      .values({ booking_id: trip.id, stage: 'check_out', party: 'host', author_id: host.user.id, odometer_km: 10_300, fuel_eighths: 5, note: '', created_at: new Date(Date.parse(at10('2030-07-15')) + 20 * HOUR) })
      .execute();
    // Thu 18 Jul 12:00: 74 hours after the return, inside the window. Paying now would mark the trip
    // paid, and a claim filed before Fri 06:00 would add shares no run pays.
    t.clock.set(new Date(Date.parse(at10('2030-07-15')) + 74 * HOUR));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    expect((await payoutsOf(host)).upcoming.map((u) => [u.booking_number, u.payable_from])).toEqual([[trip.booking_number, new Date(Date.parse(at10('2030-07-15')) + 92 * HOUR).toISOString()]]);
    // Fri 19 Jul 10:00, the window closed: paid.
    t.clock.set(at10('2030-07-19'));
    await runPayouts(t.ctx);
    expect((await transfersOf(host.user.id)).map((x) => x.amount_cents)).toEqual([trip.car_owner_earnings_cents]);
  });

  it('monthly on a day: a day falling on a weekend moves to the Monday', async () => {
    t.clock.set(at10('2030-05-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'monthly', month_day: 25 } }));
    expectError(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'monthly', month_day: 31 } }), 400);
    await completedTrip(host, at10('2030-05-01'));
    // 25 May 2030 is a Saturday: the run is Mon 27 May.
    t.clock.set(at10('2030-05-25'));
    expect((await payoutsOf(host)).next_payout.day).toBe('2030-05-27');
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    t.clock.set(at10('2030-05-27'));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(1);
  });

  it('never pays twice: two runs at once, and a later run of the day, make one transfer', async () => {
    t.clock.set(at10('2030-06-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const a = await completedTrip(host, at10('2030-06-01'));
    const b = await completedTrip(host, at10('2030-06-02'));
    t.clock.set(at10('2030-06-05'));
    await Promise.all([runPayouts(t.ctx), runPayouts(t.ctx), runPayouts(t.ctx)]);
    await runPayouts(t.ctx);
    const transfers = await transfersOf(host.user.id);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.amount_cents).toBe(a.car_owner_earnings_cents + b.car_owner_earnings_cents);
    const rows = await payoutRows(host.user.id);
    expect(rows.reduce((s, r) => s + Number(r.amount_cents), 0)).toBe(a.car_owner_earnings_cents + b.car_owner_earnings_cents);
    // The next business day has nothing left to pay.
    t.clock.set(at10('2030-06-06'));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(1);
    // Mark paid by hand cannot pay it again either: the trip is paid, and the ledger unchanged.
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/earnings/earning/updatePayout/${a.id}`, headers: await adminHeaders(), payload: { payout_status: 'paid' } }));
    expect(await payoutRows(host.user.id)).toHaveLength(rows.length);
  });

  it('deducts penalties, never below zero', async () => {
    t.clock.set(at10('2030-07-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const trip = await completedTrip(host, at10('2030-07-01'));
    // A paid trip the host cancelled: a R 500 penalty.
    tripCounter += 1;
    const start = new Date(Date.UTC(2029, 0, 1 + tripCounter * 4)).toISOString().slice(0, 10);
    const cancelled = await createTestBooking(t.ctx, host.car, renter.user, { start, days: 2, status: 'active' });
    await recordTestCharge(t.ctx, cancelled, at10('2030-07-01'));
    await cancelTestTrip(t.ctx, cancelled, { at: at10('2030-07-01'), cause: 'host', penaltyCents: 50_000 });
    t.clock.set(at10('2030-07-04'));
    const view = await payoutsOf(host);
    const share = trip.car_owner_earnings_cents;
    expect(view.next_payout.amount).toBe(Math.max(0, share - 50_000) / 100);
    expect(view.next_payout.lines.at(-1)).toEqual({ kind: 'penalty', booking_number: null, label: 'Cancellation penalties deducted', amount: -Math.min(share, 50_000) / 100 });
    await runPayouts(t.ctx);
    const transfers = await transfersOf(host.user.id);
    if (share > 50_000) expect(transfers.map((x) => x.amount_cents)).toEqual([share - 50_000]);
    else expect(transfers).toHaveLength(0);
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(Math.min(0, share - 50_000));
  });
});

describe('a transfer that fails or is reversed', () => {
  it('fails: owed again, the host told, the admins see it with a Retry that pays it (audited)', async () => {
    t.clock.set(at10('2030-08-01'));
    const host = await newHost();
    await addAccount(host, '62012341111');
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const trip = await completedTrip(host, at10('2030-08-01'));
    t.clock.set(at10('2030-08-05'));
    await runPayouts(t.ctx);
    const [failed] = await transfersOf(host.user.id);
    expect(failed).toMatchObject({ state: 'failed', failure_reason: 'The bank refused the credit (account dormant).' });
    expect(await payoutRows(host.user.id)).toEqual([expect.objectContaining({ kind: 'payout', state: 'failed', provider_reference: failed!.reference })]);
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(trip.car_owner_earnings_cents);
    expect((await t.db.selectFrom('bookings').select('payout_status').where('id', '=', trip.id).executeTakeFirstOrThrow()).payout_status).toBe('pending');
    expect((await t.outbox.latest(host.user.email))?.subject).toBe('Payout failed');
    // The next run does not send it again by itself: it waits for an administrator.
    t.clock.set(at10('2030-08-06'));
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(1);
    const seen = (await adminView()).transfers.find((x) => x.id === failed!.id)!;
    expect(seen).toMatchObject({ state: 'failed', retried: false, host_username: host.user.username });
    // Strangers: a renter has no payouts, and the admin routes are not theirs.
    expectError(await t.app.inject({ method: 'GET', url: '/api/payouts', headers: await renterHeaders() }), 403);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${failed!.id}/retry`, headers: host.headers })).statusCode).toBeGreaterThanOrEqual(403);
    expectError(await t.app.inject({ method: 'POST', url: '/api/admin/payouts/transfers/00000000-0000-4000-8000-000000000000/retry', headers: await adminHeaders() }), 404);
    const retried = expectOk<PayoutTransfer>(await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${failed!.id}/retry`, headers: await adminHeaders() }));
    expect(retried).toMatchObject({ state: 'success', amount: trip.car_owner_earnings_cents / 100 });
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${failed!.id}/retry`, headers: await adminHeaders() }), 409);
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(0);
    const audit = expectOk<{ items: AuditEntry[] }>(await t.app.inject({ method: 'GET', url: '/api/admin/audit?action=payout.transfer_retried', headers: await adminHeaders() }));
    expect(JSON.stringify(audit)).toContain(failed!.reference);
  });

  it('reversed by the bank days later: a reversal row, owed again, the host told', async () => {
    t.clock.set(at10('2030-09-02'));
    const host = await newHost();
    await addAccount(host, '62012342222');
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const trip = await completedTrip(host, at10('2030-09-02'));
    t.clock.set(at10('2030-09-05'));
    await runPayouts(t.ctx);
    const [paid] = await transfersOf(host.user.id);
    expect(paid!.state).toBe('success');
    t.clock.set(at10('2030-09-06'));
    await syncTransfers(t.ctx);
    expect((await transfersOf(host.user.id))[0]!.state).toBe('success');
    t.clock.set(at10('2030-09-09'));
    await syncTransfers(t.ctx);
    await syncTransfers(t.ctx);
    expect((await transfersOf(host.user.id))[0]).toMatchObject({ state: 'reversed' });
    expect((await payoutRows(host.user.id)).map((r) => [r.kind, r.code, r.state, Number(r.amount_cents)])).toEqual([
      ['payout', 'transfer', 'succeeded', trip.car_owner_earnings_cents],
      ['payout_reversal', 'transfer_reversed', 'succeeded', trip.car_owner_earnings_cents],
    ]);
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(trip.car_owner_earnings_cents);
    expect((await t.outbox.latest(host.user.email))?.subject).toBe('Payout returned by your bank');
    expect((await adminView()).transfers.find((x) => x.id === paid!.id)).toMatchObject({ state: 'reversed', retried: false });
  });
});

describe('pauses', () => {
  it('one host (audited, with a reason) and everyone (a setting)', async () => {
    t.clock.set(at10('2030-10-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    await completedTrip(host, at10('2030-10-01'));
    t.clock.set(at10('2030-10-04'));
    expectError(await t.app.inject({ method: 'PUT', url: `/api/admin/payouts/hosts/${host.user.id}/pause`, headers: await adminHeaders(), payload: { paused: true } }), 400);
    expectError(await t.app.inject({ method: 'PUT', url: `/api/admin/payouts/hosts/${renter.user.id}/pause`, headers: await adminHeaders(), payload: { paused: true, reason: 'Checking' } }), 404);
    const paused = expectOk<AdminPayouts>(await t.app.inject({ method: 'PUT', url: `/api/admin/payouts/hosts/${host.user.id}/pause`, headers: await adminHeaders(), payload: { paused: true, reason: 'Checking a fraud report' } }));
    expect(paused.paused_hosts).toEqual(expect.arrayContaining([expect.objectContaining({ host_id: host.user.id, reason: 'Checking a fraud report' })]));
    expect(paused.scheduled.find((s) => s.host_id === host.user.id)?.held_reason).toMatch(/paused/);
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    const audit = expectOk<{ items: AuditEntry[] }>(await t.app.inject({ method: 'GET', url: '/api/admin/audit?action=payout.host_paused', headers: await adminHeaders() }));
    expect(JSON.stringify(audit)).toContain('Checking a fraud report');
    expectOk(await t.app.inject({ method: 'PUT', url: `/api/admin/payouts/hosts/${host.user.id}/pause`, headers: await adminHeaders(), payload: { paused: false } }));
    await setSettings({ payouts_paused: true });
    expect((await adminView()).paused_all).toBe(true);
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(0);
    await setSettings({ payouts_paused: false });
    const before = await adminView();
    expect(before.needed_for_next_run).toBeGreaterThan(0);
    await runPayouts(t.ctx);
    expect(await transfersOf(host.user.id)).toHaveLength(1);
  });
});

describe('the statement', () => {
  it("is a PDF of the month's transfers", async () => {
    t.clock.set(at10('2030-11-01'));
    const host = await newHost();
    await addAccount(host);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
    const paid = await completedTrip(host, at10('2030-11-01'));
    t.clock.set(at10('2030-11-05'));
    await runPayouts(t.ctx);
    // A second trip, inside its claim window: owed, not yet sent.
    const owed = await completedTrip(host, at10('2030-11-05'));
    expect((await payoutsOf(host)).statement_months).toEqual(['2030-11']);
    const res = await t.app.inject({ method: 'GET', url: '/api/payouts/statements/2030-11', headers: host.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.rawPayload }).toString().replace(/\u00a0/g, ' ');
    const amountAfter = (label: string) => new RegExp(`${label}[^\\n]*?(R\\s?[\\d ]+(?:,\\d{2})?)\\s*$`, 'm').exec(text)?.[1]?.replace(/\s/g, '');
    expect(amountAfter('Paid into your account')).toBe(formatRand(paid.car_owner_earnings_cents / 100).replace(/\s/g, ''));
    expect(amountAfter('not yet sent')).toBe(formatRand(owed.car_owner_earnings_cents / 100).replace(/\s/g, ''));
    expectError(await t.app.inject({ method: 'GET', url: '/api/payouts/statements/2030-13', headers: host.headers }), 400);
  });
});

// Unused import guard for DAY (used by the clock helpers' readers).
void DAY;
