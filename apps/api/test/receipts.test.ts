// Receipts and invoices as PDF (issue 20 "Receipts"; docs/decisions/040-receipts.md): the renter
// downloads a receipt and the car's owner a host invoice of any booking money has moved for, built
// from the ledger. Who may download which (404 for someone else's booking, 403 for the other
// party's document, 409 for a booking never paid), and what the PDF says: its text is read back
// with pdftotext and every amount compared with the sums of the booking's ledger rows.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRand } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import * as ledger from '../src/modules/ledger';
import { createSignedInUser, createTestApp, expectError, type TestApp } from './helpers';
import { createTestBooking, createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

// 10:15 UTC is 12:15 in Johannesburg: the documents are dated in South African time.
const NOW = '2027-04-20T10:15:00.000Z';
const ISSUED = '20 Apr 2027, 12:15';
const PAID_AT = new Date('2027-04-01T08:02:00.000Z');
const CANCELLED_AT = new Date('2027-04-08T12:30:00.000Z');
const VAT_NUMBER = '4123456789';

let t: TestApp;
let vat: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;
let car: CarRow;
let day = 0;

beforeAll(async () => {
  t = await createTestApp({ env: { COMPANY_NAME: 'Karoo Test Mobility (Pty) Ltd', COMPANY_REGISTRATION: '2023/555123/07' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Pieter van der Merwe' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', full_name: 'Thandiwe Nkosi' });
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  car = await createTestCar(t.ctx, host.user, { make: 'Toyota', model: 'Fortuner', price: 650 });
});
afterAll(async () => {
  await t?.close();
  await vat?.close();
});

// ---- Bookings with money, written to the ledger as the payments module records it ----

const partiesOf = (b: BookingRow): ledger.LedgerParties => ({ bookingId: b.id, renterId: b.renter_id, hostId: b.owner_id });

/** A three-day trip of the car with the airport pickup and standard insurance, priced like the API. */
async function booking(app: TestApp, status: BookingRow['status'], paid: boolean, theCar = car, theRenter: { id: string } = renter.user): Promise<BookingRow> {
  day += 5;
  const start = new Date(Date.UTC(2027, 3, 1 + day)).toISOString().slice(0, 10);
  const b = await createTestBooking(app.ctx, theCar, theRenter, { start, days: 3, status, payment_status: paid ? 'paid' : 'unpaid' });
  const pickup = PICKUP_AIRPORT.additional_fee_cents;
  const insurance = INSURANCE_STANDARD.daily_rate_cents * 3;
  const total = b.subtotal_cents + b.service_fee_cents + pickup + insurance;
  const hostEarnings = Math.round(((b.subtotal_cents + pickup) * (100 - b.commission_rate)) / 100);
  return app.db
    .updateTable('bookings')
    .set({
      pickup_fee_cents: pickup,
      insurance_fee_cents: insurance,
      total_price_cents: total,
      car_owner_earnings_cents: hostEarnings,
      app_fee_cents: total - hostEarnings,
      pickup_option: JSON.stringify(PICKUP_AIRPORT),
      insurance_option: JSON.stringify(INSURANCE_STANDARD),
      paid_at: paid ? PAID_AT : null,
      payment_reference: paid ? `KAROO-${b.booking_number}` : null,
      ...(status === 'completed' ? { completed_at: new Date('2027-04-15T15:00:00.000Z') } : {}),
    })
    .where('id', '=', b.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

async function pay(app: TestApp, b: BookingRow): Promise<void> {
  await ledger.recordTripCharge(app.db, partiesOf(b), {
    reference: b.payment_reference,
    at: PAID_AT,
    breakdown: { totalCents: b.total_price_cents, serviceFeeCents: b.service_fee_cents, insuranceFeeCents: b.insurance_fee_cents, hostEarningsCents: b.car_owner_earnings_cents },
  });
}

/** A completed, paid trip whose host has been paid out. */
async function completedTrip(app = t): Promise<BookingRow> {
  const b = await booking(app, 'completed', true);
  await pay(app, b);
  await ledger.recordPayout(app.db, partiesOf(b), { amountCents: b.car_owner_earnings_cents, reference: 'EFT-20270416-7', at: new Date('2027-04-16T07:00:00.000Z'), actorId: admin.user.id });
  return b;
}

/** A paid trip cancelled: its shares taken back, a fee kept (shared 85/15), a refund asked for and any penalty. */
async function cancelledTrip(cause: 'renter' | 'host', money: { feeCents: number; penaltyCents: number }): Promise<{ booking: BookingRow; refund: ledger.LedgerEntry }> {
  const paid = await booking(t, 'active', true);
  await pay(t, paid);
  const b = await t.db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancel_cause: cause, cancelled_at: CANCELLED_AT })
    .where('id', '=', paid.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const feePlatform = Math.round((money.feeCents * b.commission_rate) / 100);
  const { refund } = await ledger.recordCancellation(t.db, partiesOf(b), CANCELLED_AT, {
    chargeReference: b.payment_reference,
    refundCents: b.total_price_cents - money.feeCents,
    refundCode: `${cause}_cancelled`,
    refundReason: cause === 'host' ? 'The host cancelled the trip' : 'Cancelled by the renter within 24 hours of the start',
    shares: await ledger.sharesOfBooking(t.db, b.id),
    feeHostCents: money.feeCents - feePlatform,
    feePlatformCents: feePlatform,
    penaltyCents: money.penaltyCents,
    penaltyCode: 'host_cancelled_late',
    actorId: cause === 'host' ? host.user.id : renter.user.id,
  });
  return { booking: b, refund: refund! };
}

const moneyOf = async (app: TestApp, b: BookingRow) => ledger.sumBookingMoney(await ledger.entriesOfBookings(app.db, [b.id]));
const entriesOf = (app: TestApp, b: BookingRow) => ledger.entriesOfBookings(app.db, [b.id]);
const sum = (entries: readonly ledger.LedgerEntry[], kind: ledger.LedgerEntry['kind'], ...codes: string[]) =>
  entries.filter((e) => e.kind === kind && (codes.length === 0 || codes.includes(e.code))).reduce((s, e) => s + e.amount_cents, 0);

// ---- Reading the PDF back ----

const download = (app: TestApp, kind: 'receipt' | 'invoice', id: string, who?: Signed) =>
  app.app.inject({ method: 'GET', url: `/api/booking/${id}/${kind}.pdf`, ...(who ? { headers: who.headers } : {}) });

/** The PDF's text as pdftotext lays it out (one row of the document per line). */
function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').replace(/\u00a0/g, ' ');
}

async function textOf(app: TestApp, kind: 'receipt' | 'invoice', b: BookingRow, who: Signed): Promise<string> {
  const res = await download(app, kind, b.id, who);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  expect(res.headers['content-disposition']).toBe(`attachment; filename="karoo-${kind}-${b.booking_number}.pdf"`);
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  // RECEIPT_SAMPLES=<folder> keeps each document, to look at (pdftoppm -png) before calling it done.
  if (process.env.RECEIPT_SAMPLES) writeFileSync(path.join(process.env.RECEIPT_SAMPLES, `${kind}-${b.status}-${b.booking_number}.pdf`), res.rawPayload);
  return pdfText(res.rawPayload);
}

/** "R 1 250", "-R 172,50" to cents. */
function centsOf(amount: string): number {
  const negative = amount.startsWith('-');
  const digits = amount.replace(/^-?R\s*/, '').replace(/\s/g, '').replace(',', '.');
  return Math.round(Number(digits) * 100) * (negative ? -1 : 1);
}

/** The amounts at the end of every line that starts with `label`, in cents. */
function amountsOf(text: string, label: string): number[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(label))
    .map((line) => {
      const match = /(-?R ?[\d ]*\d(?:,\d{2})?)$/.exec(line);
      if (!match) throw new Error(`No amount on the line "${line}"`);
      return centsOf(match[1]!);
    });
}

function amountOf(text: string, label: string): number {
  const amounts = amountsOf(text, label);
  expect(amounts, `one line "${label}" in:\n${text}`).toHaveLength(1);
  return amounts[0]!;
}

describe('who may download', () => {
  let paid: BookingRow;
  beforeAll(async () => {
    paid = await completedTrip();
  });

  it('the renter downloads the receipt, the car owner the invoice, an admin both (by id or booking number)', async () => {
    await textOf(t, 'receipt', paid, renter);
    await textOf(t, 'invoice', paid, host);
    await textOf(t, 'receipt', paid, admin);
    await textOf(t, 'invoice', paid, admin);
    const byNumber = await download(t, 'receipt', paid.booking_number, renter);
    expect(byNumber.statusCode, byNumber.body).toBe(200);
  });

  it("someone else's booking is 404, the other party's document 403 naming the right one, and no session 401", async () => {
    expectError(await download(t, 'receipt', paid.id, stranger), 404);
    expectError(await download(t, 'invoice', paid.id, stranger), 404);
    expectError(await download(t, 'receipt', '00000000-0000-4000-8000-000000000000', renter), 404);
    expectError(await download(t, 'invoice', paid.id, renter), 403, /invoice is the host's.*receipt\.pdf/);
    expectError(await download(t, 'receipt', paid.id, host), 403, /receipt is the renter's.*invoice\.pdf/);
    expectError(await download(t, 'receipt', paid.id), 401);
  });

  it('a booking never paid is 409 with a clear message, for either document', async () => {
    const unpaid = await booking(t, 'confirmed', false);
    expectError(await download(t, 'receipt', unpaid.id, renter), 409, `Booking ${unpaid.booking_number} has not been paid, so it has no receipt yet; the receipt is issued once the trip is paid.`);
    expectError(await download(t, 'invoice', unpaid.id, host), 409, /has not been paid, so it has no invoice yet/);
  });
});

describe("the renter's receipt", () => {
  it('names the company, the parties (not their ID numbers), the car, the dates and times, and is numbered and dated on the clock', async () => {
    const b = await completedTrip();
    const text = await textOf(t, 'receipt', b, renter);
    expect(text).toContain('Karoo Test Mobility (Pty) Ltd');
    expect(text).toContain('Company registration no. 2023/555123/07');
    expect(text).toContain('1 Bree Street, Cape Town City Centre, Cape Town, 8001');
    expect(text).toMatch(/BILLED TO\s+HOST\s*\n\s*Thandiwe Nkosi\s+Pieter van der Merwe/);
    expect(text).not.toContain(renter.user.id_number!);
    expect(text).toContain(`2022 Toyota Fortuner, White`);
    expect(text).toContain(car.car_plate_number);
    expect(text).toMatch(new RegExp(`Booking no\\.\\s+${b.booking_number}`));
    expect(text).toMatch(new RegExp(`Starts\\s+\\w{3}, \\d{1,2} Apr 2027, 09:00`));
    expect(text).toMatch(new RegExp(`Ends\\s+\\w{3}, \\d{1,2} Apr 2027, 17:00`));
    // Its number for life, of the receipts' own sequence (decision 056).
    expect(text).toMatch(/Receipt no\.\s+RC-\d{6}\s/);
    expect(text).not.toContain('Replaces');
    expect(text).toMatch(new RegExp(`Date issued\\s+${ISSUED}`));
    expect(text).toContain('Paid 1 Apr 2027, 10:02');
    expect(text).toContain('Times in South African Standard Time (Johannesburg)');
  });

  it('every part of the price and the net paid are the sums of the ledger rows, in rand as the app writes them', async () => {
    const b = await completedTrip();
    const entries = await entriesOf(t, b);
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'receipt', b, renter);
    const rentalAndPickup = sum(entries, 'host_earning', 'trip') + sum(entries, 'platform_fee', 'host_fee');
    expect(amountOf(text, 'Rental (3 days)') + amountOf(text, 'Pickup: Cape Town International Airport')).toBe(rentalAndPickup);
    expect(amountOf(text, 'Pickup: Cape Town International Airport')).toBe(b.pickup_fee_cents);
    expect(amountOf(text, 'Service fee (')).toBe(sum(entries, 'platform_fee', 'service_fee'));
    expect(amountOf(text, 'Insurance: Standard Cover')).toBe(sum(entries, 'platform_fee', 'insurance'));
    expect(amountOf(text, 'Total trip price')).toBe(money.chargedCents);
    expect(amountOf(text, 'Card payment')).toBe(money.chargedCents);
    expect(amountOf(text, 'Net amount paid')).toBe(money.chargedCents);
    expect(text).toContain(formatRand(money.chargedCents / 100).replace(/\u00a0/g, ' '));
    expect(text).not.toContain('Refund');
  });

  it('a late cancellation: the fee kept, each refund with its state and date, a failed one shown but not deducted', async () => {
    const { booking: b, refund } = await cancelledTrip('renter', { feeCents: 32_500, penaltyCents: 0 });
    // The provider refused the refund; an administrator asked again (pending).
    await ledger.failRefund(t.db, refund.id, 'Card expired');
    await ledger.recordRefundRetry(t.db, (await ledger.findEntry(t.db, refund.id))!, new Date('2027-04-09T06:00:00.000Z'), admin.user.id);
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'receipt', b, renter);
    expect(text).toMatch(/Status\s+Cancelled by the renter on 8 Apr 2027,\s+14:30/);
    expect(amountOf(text, 'Card payment')).toBe(money.chargedCents);
    expect(amountOf(text, 'Refund to your card (failed)')).toBe(-money.refundFailedCents);
    expect(amountOf(text, 'Refund to your card (pending)')).toBe(-money.refundPendingCents);
    expect(text).toMatch(/Requested 8 Apr 2027, 14:30; the card issuer refused it, Karoo is retrying · not deducted/);
    expect(text).toContain('Requested 9 Apr 2027, 08:00, on its way to your card');
    expect(amountOf(text, 'Net amount paid')).toBe(money.chargedCents - money.refundedCents - money.refundPendingCents);
    expect(amountOf(text, 'Cancellation fee kept from your payment')).toBe(money.cancellationFeeCents);
    expect(money.cancellationFeeCents).toBe(32_500);
    expect(amountOf(text, 'Net amount paid')).toBe(32_500);
  });

  it('a host cancellation: everything refunded (succeeded, dated), net paid R 0', async () => {
    const { booking: b, refund } = await cancelledTrip('host', { feeCents: 0, penaltyCents: 50_000 });
    await ledger.settleRefund(t.db, refund.id, { providerReference: 'RF-1', at: new Date('2027-04-08T12:31:00.000Z') });
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'receipt', b, renter);
    expect(amountOf(text, 'Refund to your card')).toBe(-money.refundedCents);
    expect(money.refundedCents).toBe(money.chargedCents);
    expect(text).toContain('Refunded 8 Apr 2027, 14:31 · The host cancelled the trip');
    expect(amountOf(text, 'Net amount paid')).toBe(0);
    // The host's penalty is the host's business, not the renter's.
    expect(text).not.toContain('Penalty');
    expect(text).not.toContain('Cancellation fee');
  });
});

describe("the host's invoice", () => {
  it("the host's share after Karoo's host fee, and the payouts, are the ledger's sums", async () => {
    const b = await completedTrip();
    const entries = await entriesOf(t, b);
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'invoice', b, host);
    expect(text).toMatch(/INVOICE TO \(HOST\)\s+RENTER\s*\n\s*Pieter van der Merwe\s+Thandiwe Nkosi/);
    expect(text).toMatch(/Invoice no\.\s+HI-\d{6}\s/);
    expect(amountOf(text, 'Paid by the renter')).toBe(money.chargedCents);
    expect(amountOf(text, 'Rental and pickup paid by the renter')).toBe(sum(entries, 'host_earning', 'trip') + sum(entries, 'platform_fee', 'host_fee'));
    expect(amountOf(text, `Karoo host fee (${b.commission_rate}%)`)).toBe(-sum(entries, 'platform_fee', 'host_fee'));
    expect(amountOf(text, 'Your share')).toBe(money.hostShareCents);
    expect(amountOf(text, 'Paid to your bank account')).toBe(money.paidOutCents);
    expect(text).toContain('16 Apr 2027, 09:00 · ref EFT-20270416-7');
    expect(amountOf(text, 'Still to be paid to you')).toBe(money.hostShareCents - money.paidOutCents);
    expect(text).toContain('Karoo is not registered for VAT; no VAT is charged.');
  });

  it('a host cancellation: the share taken back and the penalty owed to Karoo, deducted from the next payout', async () => {
    const { booking: b } = await cancelledTrip('host', { feeCents: 0, penaltyCents: 50_000 });
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'invoice', b, host);
    expect(text).toMatch(/Status\s+Cancelled by the host on 8 Apr 2027, 14:30/);
    expect(amountOf(text, 'Refunded to the renter')).toBe(-(money.refundedCents + money.refundPendingCents));
    expect(amountOf(text, 'Trip cancelled: your share taken back')).toBe(-b.car_owner_earnings_cents);
    expect(amountOf(text, 'Your share')).toBe(money.hostShareCents);
    expect(money.hostShareCents).toBe(0);
    expect(amountOf(text, 'Penalty for cancelling the trip')).toBe(-money.hostPenaltyCents);
    expect(amountOf(text, 'Your earnings after penalties')).toBe(money.hostShareCents - money.hostPenaltyCents);
    expect(amountOf(text, 'Owed to Karoo, deducted from your next payout')).toBe(-50_000);
  });

  it("a renter's late cancellation: the host's share of the fee after Karoo's host fee on it", async () => {
    const { booking: b } = await cancelledTrip('renter', { feeCents: 32_500, penaltyCents: 0 });
    const entries = await entriesOf(t, b);
    const money = await moneyOf(t, b);
    const text = await textOf(t, 'invoice', b, host);
    expect(amountOf(text, 'Cancellation fee paid by the renter')).toBe(money.cancellationFeeCents);
    expect(amountOf(text, `Karoo host fee on the cancellation fee (${b.commission_rate}%)`)).toBe(-sum(entries, 'platform_fee', 'cancellation_fee'));
    expect(amountOf(text, 'Your share')).toBe(money.hostShareCents);
    expect(money.hostShareCents).toBe(sum(entries, 'host_earning', 'cancellation_fee'));
    expect(amountOf(text, 'Still to be paid to you')).toBe(money.hostShareCents);
    expect(text).not.toContain('Penalty');
  });
});

describe('a document keeps one number for life (decision 056)', () => {
  const numberIn = (text: string, kind: 'Receipt' | 'Invoice') => new RegExp(`${kind} no\\.\\s+((?:RC|HI)-\\d{6})`).exec(text)?.[1];
  const issuedIn = (text: string) => /Date issued\s+(\d{1,2} \w{3} \d{4}, \d{2}:\d{2})/.exec(text)?.[1];
  const issuedRows = (b: BookingRow) => t.db.selectFrom('issued_documents').selectAll().where('booking_id', '=', b.id).orderBy('serial').execute();

  it('downloading the same receipt again gives the same number and date of issue; a refund issues a new one naming it', async () => {
    const b = await booking(t, 'active', true);
    await pay(t, b);
    const first = await textOf(t, 'receipt', b, renter);
    const number = numberIn(first, 'Receipt');
    expect(number).toMatch(/^RC-\d{6}$/);
    expect(issuedIn(first)).toBe(ISSUED);

    // Two hours later, and read by an administrator: the same document.
    t.clock.set('2027-04-20T12:15:00.000Z');
    try {
      const again = await textOf(t, 'receipt', b, renter);
      expect(numberIn(again, 'Receipt')).toBe(number);
      expect(issuedIn(again)).toBe(ISSUED);
      expect(numberIn(await textOf(t, 'receipt', b, admin), 'Receipt')).toBe(number);
      // The host's invoice is numbered in its own sequence.
      expect(numberIn(await textOf(t, 'invoice', b, host), 'Invoice')).toMatch(/^HI-\d{6}$/);

      // The renter cancels late: a refund moves money, so the receipt says something new.
      const cancelled = await t.db.updateTable('bookings').set({ status: 'cancelled', cancel_cause: 'renter', cancelled_at: CANCELLED_AT }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
      await ledger.recordCancellation(t.db, partiesOf(cancelled), CANCELLED_AT, {
        chargeReference: cancelled.payment_reference,
        refundCents: cancelled.total_price_cents - 32_500,
        refundCode: 'renter_cancelled',
        refundReason: 'Cancelled by the renter within 24 hours of the start',
        shares: await ledger.sharesOfBooking(t.db, cancelled.id),
        feeHostCents: 32_500 - Math.round((32_500 * cancelled.commission_rate) / 100),
        feePlatformCents: Math.round((32_500 * cancelled.commission_rate) / 100),
        penaltyCents: 0,
        penaltyCode: 'host_cancelled_late',
        actorId: renter.user.id,
      });
      const replaced = await textOf(t, 'receipt', cancelled, renter);
      const newNumber = numberIn(replaced, 'Receipt');
      expect(newNumber).toMatch(/^RC-\d{6}$/);
      expect(newNumber).not.toBe(number);
      expect(Number(newNumber!.slice(3))).toBeGreaterThan(Number(number!.slice(3)));
      expect(replaced).toMatch(new RegExp(`Replaces\\s+${number}`));
      expect(issuedIn(replaced)).toBe('20 Apr 2027, 14:15');
      // Asked for again, the new document keeps its number; the old one is kept, never reused.
      expect(numberIn(await textOf(t, 'receipt', cancelled, renter), 'Receipt')).toBe(newNumber);
      const receipts = (await issuedRows(b)).filter((r) => r.kind === 'receipt');
      expect(receipts.map((r) => r.number)).toEqual([number, newNumber]);
      expect(receipts[1]!.replaces_id).toBe(receipts[0]!.id);
    } finally {
      t.clock.set(NOW);
    }
  });

  it('two first downloads at once issue one number', async () => {
    const b = await booking(t, 'active', true);
    await pay(t, b);
    const texts = await Promise.all([textOf(t, 'receipt', b, renter), textOf(t, 'receipt', b, renter), textOf(t, 'receipt', b, admin), textOf(t, 'invoice', b, host), textOf(t, 'invoice', b, admin)]);
    expect(new Set(texts.slice(0, 3).map((text) => numberIn(text, 'Receipt'))).size).toBe(1);
    expect(new Set(texts.slice(3).map((text) => numberIn(text, 'Invoice'))).size).toBe(1);
    expect((await issuedRows(b)).map((r) => r.kind).sort()).toEqual(['invoice', 'receipt']);
  });

  it('the database keeps a number for life: no change, no delete, no second first document', async () => {
    const b = await booking(t, 'active', true);
    await pay(t, b);
    await textOf(t, 'receipt', b, renter);
    const [row] = await issuedRows(b);
    await expect(t.db.updateTable('issued_documents').set({ number: 'RC-999999' }).where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(t.db.deleteFrom('issued_documents').where('id', '=', row!.id).execute()).rejects.toThrow(/append-only/);
    await expect(
      t.db.insertInto('issued_documents').values({ kind: 'receipt', serial: 999_998, number: 'RC-999998', booking_id: b.id, content_hash: 'x', replaces_id: null, issued_at: new Date(NOW) }).execute(),
    ).rejects.toThrow(/issued_documents_first_unique/);
  });
});

describe('the VAT line', () => {
  it('once Karoo registers (COMPANY_VAT_NUMBER), the documents are tax invoices showing the VAT included in its fees at 15%', async () => {
    vat = await createTestApp({ env: { COMPANY_VAT_NUMBER: VAT_NUMBER } });
    vat.clock.set(NOW);
    const vatHost = await createSignedInUser(vat.app, vat.ctx, { role: 'host', verification_status: 'verified' });
    const vatRenter = await createSignedInUser(vat.app, vat.ctx, { verification_status: 'verified' });
    const vatCar = await createTestCar(vat.ctx, vatHost.user);
    const b = await booking(vat, 'active', true, vatCar, vatRenter.user);
    await pay(vat, b);
    const entries = await entriesOf(vat, b);

    const receipt = await textOf(vat, 'receipt', b, vatRenter);
    expect(receipt).toContain('Tax invoice and receipt');
    expect(receipt).toContain(`VAT registration no. ${VAT_NUMBER}`);
    const renterFees = sum(entries, 'platform_fee', 'service_fee', 'insurance');
    const renterVat = Math.round((renterFees * 15) / 115);
    expect(receipt.replace(/\s+/g, ' ')).toContain(`VAT at 15% included in Karoo's service fee and insurance of ${formatRand(renterFees / 100)}: ${formatRand(renterVat / 100)}.`.replace(/\u00a0/g, ' '));

    const invoice = await textOf(vat, 'invoice', b, vatHost);
    expect(invoice).toContain('Tax invoice');
    const hostFees = sum(entries, 'platform_fee', 'host_fee');
    expect(invoice.replace(/\s+/g, ' ')).toContain(`VAT at 15% included in Karoo's host fees and penalties of ${formatRand(hostFees / 100)}: ${formatRand(Math.round((hostFees * 15) / 115) / 100)}.`.replace(/\u00a0/g, ' '));
    expect(invoice).toContain('Your share becomes payable once the trip is completed.');
  });

  it('refuses a VAT number that is not a South African one at start-up', async () => {
    await expect(createTestApp({ env: { COMPANY_VAT_NUMBER: '12345' } })).rejects.toThrow(/COMPANY_VAT_NUMBER: must be a South African VAT number/);
  });
});
