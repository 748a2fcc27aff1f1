// The Consumer Protection Act s. 17 waiver (issue 34; decision 067), through the routes on the real
// database: a renter who cancelled late (and kept a fee) asks with evidence; an admin approves with a
// reason (audited) and the fee comes back as ledger rows (the host's and the platform's parts taken
// back, a refund paid through the provider); a decline can be asked again; the host never sees the
// request; wrong askers and wrong trips get a clear 4xx, strangers 404. The renter's receipt (read
// back with pdftotext) names the waiver's refund, as a new document replacing the one before; the
// host's invoice names their share taken back.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SUCCESS_CARD } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectError, expectOk, multipart, pdfBytes, rememberedSession, TEST_PASSWORD, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Waiver = { id: string; status: string; fee: number; decision_reason: string | null; evidence_url: string };

let t: TestApp;
let admin: Signed;
let stranger: Signed;
let month = 0;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/**
 * A paid two-day trip at R 600 a day (10 to 12 of its own month, 09:00 to 17:00), without a deposit,
 * cancelled by the renter `hoursBefore` its start. Late (within 24 hours), the policy keeps half of
 * one day's price: R 300, of which the host earns 75 % (the 25 % host fee): R 225, and Karoo R 75.
 */
async function cancelledTrip(hoursBefore: number) {
  month += 1;
  const mm = String(month).padStart(2, '0');
  t.clock.set(`2031-${mm}-01T08:00:00.000Z`);
  admin = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' }));
  stranger = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  const host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  const renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  const car = await createTestCar(t.ctx, host.user, { price: 600, overrides: { deposit_cents: 0 } });
  const created = await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car.car_username, start_date: `2031-${mm}-10`, end_date: `2031-${mm}-12`, start_time: '09:00', end_time: '17:00' } });
  const bookingId = expectOk<{ id: string }>(created, 201).id;
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${bookingId}`, headers: host.headers }));
  const session = expectOk<{ reference: string }>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/payment-session`, headers: renter.headers }));
  const paid = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: renter.headers, payload: { reference: session.reference, card_number: SANDBOX_SUCCESS_CARD, expiry: '12/39', cvv: '123' } });
  expect(paid.statusCode, paid.body).toBe(200);
  // The trip starts at 09:00 Johannesburg, 07:00 UTC.
  t.clock.set(new Date(Date.parse(`2031-${mm}-10T07:00:00.000Z`) - hoursBefore * 3_600_000));
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/${bookingId}/cancel`, headers: renter.headers, payload: {} }));
  const booking = await t.ctx.db.selectFrom('bookings').select(['total_price_cents']).where('id', '=', bookingId).executeTakeFirstOrThrow();
  return { host, renter, bookingId, totalCents: booking.total_price_cents };
}

function ask(who: Signed, bookingId: string, waiver: Record<string, unknown> = { ground: 'hospital', person: 'family', statement: 'My mother was admitted to Groote Schuur the night before.' }, withEvidence = true) {
  const body = multipart([{ name: 'waiver', value: JSON.stringify(waiver) }, ...(withEvidence ? [{ name: 'evidence', filename: 'letter.pdf', data: pdfBytes('Hospital admission letter'), contentType: 'application/pdf' }] : [])]);
  return t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/fee-waiver`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
}
const decide = (who: Signed, id: string, payload: Record<string, unknown>) => t.app.inject({ method: 'PATCH', url: `/api/admin/fee-waivers/${id}/decide`, headers: who.headers, payload });
const pdfOf = async (who: Signed, bookingId: string, kind: 'receipt' | 'invoice') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/booking/${bookingId}/${kind}.pdf`, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.rawPayload }).toString('utf8').replace(/\u00a0/g, ' ');
};
/** The lines of a document's text (trimmed, spaces folded, "R0" as "R 0": pdftotext drops that space), to read a label and its amount. */
const linesOf = (text: string) => text.split('\n').map((l) => l.trim().replace(/\s+/g, ' ').replace(/\bR(\d)/g, 'R $1')).filter(Boolean);
const receiptNumber = (text: string) => /Receipt no\.\s+(RC-\d{6})/.exec(text)?.[1];
const ledgerOf = (bookingId: string) => t.ctx.db.selectFrom('ledger_entries').select(['kind', 'code', 'amount_cents', 'state']).where('booking_id', '=', bookingId).orderBy('seq').execute();

describe('a late cancellation’s fee waived under CPA s. 17', () => {
  let trip: Awaited<ReturnType<typeof cancelledTrip>>;
  let waiver: Waiver;

  it('kept a fee of R 300: R 225 to the host and R 75 to Karoo', async () => {
    trip = await cancelledTrip(12);
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code === 'cancellation_fee');
    expect(rows).toEqual([
      { kind: 'host_earning', code: 'cancellation_fee', amount_cents: 22_500, state: 'succeeded' },
      { kind: 'platform_fee', code: 'cancellation_fee', amount_cents: 7_500, state: 'succeeded' },
    ]);
  });

  let receiptBefore: string;

  it('is on the receipt as the fee kept, before any request', async () => {
    const text = await pdfOf(trip.renter, trip.bookingId, 'receipt');
    receiptBefore = receiptNumber(text)!;
    expect(receiptBefore).toMatch(/^RC-\d{6}$/);
    expect(linesOf(text)).toContain('Cancellation fee kept from your payment R 300');
    expect(text).not.toMatch(/Consumer Protection Act/);
  });

  it('is asked by the renter only, with evidence, once', async () => {
    expectError(await ask(stranger, trip.bookingId), 404);
    expectError(await ask(trip.host, trip.bookingId), 403);
    expectError(await ask(trip.renter, trip.bookingId, undefined, false), 400, /death certificate or the hospital letter/);
    expectError(await ask(trip.renter, trip.bookingId, { ground: 'holiday', person: 'renter' }), 400, /death or a hospital admission/);
    waiver = expectOk<Waiver>(await ask(trip.renter, trip.bookingId), 201);
    expect(waiver).toMatchObject({ status: 'requested', fee: 300 });
    expectError(await ask(trip.renter, trip.bookingId), 409, 'You already asked for this fee back.');
    // The host sees no request (the evidence is about the renter's family's health), strangers no trip.
    expect(expectOk<Waiver[]>(await t.app.inject({ method: 'GET', url: `/api/booking/${trip.bookingId}/fee-waivers`, headers: trip.host.headers }))).toEqual([]);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${trip.bookingId}/fee-waivers`, headers: stranger.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: waiver.evidence_url, headers: trip.host.headers }), 404);
    expect((await t.app.inject({ method: 'GET', url: waiver.evidence_url, headers: admin.headers })).statusCode).toBe(200);
    expect(expectOk<Waiver[]>(await t.app.inject({ method: 'GET', url: '/api/admin/fee-waivers', headers: admin.headers })).map((w) => w.id)).toContain(waiver.id);
  });

  it('approved by an admin with a reason, gives the R 300 back through the ledger and the provider, audited', async () => {
    expectError(await decide(admin, waiver.id, { decision: 'approve', reason: 'short' }), 400, /at least 10 characters/);
    expectError(await decide(trip.renter, waiver.id, { decision: 'approve', reason: 'I approve my own request' }), 403);
    const decided = expectOk<Waiver>(await decide(admin, waiver.id, { decision: 'approve', reason: 'Hospital letter dated the day before the trip.' }));
    expect(decided).toMatchObject({ status: 'approved', decision_reason: 'Hospital letter dated the day before the trip.' });
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code === 'cpa_s17_waiver');
    expect(rows).toEqual([
      { kind: 'host_earning', code: 'cpa_s17_waiver', amount_cents: -22_500, state: 'succeeded' },
      { kind: 'platform_fee', code: 'cpa_s17_waiver', amount_cents: -7_500, state: 'succeeded' },
      // Asked of the sandbox provider at once and accepted.
      { kind: 'refund', code: 'cpa_s17_waiver', amount_cents: 30_000, state: 'succeeded' },
    ]);
    // Everything paid has now gone back: the cancellation's refund plus the fee.
    const all = await ledgerOf(trip.bookingId);
    const refunded = all.filter((r) => r.kind === 'refund').reduce((s, r) => s + r.amount_cents, 0);
    expect(refunded).toBe(trip.totalCents);
    const shares = all.filter((r) => r.kind === 'host_earning' || r.kind === 'platform_fee').reduce((s, r) => s + r.amount_cents, 0);
    expect(shares).toBe(0);
    const audit = await t.ctx.db.selectFrom('audit_log').select(['admin_id', 'target_id', 'after', 'reason']).where('action', '=', 'payment.fee_waiver_decided').where('target_id', '=', trip.bookingId).execute();
    expect(audit).toEqual([{ admin_id: admin.user.id, target_id: trip.bookingId, after: { waiver: waiver.id, status: 'approved', refund_cents: 30_000 }, reason: 'Hospital letter dated the day before the trip.' }]);
    const renterNotice = await t.ctx.db.selectFrom('notifications').select('title').where('user_id', '=', trip.renter.user.id).where('type', '=', 'fee_waiver_decided').execute();
    expect(renterNotice.map((n) => n.title)).toEqual([expect.stringMatching(/^Cancellation fee of R\s?300 refunded$/)]);
    const hostNotice = await t.ctx.db.selectFrom('notifications').select('message').where('user_id', '=', trip.host.user.id).where('type', '=', 'fee_waiver_decided').execute();
    expect(hostNotice).toHaveLength(1);
    expect(hostNotice[0]!.message).not.toMatch(/hospital|mother/i);
  });

  it("is on the renter's receipt (a new one, replacing the one before) and on the host's invoice", async () => {
    const text = await pdfOf(trip.renter, trip.bookingId, 'receipt');
    const lines = linesOf(text);
    const number = receiptNumber(text)!;
    expect(number).not.toBe(receiptBefore);
    expect(text).toMatch(new RegExp(`Replaces\\s+${receiptBefore}`));
    // Payments and refunds: the waiver's refund by name, dated, and the net paid now nothing.
    const refundLine = lines.indexOf('Cancellation fee waived (Consumer Protection Act s. 17), refunded to your card -R 300');
    expect(refundLine, text).toBeGreaterThan(-1);
    expect(lines[refundLine + 1]).toMatch(/^Refunded \d{1,2} \w{3} 2031, \d{2}:\d{2}$/);
    expect(lines).toContain('Net amount paid R 0');
    // Cancellation: the policy's fee, the waiver, nothing kept.
    expect(lines).toContain('Cancellation fee by the policy R 300');
    expect(lines).toContain('Cancellation fee waived (Consumer Protection Act s. 17) -R 300');
    expect(lines).toContain('Cancellation fee kept R 0');
    expect(lines.some((l) => l.startsWith('Cancellation fee kept from your payment'))).toBe(false);

    const invoice = linesOf(await pdfOf(trip.host, trip.bookingId, 'invoice'));
    expect(invoice).toContain('Cancellation fee waived (Consumer Protection Act s. 17): your share taken back -R 225');
    expect(invoice.some((l) => l.startsWith('Other adjustments'))).toBe(false);
    expect(invoice).toContain('Your share R 0');
    // The host learns the legal ground, never the renter's evidence or statement.
    expect(invoice.join(' ')).not.toMatch(/hospital|mother|Groote Schuur/i);
  });

  it('is decided once, and no second request finds a fee to give back', async () => {
    expectError(await decide(admin, waiver.id, { decision: 'decline', reason: 'Changed my mind about this one.' }), 409);
    expectError(await ask(trip.renter, trip.bookingId), 409);
  });

  it('loses its evidence when the renter deletes their account, and keeps the money it moved', async () => {
    expect((await t.app.inject({ method: 'GET', url: waiver.evidence_url, headers: admin.headers })).statusCode).toBe(200);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/privacy/account-deletion', headers: trip.renter.headers, payload: { password: TEST_PASSWORD } }));
    await expect.poll(async () => (await t.app.inject({ method: 'GET', url: waiver.evidence_url, headers: admin.headers })).statusCode).toBe(404);
    expect((await ledgerOf(trip.bookingId)).filter((r) => r.code === 'cpa_s17_waiver')).toHaveLength(3);
  });
});

describe('what cannot be waived, and a decline', () => {
  it('refuses a free cancellation (no fee kept) and declines with a reason, which may be asked again', async () => {
    const free = await cancelledTrip(72);
    expectError(await ask(free.renter, free.bookingId), 409, 'This cancellation kept no fee: there is nothing to give back.');

    const late = await cancelledTrip(2);
    const first = expectOk<Waiver>(await ask(late.renter, late.bookingId, { ground: 'death', person: 'renter', statement: '' }), 201);
    expectOk(await decide(admin, first.id, { decision: 'decline', reason: 'The certificate is of another person.' }));
    expect((await ledgerOf(late.bookingId)).filter((r) => r.code === 'cpa_s17_waiver')).toEqual([]);
    const again = expectOk<Waiver>(await ask(late.renter, late.bookingId), 201);
    expect(again.status).toBe('requested');
    expectError(await decide(admin, '00000000-0000-0000-0000-000000000000', { decision: 'approve', reason: 'There is no such request.' }), 404);
  });
});
