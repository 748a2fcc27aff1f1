// Deposits and trip charges (issue 34; decisions 064 and 065), through the routes on the real
// database: the deposit taken with the trip's charge and released by the sweep when the claim window
// closes (in full, or what no claim took), the host's claim within the window with fuel and extra
// km computed from the records, the renter's 48 hours (accepted, unanswered, disputed), an admin's
// audited decision, a claim beyond the deposit charged to the saved card or left owed when the card
// is declined, the payment link of what a declined card left owed (decision 073), and every
// stranger answered 404.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { SANDBOX_DECLINED_CARD, SANDBOX_DECLINES_LATER_CARD, SANDBOX_SUCCESS_CARD } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectError, expectOk, multipart, rememberedSession, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';
import { depositHeldCents, entriesOfBookings, sumBookingMoney } from '../src/modules/ledger';
import { releaseDueDeposits, settleOverdueClaims } from '../src/modules/trips/trip-claims.service';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Claim = { id: string; status: string; claimed: number; from_deposit: number; from_card: number; owed: number; payment_state: string; settled: number | null; renter_answer: string | null; items: { kind: string; amount: number }[]; evidence: { party: string; url: string }[] };
type BookingClaims = { claims: Claim[]; deposit: { taken: number; held: number; released: number; applied: number }; window: { open: boolean; closes_at: string | null }; computed: { kind: string; amount: number }[] };

const HOUR = 3_600_000;
let t: TestApp;
let admin: Signed;
let stranger: Signed;
let photo: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2030-04-01T08:00:00.000Z');
  admin = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' }));
  stranger = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2e86c1' } }).jpeg().toBuffer();
});
afterAll(() => t.close());

interface Trip {
  host: Signed;
  renter: Signed;
  bookingId: string;
  carUsername: string;
  /** When the booked trip ends (17:00 Johannesburg on its last day). */
  endsAt: Date;
  days: number;
}

let month = 0;
/**
 * A paid trip (10 to 12 of its own month: 2 days, so the clock only moves forward), with a R 3 500
 * deposit, a 48 l petrol tank, 200 km a day and R 3.50 a km: checked in full at 10 000 km by the
 * host, and back on time at 10 520 km (120 km over) with 6/8 (12 l missing at R 23.45: R 281.40).
 */
async function paidTrip(card = SANDBOX_SUCCESS_CARD, checkOut = { km: 10_520, fuel: 6 }): Promise<Trip> {
  month += 1;
  const mm = String(4 + month).padStart(2, '0');
  t.clock.set(`2030-${mm}-01T08:00:00.000Z`);
  admin = await rememberedSession(t.app, admin);
  stranger = await rememberedSession(t.app, stranger);
  const host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  const renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  const car = await createTestCar(t.ctx, host.user, { price: 600, fuelType: 'Petrol', overrides: { deposit_cents: 350_000, tank_litres: 48, distance_allowance_km: 200, extra_km_rate_cents: 350 } });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/booking/create',
    headers: renter.headers,
    payload: { car_username: car.car_username, start_date: `2030-${mm}-10`, end_date: `2030-${mm}-12`, start_time: '09:00', end_time: '17:00' },
  });
  const bookingId = expectOk<{ id: string }>(created, 201).id;
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${bookingId}`, headers: host.headers }));
  const session = expectOk<{ reference: string; amount: number }>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/payment-session`, headers: renter.headers }));
  const paid = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: renter.headers, payload: { reference: session.reference, card_number: card, expiry: '12/39', cvv: '123' } });
  expect(paid.statusCode, paid.body).toBe(200);
  const booking = await t.ctx.db.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
  expect(booking.payment_status).toBe('paid');
  // The checkout took the trip and its deposit in one charge.
  expect(session.amount).toBe(booking.total_price_cents + 350_000);

  t.clock.set(`2030-${mm}-10T06:30:00.000Z`);
  await record(host, bookingId, 'check_in', 10_000, 8);
  const endsAt = new Date(`2030-${mm}-12T15:00:00.000Z`);
  t.clock.set(new Date(endsAt.getTime() - 10 * 60_000));
  await record(host, bookingId, 'check_out', checkOut.km, checkOut.fuel);
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.car_username}`, headers: host.headers, payload: {} }));
  return { host, renter, bookingId, carUsername: car.car_username, endsAt, days: booking.duration_days };
}

async function record(who: Signed, bookingId: string, stage: string, km: number, fuel: number) {
  const body = multipart([
    { name: 'stage', value: stage },
    { name: 'odometer_km', value: String(km) },
    { name: 'fuel_eighths', value: String(fuel) },
    ...['front', 'back', 'left', 'right'].map((slot) => ({ name: `photo_${slot}`, filename: `${slot}.jpg`, data: photo, contentType: 'image/jpeg' })),
  ]);
  const res = await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/trip-records`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(201);
}

const claimsOf = (who: Signed, trip: Trip) => t.app.inject({ method: 'GET', url: `/api/booking/${trip.bookingId}/claims`, headers: who.headers });
const fileJson = (who: Signed, trip: Trip, items: Record<string, unknown>[]) => t.app.inject({ method: 'POST', url: `/api/booking/${trip.bookingId}/claims`, headers: who.headers, payload: { items, statement: '' } });
function fileWithPhoto(who: Signed, trip: Trip, items: unknown[]) {
  const body = multipart([
    { name: 'claim', value: JSON.stringify({ items, statement: 'Photos of the seats and the quote attached.' }) },
    { name: 'evidence', filename: 'seat.jpg', data: photo, contentType: 'image/jpeg' },
  ]);
  return t.app.inject({ method: 'POST', url: `/api/booking/${trip.bookingId}/claims`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
}
const answer = (who: Signed, claimId: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/claims/${claimId}/answer`, headers: who.headers, payload });
const ledgerOf = (bookingId: string) => t.ctx.db.selectFrom('ledger_entries').select(['kind', 'code', 'amount_cents', 'state']).where('booking_id', '=', bookingId).orderBy('seq').execute();
const noticesOf = (userId: string, type: string) => t.ctx.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', userId).where('type', '=', type).execute();

describe('a deposit and an accepted claim of fuel and extra kilometres', () => {
  let trip: Trip;
  let claim: Claim;

  it('holds the deposit in its own ledger kind, beside the trip charge', async () => {
    trip = await paidTrip();
    const rows = await ledgerOf(trip.bookingId);
    expect(rows.filter((r) => r.kind === 'deposit')).toEqual([{ kind: 'deposit', code: 'held', amount_cents: 350_000, state: 'succeeded' }]);
    expect(await depositHeldCents(t.ctx.db, trip.bookingId)).toBe(350_000);
  });

  it('shows the host the fuel and kilometres the records support, and strangers nothing (404)', async () => {
    const seen = expectOk<BookingClaims>(await claimsOf(trip.host, trip));
    expect(seen.window.open).toBe(true);
    expect(seen.deposit).toEqual({ taken: 3500, held: 3500, released: 0, applied: 0 });
    // 2/8 of 48 l = 12 l × R 23.45 = R 281.40; 520 km − 2 × 200 = 120 km × R 3.50 = R 420.
    expect(seen.computed.map((c) => [c.kind, c.amount]), JSON.stringify(seen.computed)).toEqual([
      ['fuel', 281.4],
      ['extra_km', 420],
    ]);
    expectError(await claimsOf(stranger, trip), 404);
    expectError(await fileJson(stranger, trip, [{ kind: 'fuel' }]), 404);
  });

  it('is filed by the host only, with amounts the server computes, and the renter is told at once', async () => {
    expectError(await fileJson(trip.renter, trip, [{ kind: 'fuel' }]), 403);
    expectError(await fileJson(trip.host, trip, [{ kind: 'cleaning', amount: 300 }]), 400, /Add a photo/);
    // An amount sent for a computed line is not the host's to choose: the records' amount is used.
    claim = expectOk<Claim>(await fileJson(trip.host, trip, [{ kind: 'fuel', amount: 999 }, { kind: 'extra_km' }]), 201);
    expect(claim).toMatchObject({ status: 'awaiting_renter', claimed: 701.4 });
    expect(claim.items.map((i) => [i.kind, i.amount])).toEqual([
      ['fuel', 281.4],
      ['extra_km', 420],
    ]);
    expect((await noticesOf(trip.renter.user.id, 'trip_charges_filed')).map((n) => n.title)).toEqual([expect.stringMatching(/^The host filed R\s?701,40 of trip charges$/)]);
    expectError(await fileJson(trip.host, trip, [{ kind: 'fuel' }]), 409, 'Fuel was already charged for this trip.');
    expectError(await t.app.inject({ method: 'GET', url: `/api/claims/${claim.id}`, headers: stranger.headers }), 404);
    expectError(await answer(stranger, claim.id, { answer: 'accept' }), 404);
    expectError(await answer(trip.host, claim.id, { answer: 'accept' }), 403);
  });

  it('accepted, is paid from the deposit and shared: fuel to the host whole, the platform fee on the km', async () => {
    const paid = expectOk<Claim>(await answer(trip.renter, claim.id, { answer: 'accept' }));
    expect(paid).toMatchObject({ status: 'settled', renter_answer: 'accepted', settled: 701.4, from_deposit: 701.4, from_card: 0, owed: 0, payment_state: 'paid' });
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code.startsWith('claim'));
    expect(rows).toEqual([
      { kind: 'deposit_applied', code: 'claim_fuel', amount_cents: 28_140, state: 'succeeded' },
      { kind: 'host_earning', code: 'claim_fuel', amount_cents: 28_140, state: 'succeeded' },
      { kind: 'deposit_applied', code: 'claim_extra_km', amount_cents: 42_000, state: 'succeeded' },
      // 15 % of R 420 = R 63 to the platform, R 357 to the host.
      { kind: 'host_earning', code: 'claim_extra_km', amount_cents: 35_700, state: 'succeeded' },
      { kind: 'platform_fee', code: 'claim_fee', amount_cents: 6_300, state: 'succeeded' },
    ]);
    expect(await depositHeldCents(t.ctx.db, trip.bookingId)).toBe(350_000 - 70_140);
    expectError(await answer(trip.renter, claim.id, { answer: 'accept' }), 409);
  });

  it('gives the rest of the deposit back when the window closes, through the refund queue', async () => {
    // Still inside the 72-hour window: nothing is released yet.
    t.clock.set(new Date(trip.endsAt.getTime() + 71 * HOUR));
    await releaseDueDeposits(t.ctx);
    expect(await depositHeldCents(t.ctx.db, trip.bookingId)).toBe(279_860);
    t.clock.set(new Date(trip.endsAt.getTime() + 73 * HOUR));
    expectError(await fileJson(trip.host, trip, [{ kind: 'late_return', amount: 1 }]), 409, /until 72 hours after check-out/);
    expect(await releaseDueDeposits(t.ctx)).toBeGreaterThanOrEqual(1);
    const release = (await ledgerOf(trip.bookingId)).filter((r) => r.code === 'deposit_release');
    expect(release).toEqual([{ kind: 'refund', code: 'deposit_release', amount_cents: 279_860, state: 'succeeded' }]);
    expect(await depositHeldCents(t.ctx.db, trip.bookingId)).toBe(0);
    // Asked again, nothing more goes back.
    await releaseDueDeposits(t.ctx);
    expect((await ledgerOf(trip.bookingId)).filter((r) => r.code === 'deposit_release')).toHaveLength(1);
    const seen = expectOk<BookingClaims>(await claimsOf(trip.renter, trip));
    expect(seen.deposit).toEqual({ taken: 3500, held: 0, released: 2798.6, applied: 701.4 });
  });

  it("shows the deposit, the charges and the deposit's return on the renter's numbered receipt", async () => {
    const receipt = await t.app.inject({ method: 'GET', url: `/api/booking/${trip.bookingId}/receipt.pdf`, headers: trip.renter.headers });
    expect(receipt.statusCode).toBe(200);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: receipt.rawPayload }).toString('utf8').replace(/\u00a0/g, ' ');
    expect(text).toMatch(/Deposit, with the card payment\s+R 3 500/);
    expect(text).toMatch(/Trip charge: fuel\s+R 281,40/);
    expect(text).toMatch(/Trip charge: extra km\s+R 357/);
    expect(text).toMatch(/Total trip charges\s+R 701,40/);
    expect(text).toMatch(/R 701,40 of them was paid from your deposit/);
    expect(text).toMatch(/Refund to your card[\s\S]*your deposit back/i);
    expect(text).toMatch(/RC-\d{6}/);
  });
});

describe('a trip with nothing claimed', () => {
  it('gets its whole deposit back once the window has closed', async () => {
    const trip = await paidTrip(SANDBOX_SUCCESS_CARD, { km: 10_300, fuel: 8 });
    const seen = expectOk<BookingClaims>(await claimsOf(trip.host, trip));
    expect(seen.computed).toEqual([]);
    t.clock.set(new Date(trip.endsAt.getTime() + 73 * HOUR));
    await releaseDueDeposits(t.ctx);
    expect((await ledgerOf(trip.bookingId)).filter((r) => r.code === 'deposit_release')).toEqual([{ kind: 'refund', code: 'deposit_release', amount_cents: 350_000, state: 'succeeded' }]);
  });
});

describe('the 48 hours to answer', () => {
  it('accepts a claim nobody answered in time, and refuses a late answer', async () => {
    const trip = await paidTrip();
    t.clock.set(new Date(trip.endsAt.getTime() + 2 * HOUR));
    const claim = expectOk<Claim>(await fileWithPhoto(trip.host, trip, [{ kind: 'cleaning', amount: 450 }]), 201);
    expect(claim.evidence.map((e) => e.party)).toEqual(['host']);
    // The evidence is private to the two parties and admins.
    expect((await t.app.inject({ method: 'GET', url: claim.evidence[0]!.url, headers: trip.renter.headers })).statusCode).toBe(200);
    expectError(await t.app.inject({ method: 'GET', url: claim.evidence[0]!.url, headers: stranger.headers }), 404);
    t.clock.set(new Date(trip.endsAt.getTime() + 2 * HOUR + 47 * HOUR));
    expect(await settleOverdueClaims(t.ctx)).toBe(0);
    t.clock.set(new Date(trip.endsAt.getTime() + 2 * HOUR + 49 * HOUR));
    expectError(await answer(trip.renter, claim.id, { answer: 'dispute', statement: 'The car was clean when I returned it.' }), 409, /time to answer has passed/);
    expect(await settleOverdueClaims(t.ctx)).toBe(1);
    const settled = expectOk<Claim>(await t.app.inject({ method: 'GET', url: `/api/claims/${claim.id}`, headers: trip.renter.headers }));
    expect(settled).toMatchObject({ status: 'settled', renter_answer: 'unanswered', from_deposit: 450 });
  });
});

describe('a disputed claim', () => {
  it('waits for an admin, who decides an amount with a reason (audited), paid from the deposit', async () => {
    const trip = await paidTrip();
    t.clock.set(new Date(trip.endsAt.getTime() + 3 * HOUR));
    const claim = expectOk<Claim>(await fileWithPhoto(trip.host, trip, [{ kind: 'damage', amount: 3000, note: 'Scratch on the rear door' }]), 201);
    expectError(await answer(trip.renter, claim.id, { answer: 'dispute', statement: 'short' }), 400, /at least 10 characters/);
    const body = multipart([
      { name: 'answer', value: JSON.stringify({ answer: 'dispute', statement: 'The scratch was there at pickup: see my photo.' }) },
      { name: 'evidence', filename: 'pickup.jpg', data: photo, contentType: 'image/jpeg' },
    ]);
    const disputed = expectOk<Claim>(await t.app.inject({ method: 'POST', url: `/api/claims/${claim.id}/answer`, headers: { ...trip.renter.headers, ...body.headers }, payload: body.payload }));
    expect(disputed).toMatchObject({ status: 'disputed', renter_answer: 'disputed' });
    expect(disputed.evidence.map((e) => e.party)).toEqual(['host', 'renter']);
    // Unanswered-in-time does not touch a disputed claim.
    t.clock.set(new Date(trip.endsAt.getTime() + 60 * HOUR));
    expect(await settleOverdueClaims(t.ctx)).toBe(0);

    const listed = expectOk<Claim[]>(await t.app.inject({ method: 'GET', url: '/api/admin/claims', headers: admin.headers }));
    expect(listed.map((c) => c.id)).toContain(claim.id);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/claims', headers: trip.host.headers }), 403);
    const decide = (payload: Record<string, unknown>, who = admin) => t.app.inject({ method: 'PATCH', url: `/api/admin/claims/${claim.id}/decide`, headers: who.headers, payload });
    expectError(await decide({ amount: 3500, reason: 'More than was claimed is not possible.' }), 400, /cannot be more than the host claimed/);
    const decided = expectOk<Claim>(await decide({ amount: 1200, reason: 'Half the scratch shows at check-in; the rest is new.' }));
    expect(decided).toMatchObject({ status: 'settled', settled: 1200, from_deposit: 1200, owed: 0 });
    expectError(await decide({ amount: 1000, reason: 'Deciding a second time is refused.' }), 409);
    const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', 'trip.claim_decided').where('target_id', '=', trip.bookingId).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.reason).toBe('Half the scratch shows at check-in; the rest is new.');
    // Damage is shared: 15 % of R 1 200 to the platform.
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code.startsWith('claim'));
    expect(rows.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['deposit_applied', 120_000],
      ['host_earning', 102_000],
      ['platform_fee', 18_000],
    ]);
    // The window has closed and nothing is open: the rest of the deposit goes back.
    t.clock.set(new Date(trip.endsAt.getTime() + 80 * HOUR));
    await releaseDueDeposits(t.ctx);
    expect(await depositHeldCents(t.ctx.db, trip.bookingId)).toBe(0);
  });
});

describe('a claim larger than the deposit', () => {
  it('charges the rest to the saved card', async () => {
    const trip = await paidTrip(SANDBOX_SUCCESS_CARD);
    t.clock.set(new Date(trip.endsAt.getTime() + HOUR));
    const claim = expectOk<Claim>(await fileWithPhoto(trip.host, trip, [{ kind: 'damage', amount: 5000 }]), 201);
    const paid = expectOk<Claim>(await answer(trip.renter, claim.id, { answer: 'accept' }));
    expect(paid).toMatchObject({ from_deposit: 3500, from_card: 1500, owed: 0, payment_state: 'paid' });
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code.startsWith('claim'));
    expect(rows.map((r) => [r.kind, r.code, r.amount_cents])).toEqual([
      ['deposit_applied', 'claim_damage', 350_000],
      ['charge', 'claim', 150_000],
      ['host_earning', 'claim_damage', 425_000],
      ['platform_fee', 'claim_fee', 75_000],
    ]);
  });

  it('leaves the rest owed when the card is declined after the deposit is spent, and says so', async () => {
    const trip = await paidTrip(SANDBOX_DECLINES_LATER_CARD);
    t.clock.set(new Date(trip.endsAt.getTime() + HOUR));
    const claim = expectOk<Claim>(await fileWithPhoto(trip.host, trip, [{ kind: 'damage', amount: 5000 }]), 201);
    const paid = expectOk<Claim>(await answer(trip.renter, claim.id, { answer: 'accept' }));
    expect(paid).toMatchObject({ from_deposit: 3500, from_card: 0, owed: 1500, payment_state: 'card_declined' });
    const rows = (await ledgerOf(trip.bookingId)).filter((r) => r.code.startsWith('claim'));
    // Only what was paid is in the ledger: the deposit's part, shared.
    expect(rows.map((r) => [r.kind, r.amount_cents])).toEqual([
      ['deposit_applied', 350_000],
      ['host_earning', 297_500],
      ['platform_fee', 52_500],
    ]);
    const [notice] = await noticesOf(trip.renter.user.id, 'trip_charges_settled');
    expect(notice!.title).toMatch(/still owed/);
    expect(notice!.message).toMatch(/insufficient funds[\s\S]*Pay it with another card on My Bookings\.$/);
  });
});

describe('a payment link for what the declined card left owed (decision 073)', () => {
  type Session = { provider: string; reference: string; amount: number; currency: string };
  let trip: Trip;
  let claim: Claim;
  let bookingNumber: string;
  const link = (who: Signed, id: string) => t.app.inject({ method: 'POST', url: `/api/claims/${id}/payment`, headers: who.headers });
  const verify = (who: Signed, id: string, reference: string) => t.app.inject({ method: 'POST', url: `/api/claims/${id}/payment/verify`, headers: who.headers, payload: { reference } });
  const checkout = (who: Signed, reference: string, card = SANDBOX_SUCCESS_CARD) =>
    t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: who.headers, payload: { reference, card_number: card, expiry: '12/39', cvv: '123' } });
  const claimRows = async () => (await ledgerOf(trip.bookingId)).filter((r) => r.code.startsWith('claim')).map((r) => [r.kind, r.code, r.amount_cents]);

  it('is offered only on settled charges the card declined, and only to the renter', async () => {
    trip = await paidTrip(SANDBOX_DECLINES_LATER_CARD);
    bookingNumber = (await t.ctx.db.selectFrom('bookings').select('booking_number').where('id', '=', trip.bookingId).executeTakeFirstOrThrow()).booking_number;
    t.clock.set(new Date(trip.endsAt.getTime() + HOUR));
    // R 4 000 over three lines: the R 3 500 deposit pays the damage (R 3 300) and half the cleaning; R 500 is left for the card.
    claim = expectOk<Claim>(await fileWithPhoto(trip.host, trip, [{ kind: 'damage', amount: 3300 }, { kind: 'cleaning', amount: 400 }, { kind: 'tolls', amount: 300 }]), 201);
    expectError(await link(trip.renter, claim.id), 409, /not due yet/);
    const declined = expectOk<Claim>(await answer(trip.renter, claim.id, { answer: 'accept' }));
    expect(declined).toMatchObject({ settled: 4000, from_deposit: 3500, from_card: 0, owed: 500, payment_state: 'card_declined' });
    expectError(await link(stranger, claim.id), 404, 'Claim not found');
    expectError(await link(trip.host, claim.id), 403, 'Only the renter of this trip can pay its charges.');
    expectError(await link(admin, claim.id), 403);
    expectError(await verify(stranger, claim.id, 'KAROO-X'), 404);
  });

  it('charges exactly what is owed, through the same checkout when asked again, and records it over the lines once', async () => {
    const first = expectOk<Session>(await link(trip.renter, claim.id));
    expect(first).toMatchObject({ provider: 'sandbox', amount: 50_000, currency: 'ZAR' });
    expect(first.reference).toMatch(new RegExp(`^KAROO-${bookingNumber}-CLAIM-[0-9A-F]{12}$`));
    // The renter closed the checkout and asks again: the same one.
    expect(expectOk<Session>(await link(trip.renter, claim.id)).reference).toBe(first.reference);
    expectError(await checkout(trip.host, first.reference), 403);
    // A card declined at the checkout pays nothing; asked again, a new checkout of the same amount.
    expect(expectOk<{ status: string }>(await checkout(trip.renter, first.reference, SANDBOX_DECLINED_CARD)).status).toBe('failed');
    expectError(await verify(trip.renter, claim.id, first.reference), 402, /not paid/);
    expect(expectOk<Claim>(await t.app.inject({ method: 'GET', url: `/api/claims/${claim.id}`, headers: trip.renter.headers }))).toMatchObject({ owed: 500, payment_state: 'card_declined' });
    const session = expectOk<Session>(await link(trip.renter, claim.id));
    expect(session.reference).not.toBe(first.reference);
    expect(session.amount).toBe(50_000);

    expect(expectOk<{ status: string }>(await checkout(trip.renter, session.reference)).status).toBe('success');
    const paid = expectOk<Claim>(await verify(trip.renter, claim.id, session.reference));
    expect(paid).toMatchObject({ settled: 4000, from_deposit: 3500, from_card: 500, owed: 0, payment_state: 'paid' });
    // Worked by hand (15 % on damage and cleaning, tolls to the host whole): the settlement's rows,
    // then the link's card part of the cleaning (R 200: R 170 + R 30) and the tolls (R 300).
    const expected = [
      ['deposit_applied', 'claim_damage', 330_000],
      ['host_earning', 'claim_damage', 280_500],
      ['platform_fee', 'claim_fee', 49_500],
      ['deposit_applied', 'claim_cleaning', 20_000],
      ['host_earning', 'claim_cleaning', 17_000],
      ['platform_fee', 'claim_fee', 3_000],
      ['charge', 'claim', 20_000],
      ['host_earning', 'claim_cleaning', 17_000],
      ['platform_fee', 'claim_fee', 3_000],
      ['charge', 'claim', 30_000],
      ['host_earning', 'claim_tolls', 30_000],
    ];
    expect(await claimRows()).toEqual(expected);

    // Delivered again (the checkout's charge repeated, the verify call again): paid once.
    expect(expectOk<{ status: string }>(await checkout(trip.renter, session.reference)).status).toBe('success');
    expectOk(await verify(trip.renter, claim.id, session.reference));
    expect(await claimRows()).toEqual(expected);
    expectError(await link(trip.renter, claim.id), 409, 'These trip charges are already paid.');
    // An old reference is not this claim's to verify.
    expectError(await verify(trip.renter, claim.id, 'KAROO-NOT-ISSUED'), 402, /not issued for these trip charges/);

    // The booking still balances: what came in (the trip's charge, the claim's card charge, the
    // deposit applied) is what was shared; the deposit is spent.
    const money = sumBookingMoney(await entriesOfBookings(t.ctx.db, [trip.bookingId]));
    const booking = await t.ctx.db.selectFrom('bookings').select(['total_price_cents']).where('id', '=', trip.bookingId).executeTakeFirstOrThrow();
    expect(money.chargedCents).toBe(booking.total_price_cents + 50_000);
    expect(money.depositAppliedCents).toBe(350_000);
    expect(money.depositHeldCents).toBe(0);
    expect(money.chargedCents + money.depositAppliedCents - money.refundedCents - money.refundPendingCents).toBe(money.hostShareCents + money.platformShareCents);

    for (const who of [trip.renter, trip.host]) {
      const [notice] = await noticesOf(who.user.id, 'trip_charges_paid');
      expect(notice!.title).toMatch(/^Trip charges: the R\s?500 owed is paid$/);
    }
    const seenByHost = expectOk<BookingClaims>(await claimsOf(trip.host, trip)).claims[0]!;
    expect(seenByHost).toMatchObject({ from_card: 500, owed: 0, payment_state: 'paid' });
    expect(expectOk<Claim>(await t.app.inject({ method: 'GET', url: `/api/claims/${claim.id}`, headers: admin.headers }))).toMatchObject({ payment_state: 'paid' });
  });

  it('is refused (409) for charges paid in full at settlement', async () => {
    const other = await paidTrip(SANDBOX_SUCCESS_CARD);
    t.clock.set(new Date(other.endsAt.getTime() + HOUR));
    const filed = expectOk<Claim>(await fileJson(other.host, other, [{ kind: 'fuel' }]), 201);
    expectOk(await answer(other.renter, filed.id, { answer: 'accept' }));
    expectError(await link(other.renter, filed.id), 409, 'These trip charges are already paid.');
  });
});

describe("a car's trip terms", () => {
  it('are set by its host: R 0 or within the bounds, tank, daily km and km rate, and shown on the car', async () => {
    admin = await rememberedSession(t.app, admin);
    const host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
    const car = await createTestCar(t.ctx, host.user, { value: 120_000 });
    const update = (payload: Record<string, unknown>, who = host) => t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers: who.headers, payload });
    expectError(await update({ deposit: 500 }), 400, /R 0 or between R\s1\s000 and R\s20\s000/);
    expectError(await update({ tank_litres: 5 }), 400, /Tank size must be 10 to 250 litres/);
    expectOk(await update({ deposit: 0, tank_litres: 55, distance_allowance_km: 250, extra_km_rate: 2.75 }));
    const seen = expectOk<{ deposit: number; tank_litres: number; distance_allowance_km: number; extra_km_rate: number }>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}`, headers: host.headers }));
    expect(seen).toMatchObject({ deposit: 0, tank_litres: 55, distance_allowance_km: 250, extra_km_rate: 2.75 });
    expectOk(await update({ deposit: 4000, distance_allowance_km: null }));
    const again = expectOk<{ deposit: number; distance_allowance_km: number | null }>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}`, headers: host.headers }));
    expect(again).toMatchObject({ deposit: 4000, distance_allowance_km: null });
  });
});
