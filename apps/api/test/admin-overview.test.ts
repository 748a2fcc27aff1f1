// The admin Dashboard's data (document 3, Admin panel; decisions.md section 1): five counters, and
// the Cars tab's available, rented and maintenance counts, that equal independent counts of the
// tables (deleted users and cars left out), the 5 newest users, and a debug box that names modes
// and versions but never a secret. Only admins may read it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, adminOverviewSchema, todayIn, type AdminOverview } from '@karoo/shared';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

const SECRET_KEY = 'sk_test_overview_secret_0123456789';
const SMTP_PASSWORD = 'smtp-overview-pass';
const DB_PASSWORD = 'db-overview-pass';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  // Secrets in the environment, to prove none reaches the answer. The database itself is the
  // test harness's; DATABASE_URL here only sets what the debug box reports.
  t = await createTestApp({
    env: {
      PAYSTACK_SECRET_KEY: SECRET_KEY,
      PAYSTACK_PUBLIC_KEY: 'pk_test_overview_public',
      DATABASE_URL: `postgres://karoo:${DB_PASSWORD}@db.internal:5432/karoo`,
    },
    smtpUrl: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:2525`,
  });
  // Time is an input: "rented right now" is judged on this day.
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });

  const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createUser(t.ctx, { verification_status: 'verified' });
  await createUser(t.ctx, { verification_status: 'pending_verification' });
  await createUser(t.ctx, { verification_status: 'pending_verification' });
  await createUser(t.ctx, { verification_status: 'pending_upload' });
  await createUser(t.ctx, { verification_status: 'pending_verification', overrides: { deleted_at: new Date() } });

  const car = await createTestCar(t.ctx, host);
  await createTestCar(t.ctx, host, { verification_status: 'pending_verification' });
  await createTestCar(t.ctx, host, { verification_status: 'pending_verification', deleted: true });
  await createTestCar(t.ctx, host, { verification_status: 'rejected' });
  await createTestCar(t.ctx, host, { status: 'maintenance' });
  await createTestCar(t.ctx, host, { status: 'maintenance', deleted: true });
  await createTestBooking(t.ctx, car, renter, { start: '2027-03-01', days: 2 });
  await createTestBooking(t.ctx, car, renter, { start: '2027-03-10', days: 3, status: 'confirmed' });
  // Out on a rental right now (the Cars tab's Rented): a paid booking whose first day has come; and
  // one paid for a trip that starts tomorrow, whose car is not out yet.
  const today = todayIn(t.clock.now());
  await createTestBooking(t.ctx, await createTestCar(t.ctx, host), renter, { start: addDays(today, -2), days: 4, status: 'active' });
  await createTestBooking(t.ctx, await createTestCar(t.ctx, host), renter, { start: addDays(today, 1), days: 2, status: 'active' });
});
afterAll(async () => {
  await t?.close();
});

const getOverview = (headers?: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/overview', ...(headers ? { headers } : {}) });

/** The same numbers counted another way: every row read, then filtered here. */
async function countIndependently() {
  const today = todayIn(t.clock.now());
  const users = (await t.db.selectFrom('users').select(['verification_status', 'deleted_at']).execute()).filter((u) => !u.deleted_at);
  const cars = (await t.db.selectFrom('cars').select(['id', 'status', 'verification_status', 'deleted_at']).execute()).filter((c) => !c.deleted_at);
  const bookings = await t.db.selectFrom('bookings').select(['id', 'car_id', 'status', 'start_date']).execute();
  const isOut = (carId: string) => bookings.some((b) => b.car_id === carId && b.status === 'active' && String(b.start_date).slice(0, 10) <= today);
  return {
    total_users: users.length,
    total_cars: cars.length,
    total_bookings: bookings.length,
    pending_user_verification: users.filter((u) => u.verification_status === 'pending_verification').length,
    pending_car_verification: cars.filter((c) => c.verification_status === 'pending_verification').length,
    available_cars: cars.filter((c) => c.status === 'available' && !isOut(c.id)).length,
    rented_cars: cars.filter((c) => isOut(c.id)).length,
    maintenance_cars: cars.filter((c) => c.status === 'maintenance').length,
  };
}

describe('GET /api/admin/overview', () => {
  it('counts users, cars, bookings and pending verifications like the tables do, leaving deleted ones out', async () => {
    const overview = adminOverviewSchema.parse(expectOk<AdminOverview>(await getOverview(admin.headers)));
    expect(overview.counters).toEqual(await countIndependently());
    // The fixture above, by hand: the deleted user and car are not counted.
    expect(overview.counters.pending_user_verification).toBe(2);
    expect(overview.counters.pending_car_verification).toBe(1);
    expect(overview.counters.total_bookings).toBe(4);
    // The Cars tab's counters in the same answer (issue 19).
    expect(overview.counters).toMatchObject({ total_cars: 6, available_cars: 4, rented_cars: 1, maintenance_cars: 1 });
  });

  it('lists the 5 newest users first, never a deleted one', async () => {
    const newest = await createUser(t.ctx, { full_name: 'Newest Member', overrides: { created_at: new Date(t.clock.now().getTime() + 60_000) } });
    const { recent_users } = expectOk<AdminOverview>(await getOverview(admin.headers));
    expect(recent_users).toHaveLength(5);
    expect(recent_users[0]).toEqual({
      id: newest.id,
      username: newest.username,
      full_name: 'Newest Member',
      email: newest.email,
      role: 'customer',
      verification_status: newest.verification_status,
      created_at: new Date(newest.created_at).toISOString(),
    });
    const times = recent_users.map((u) => u.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const deleted = await t.db.selectFrom('users').select('id').where('deleted_at', 'is not', null).execute();
    expect(recent_users.map((u) => u.id)).not.toEqual(expect.arrayContaining(deleted.map((d) => d.id)));
  });

  it('reports the modes and versions an operator needs, and no secret', async () => {
    const res = await getOverview(admin.headers);
    const { debug } = expectOk<AdminOverview>(res);
    expect(debug).toMatchObject({ database: 'PostgreSQL', mail: 'SMTP', payments: 'paystack', node_version: process.version, api_version: '0.1.0' });
    expect(debug.commit).toMatch(process.env.GIT_COMMIT ? /./ : /^([0-9a-f]{7}|unknown)$/);
    expect(debug.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(debug.server_time).toBe(t.clock.now().toISOString());
    for (const secret of [SECRET_KEY, 'pk_test_overview_public', SMTP_PASSWORD, DB_PASSWORD, 'db.internal', 'smtp://', 'postgres://']) {
      expect(res.body).not.toContain(secret);
    }
  });

  it('reports the embedded database, the outbox and the sandbox when nothing is configured', async () => {
    const plain = await createTestApp();
    try {
      const { headers } = await createSignedInUser(plain.app, plain.ctx, { role: 'admin', verification_status: 'verified' });
      const { debug } = expectOk<AdminOverview>(await plain.app.inject({ method: 'GET', url: '/api/admin/overview', headers }));
      expect(debug).toMatchObject({ database: 'embedded PGlite', mail: 'outbox', payments: 'sandbox' });
    } finally {
      await plain.close();
    }
  });

  it('refuses guests with 401 and customers and hosts with 403', async () => {
    expectError(await getOverview(), 401, 'Authentication required. Please sign in.');
    const customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    expectError(await getOverview(customer.headers), 403, 'Administrator access is required.');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    expectError(await getOverview(host.headers), 403, 'Administrator access is required.');
  });

  it('is documented with an operation id, the Admin tag and a bearer token', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { operationId?: string; tags?: string[]; security?: unknown[] }>>;
    }>();
    expect(doc.paths['/api/admin/overview']?.get).toMatchObject({ operationId: 'getAdminOverview', tags: ['Admin'], security: [{ bearerAuth: [] }] });
  });
});
