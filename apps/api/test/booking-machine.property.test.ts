// Property: random sequences of actions by random users (create, approve, reject, cancel, pay,
// return, let time pass and expire) never make a change the status machine forbids, never answer
// 500, keep payment and status consistent, and never hold a car twice on one date (checked in
// the database after every step).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canTransition, type PaymentSession } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { expireOverdueBookings } from '../src/modules/bookings/bookings.service';
import { authHeader, createUser, createTestApp, HOUR, login, type TestApp, type TestUser } from './helpers';
import { createTestCar } from './helpers/vehicles';
import { propertyRuns } from './helpers/property';

let t: TestApp;
let admin: TestUser;
let host: TestUser;
let renters: TestUser[];

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createUser(t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
  renters = [await createUser(t.ctx, { verification_status: 'verified' }), await createUser(t.ctx, { verification_status: 'verified' })];
});
afterAll(async () => {
  await t?.close();
});

type Who = 0 | 1 | 2 | 3; // renter A, renter B, host, admin
const who = fc.constantFrom<Who>(0, 1, 2, 3);
// Weighted towards the paths that go somewhere (accept by the host, pay by a renter), so runs
// reach active and completed as well as the refusals.
const action = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('create' as const), who: fc.constantFrom<Who>(0, 1, 2), car: fc.nat(1), offset: fc.nat(3), length: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('approve' as const), who: fc.constantFrom<Who>(2, 2, 3, 0), booking: fc.nat(2) }) },
  // 'renter' is the booking's own renter; the others are refused.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('pay' as const), who: fc.constantFrom<Who | 'renter'>('renter', 'renter', 'renter', 0, 2), booking: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('reject' as const, 'cancel' as const), who, booking: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), who: fc.constantFrom<Who>(2, 3, 0), car: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('expire' as const), hours: fc.integer({ min: 1, max: 30 }) }) },
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

const ALLOWED = new Set([200, 201, 400, 402, 403, 404, 409]);

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
const todayOf = (now: Date) => new Date(now.getTime() + 2 * HOUR).toISOString().slice(0, 10);

async function snapshot(cars: CarRow[]): Promise<BookingRow[]> {
  return t.db.selectFrom('bookings').selectAll().where('car_id', 'in', cars.map((c) => c.id)).orderBy('created_at').orderBy('id').execute();
}

function checkInvariants(rows: BookingRow[], before: Map<string, string>) {
  for (const r of rows) {
    const previous = before.get(r.id);
    if (previous === undefined) expect(['pending', 'confirmed']).toContain(r.status);
    else if (previous !== r.status) expect(canTransition(previous, r.status), `${previous} -> ${r.status}`).toBe(true);
    // Paid: a trip under way, or one that was paid and then completed or cancelled by the policy.
    const paidTrip = r.status === 'active' || (['completed', 'cancelled'].includes(r.status) && r.paid_at !== null);
    expect(r.payment_status === 'paid', `${r.status}/${r.payment_status}`).toBe(paidTrip);
  }
  const holding = rows.filter((r) => ['pending', 'confirmed', 'active'].includes(r.status));
  for (const a of holding) {
    for (const b of holding) {
      if (a.id < b.id && a.car_id === b.car_id) expect(a.end_date < b.start_date || b.end_date < a.start_date, `${a.id} and ${b.id} overlap`).toBe(true);
    }
  }
}

describe('the booking machine under random use', () => {
  it('never reaches a forbidden state nor double-books a car', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 16 }), async (actions: Action[]) => {
        // A fresh pair of cars and fresh 30-day sessions per run; the clock only moves forward.
        const cars = [await createTestCar(t.ctx, host), await createTestCar(t.ctx, host)];
        const users = [renters[0]!, renters[1]!, host, admin];
        const headers = await Promise.all(users.map(async (u) => authHeader(await login(t.app, u.username, undefined, { remember: true }))));
        const statuses = new Map<string, string>();
        const ids: string[] = [];
        for (const a of actions) {
          let res: { statusCode: number; body: string } | null = null;
          if (a.kind === 'create') {
            const start = addDays(todayOf(t.clock.now()), a.offset);
            res = await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: headers[a.who]!, payload: { car_username: cars[a.car]!.car_username, start_date: start, end_date: addDays(start, a.length) } });
            if (res.statusCode === 201) ids.push((JSON.parse(res.body) as { data: { id: string } }).data.id);
          } else if (a.kind === 'return') {
            res = await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${cars[a.car]!.car_username}`, headers: headers[a.who]!, payload: {} });
          } else if (a.kind === 'expire') {
            t.clock.advance(a.hours * HOUR);
            await expireOverdueBookings(t.ctx);
          } else {
            const id = ids[ids.length - 1 - (a.booking % Math.max(1, ids.length))];
            if (!id) continue;
            let h = a.who === 'renter' ? headers[0]! : headers[a.who]!;
            if (a.kind === 'pay') {
              if (a.who === 'renter') {
                const renterId = (await t.db.selectFrom('bookings').select('renter_id').where('id', '=', id).executeTakeFirstOrThrow()).renter_id;
                h = headers[users.findIndex((u) => u.id === renterId)]!;
              }
              res = await t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers: h });
              if (res.statusCode === 200) {
                const { reference } = (JSON.parse(res.body) as { data: PaymentSession }).data;
                res = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: h, payload: { reference, card_number: '4084084084084081', expiry: '12/39', cvv: '123' } });
                expect(res.statusCode, res.body).toBe(200);
                res = await t.app.inject({ method: 'POST', url: `/api/booking/pay/${id}`, headers: h, payload: { paystack_reference: reference } });
              }
            } else {
              const url = a.kind === 'cancel' ? `/api/booking/${id}/cancel` : `/api/booking/${a.kind}/${id}`;
              res = await t.app.inject({ method: 'PATCH', url, headers: h });
            }
          }
          if (res) expect(ALLOWED.has(res.statusCode), `${a.kind}: ${res.statusCode} ${res.body}`).toBe(true);
          const rows = await snapshot(cars);
          checkInvariants(rows, statuses);
          for (const r of rows) statuses.set(r.id, r.status);
        }
      }),
      {
        ...propertyRuns(25, 'booking machine', 1000003),
        // One known path through the whole machine, then random ones.
        examples: [
          [
            [
              { kind: 'create', who: 0, car: 0, offset: 0, length: 1 },
              { kind: 'approve', who: 2, booking: 0 },
              { kind: 'pay', who: 'renter', booking: 0 },
              { kind: 'return', who: 2, car: 0 },
              { kind: 'create', who: 1, car: 0, offset: 0, length: 0 },
              { kind: 'expire', hours: 20 },
            ],
          ],
        ],
      },
    );
    // The runs went somewhere: at least the example was paid and returned, not only refused.
    const completed = await t.db.selectFrom('bookings').select('id').where('status', '=', 'completed').where('payment_status', '=', 'paid').execute();
    expect(completed.length).toBeGreaterThan(0);
  }, 120_000);
});
