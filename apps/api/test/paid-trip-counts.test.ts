// Every count and payout badge of the money screens follows the ledger (issue 32, decision 056): a
// trip refunded in full keeps no money, so it is not counted among the host's "paid or completed
// bookings" nor the admin's paid trips, and its payout is not "pending" when nothing is owed; a trip
// cancelled with a fee kept still counts, and its host's share is owed. Expected counts are written
// by hand: two of the three trips keep money.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shownPayoutStatus, type AdminFinance, type Earning, type EarningsSummary } from '@karoo/shared';
import type { BookingRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectOk, type TestApp } from './helpers';
import { cancelTestTrip, recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let completed: BookingRow;
let refundedInFull: BookingRow;
let partlyRefunded: BookingRow;

const get = async <T>(url: string, who: Signed) => expectOk<T>(await t.app.inject({ method: 'GET', url, headers: who.headers }));

async function paidTrip(carId: BookingRow['car_id'], start: string, status: 'completed' | 'active'): Promise<BookingRow> {
  const car = await t.db.selectFrom('cars').selectAll().where('id', '=', carId).executeTakeFirstOrThrow();
  const b = await createTestBooking(t.ctx, car, renter.user, { start, days: 2, status });
  const at = new Date('2030-03-02T10:00:00Z');
  const paid = await t.db
    .updateTable('bookings')
    .set(status === 'completed' ? { paid_at: at, completed_at: new Date('2030-03-06T10:00:00Z') } : { paid_at: at })
    .where('id', '=', b.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, paid, at);
  return paid;
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user, { price: 800 });
  completed = await paidTrip(car.id, '2030-03-04', 'completed');
  refundedInFull = await paidTrip(car.id, '2030-03-20', 'active');
  partlyRefunded = await paidTrip(car.id, '2030-03-25', 'active');
  // The same month it was paid in: one trip cancelled free (everything back), one late (R 400 kept, R 300 the host's).
  await cancelTestTrip(t.ctx, refundedInFull, { at: '2030-03-05T12:00:00Z', cause: 'renter' });
  await cancelTestTrip(t.ctx, partlyRefunded, { at: '2030-03-05T13:00:00Z', cause: 'renter', feeHostCents: 30_000, feePlatformCents: 10_000 });
});
afterAll(async () => {
  await t?.close();
});

describe('counts follow the ledger', () => {
  it("the host's Earnings counts the trips that kept money: not the one refunded in full", async () => {
    const summary = await get<EarningsSummary>('/api/earnings/earning/getSummary', host);
    expect(summary.bookings).toBe(2);
    expect(summary.by_car.map((c) => c.bookings)).toEqual([2]);
    expect(summary.by_month.find((m) => m.month === '2030-03')?.bookings).toBe(2);
    const list = await get<Earning[]>(`/api/earnings/earning/getCarOwnerProfit/${host.user.username}`, host);
    const byId = new Map(list.map((e) => [e.id, e]));
    // The list's own figures: nothing kept of the trip refunded in full, the fee's share of the other.
    expect(byId.get(refundedInFull.id)).toMatchObject({ car_owner_earnings: 0, gross: 0 });
    expect(byId.get(partlyRefunded.id)).toMatchObject({ car_owner_earnings: 300, gross: 400 });
    expect(shownPayoutStatus(byId.get(refundedInFull.id)!.payout_status, byId.get(refundedInFull.id)!.car_owner_earnings)).toBeNull();
    expect(shownPayoutStatus(byId.get(partlyRefunded.id)!.payout_status, byId.get(partlyRefunded.id)!.car_owner_earnings)).toBe('pending');
    expect(shownPayoutStatus(byId.get(completed.id)!.payout_status, byId.get(completed.id)!.car_owner_earnings)).toBe('pending');
  });

  it("the admin's Finance counts the same paid trips, by period and by car, and no payout is pending for the trip refunded in full", async () => {
    const all = await get<AdminFinance>('/api/earnings/admin/finance', admin);
    expect(all.totals.bookings).toBe(2);
    expect(all.top_cars.map((c) => c.bookings)).toEqual([2]);
    expect(all.month_over_month.current.bookings).toBe(2);
    // The day the trips were paid counts all three (each kept its money that day); the day of the
    // cancellations counts none (money went back), and leaves the paid day as it was.
    expect((await get<AdminFinance>('/api/earnings/admin/finance?from=2030-03-02&to=2030-03-02', admin)).totals.bookings).toBe(3);
    expect((await get<AdminFinance>('/api/earnings/admin/finance?from=2030-03-05&to=2030-03-05', admin)).totals.bookings).toBe(0);

    const lines = all.recent_transactions;
    for (const line of lines.filter((l) => l.booking_id === refundedInFull.id)) {
      expect(line.host_share).toBe(0);
      expect(shownPayoutStatus(line.payout_status, line.host_share)).toBeNull();
    }
    for (const line of lines.filter((l) => l.booking_id === partlyRefunded.id)) {
      expect(line.host_share).toBe(300);
      expect(shownPayoutStatus(line.payout_status, line.host_share)).toBe('pending');
    }
    expect(lines.some((l) => l.booking_id === refundedInFull.id)).toBe(true);
  });
});
