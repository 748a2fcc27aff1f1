// The audit log (issue 10): every administrator action writes exactly one row with who, when, what
// and the values before and after, in the same transaction as the change; what users, payments and
// the system do writes none. Admins only can read it, filtered and paged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Booking, Car } from '@karoo/shared';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, type TestApp } from './helpers';
import { multipart, pdfBytes } from './helpers/files';
import { approveRegistration, createTestBooking, createTestCar, newCarBody, pngDataUrl } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const rows = () => t.db.selectFrom('audit_log').selectAll().orderBy('seq').execute();
const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** Runs an action and returns the audit rows it wrote. */
async function audited(action: () => Promise<unknown>) {
  const before = (await rows()).length;
  await action();
  return (await rows()).slice(before);
}

describe('every admin action writes one audit row', () => {
  it('users: verify, reject (with the reason), create, edit role, delete', async () => {
    const pending = await createUser(t.ctx, { withDocuments: true, verification_status: 'pending_verification' });
    let written = await audited(async () => expectOk(await req('PUT', `/api/user/${pending.username}/verification`, admin.headers, { verification_status: 'verified' })));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      admin_id: admin.user.id,
      action: 'user.verified',
      target_type: 'user',
      target_id: pending.id,
      target_label: pending.username,
      before: { verification_status: 'pending_verification' },
      after: { verification_status: 'verified' },
    });
    expect(new Date(written[0]!.created_at).toISOString()).toBe('2030-03-10T08:00:00.000Z');

    const other = await createUser(t.ctx, { withDocuments: true, verification_status: 'pending_verification' });
    written = await audited(async () => expectOk(await req('PUT', `/api/user/${other.username}/verification`, admin.headers, { verification_status: 'rejected', notes: 'Blurry ID' })));
    expect(written).toMatchObject([{ action: 'user.rejected', reason: 'Blurry ID', after: { verification_status: 'rejected' } }]);

    written = await audited(async () =>
      expectOk(await req('POST', '/api/user/create', admin.headers, { username: 'audited_user', email: 'audited@karoo.test', name: 'Audited User', password: 'Secret-pass-1' }), 201),
    );
    expect(written).toMatchObject([{ action: 'user.created', target_label: 'audited_user', after: { role: 'customer', verification_status: 'pending_upload' } }]);

    written = await audited(async () => expectOk(await req('PUT', `/api/user/update/${other.username}`, admin.headers, { role: 'host' })));
    expect(written).toMatchObject([{ action: 'user.updated', before: { role: 'customer' }, after: { role: 'host', user_type: 'host' } }]);

    written = await audited(async () => expectOk(await req('DELETE', `/api/user/delete/audited_user`, admin.headers)));
    // The erasure leaves no personal detail in the record: the anonymous username, the role and status before.
    expect(written).toMatchObject([{ action: 'user.deleted', target_label: expect.stringMatching(/^former_/), before: { role: 'customer', verification_status: 'pending_upload' } }]);
    expect(JSON.stringify(written)).not.toMatch(/audited@karoo\.test|audited_user|Audited User/);
  });

  it('cars: rejecting and approving a registration document records the values before and after (decision 018)', async () => {
    const listed = expectOk<Car>(await req('POST', `/api/car/newCar/${host.user.username}`, host.headers, newCarBody({ images: [pngDataUrl()] }) as unknown as Record<string, unknown>), 201);
    const upload = async () => {
      const body = multipart([{ name: 'registrationDocument', filename: 'registration.pdf', data: pdfBytes('Registration'), contentType: 'application/pdf' }]);
      expectOk(await t.app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${listed.car_username}`, headers: { ...host.headers, ...body.headers }, payload: body.payload }));
    };
    await upload();
    let written = await audited(async () => expectOk(await req('PATCH', `/api/car/verifyRegistrationDocument/${listed.car_username}`, admin.headers, { verified: false, notes: 'Blurry' })));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      action: 'car.registration_rejected',
      target_id: listed.id,
      before: { registration_verified: null, registration_verification_notes: null },
      after: { registration_verified: false, registration_verification_notes: 'Blurry' },
      reason: 'Blurry',
    });
    await upload();
    written = await audited(async () => expectOk(await req('PATCH', `/api/car/verifyRegistrationDocument/${listed.car_username}`, admin.headers, { verified: true })));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      action: 'car.registration_verified',
      before: { registration_verified: null, registration_verification_notes: null },
      after: { registration_verified: true, registration_verification_notes: null },
    });
  });

  it('cars: verify, reject with notes, maintenance, force return, delete', async () => {
    const listed = expectOk<Car>(await req('POST', `/api/car/newCar/${host.user.username}`, host.headers, newCarBody({ images: [pngDataUrl()] }) as unknown as Record<string, unknown>), 201);
    let written = await audited(async () => expectOk(await req('PATCH', `/api/car/verifyCar/${listed.id}`, admin.headers, { verification_status: 'rejected', admin_notes: 'Plate not visible' })));
    expect(written).toMatchObject([{ action: 'car.rejected', target_id: listed.id, before: { verification_status: 'pending_verification' }, reason: 'Plate not visible' }]);
    await approveRegistration(t.app, listed.car_username, host.headers, admin.headers);
    written = await audited(async () => expectOk(await req('PATCH', `/api/car/verifyCar/${listed.id}`, admin.headers, { verification_status: 'verified' })));
    expect(written).toMatchObject([{ action: 'car.verified', before: { verification_status: 'rejected' }, after: { verification_status: 'verified' } }]);

    written = await audited(async () => expectOk(await req('PUT', `/api/car/updateCar/${listed.id}`, admin.headers, { status: 'maintenance' })));
    expect(written).toMatchObject([{ action: 'car.updated', before: { status: 'available' }, after: { status: 'maintenance' } }]);

    const rented = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, rented, renter.user, { start: '2030-03-09', days: 3, status: 'active' });
    written = await audited(async () => expectOk(await req('PATCH', `/api/car/forceReturn/${rented.car_username}`, admin.headers, { admin_action: true, reason: 'Reported stolen' })));
    // One row for the admin's force return; the booking's completion is the same action's consequence.
    expect(written.map((r) => r.action)).toEqual(['car.force_returned']);
    expect(written[0]).toMatchObject({ reason: 'Reported stolen', after: { affected_bookings: 1 } });

    written = await audited(async () => expectOk(await req('DELETE', `/api/car/deleteCar/${listed.id}`, admin.headers)));
    expect(written).toMatchObject([{ action: 'car.removed', target_id: listed.id }]);
  });

  it('a force return names each booking it ended, with its state before and after', async () => {
    const rented = await createTestCar(t.ctx, host.user);
    // An overdue rental never returned, and the next one already under way: both end.
    const overdue = await createTestBooking(t.ctx, rented, renter.user, { start: '2030-03-05', days: 2, status: 'active' });
    const current = await createTestBooking(t.ctx, rented, renter.user, { start: '2030-03-08', days: 4, status: 'active' });
    const written = await audited(async () => expectOk(await req('PATCH', `/api/car/forceReturn/${rented.car_username}`, admin.headers, { admin_action: true, reason: 'Reported stolen' })));
    expect(written).toHaveLength(1);
    const [row] = written;
    const named = (b: { id: string; booking_number: string }, state: Record<string, unknown>) => ({ id: b.id, booking_number: b.booking_number, ...state });
    expect(row!.before).toEqual({
      bookings: [
        named(overdue, { status: 'active', end_date: overdue.end_date, completed_at: null, actual_return_date: null, condition_notes: null }),
        named(current, { status: 'active', end_date: current.end_date, completed_at: null, actual_return_date: null, condition_notes: null }),
      ],
    });
    const returned = { status: 'completed', completed_at: '2030-03-10T08:00:00.000Z', actual_return_date: '2030-03-10T08:00:00.000Z', condition_notes: 'Force returned by an administrator: Reported stolen' };
    expect(row!.after).toEqual({
      affected_bookings: 2,
      bookings: [named(overdue, { ...returned, end_date: overdue.end_date }), named(current, { ...returned, end_date: current.end_date })],
    });
    expect(row).toMatchObject({ action: 'car.force_returned', target_id: rented.id, reason: 'Reported stolen' });
  });

  it('bookings, settings and payouts: approve, reject, cancel; the settings change with its values; a payout', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const a = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-01', days: 2 });
    let written = await audited(async () => expectOk(await req('PATCH', `/api/booking/approve/${a.id}`, admin.headers)));
    expect(written).toMatchObject([{ action: 'booking.confirmed', target_label: a.booking_number, after: { status: 'confirmed' } }]);
    written = await audited(async () => expectOk(await req('PATCH', `/api/booking/${a.id}/cancel`, admin.headers)));
    expect(written).toMatchObject([{ action: 'booking.cancelled', after: { status: 'cancelled' } }]);
    const b = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-01', days: 2 });
    written = await audited(async () => expectOk(await req('PATCH', `/api/booking/reject/${b.id}`, admin.headers, { host_response: 'Car in for service' })));
    expect(written).toMatchObject([{ action: 'booking.rejected', reason: 'Car in for service' }]);

    written = await audited(async () => expectOk(await req('PUT', '/api/settings', admin.headers, { platform_fee: 20 })));
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({ action: 'settings.changed', target_type: 'settings' });
    expect(written[0]!.before).toMatchObject({ platform_fee: 25 });
    expect(written[0]!.after).toMatchObject({ platform_fee: 20 });
    expectOk(await req('PUT', '/api/settings', admin.headers, { platform_fee: 25 }));

    const done = await createTestBooking(t.ctx, car, renter.user, { start: '2030-02-01', days: 2, status: 'completed' });
    written = await audited(async () => expectOk(await req('PATCH', `/api/earnings/earning/updatePayout/${done.id}`, admin.headers, { payout_status: 'paid', payout_reference: 'EFT-2030-001' })));
    expect(written).toMatchObject([{ action: 'payout.updated', before: { payout_status: 'pending' }, after: { payout_status: 'paid', payout_reference: 'EFT-2030-001' } }]);
  });

  it('what hosts, renters and the system do is not an admin action: nothing is written', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const written = await audited(async () => {
      const made = expectOk<Booking>(await req('POST', '/api/booking/create', renter.headers, { car_username: car.car_username, start_date: '2030-06-01', end_date: '2030-06-03' }), 201);
      expectOk(await req('PATCH', `/api/booking/approve/${made.id}`, host.headers));
      expectOk(await req('PATCH', `/api/booking/${made.id}/cancel`, renter.headers));
      expectOk(await req('POST', `/rent/updateCarRentPrice/${car.id}`.replace('/rent', '/api/rent'), host.headers, { car_rent_price: 777 }));
    });
    expect(written).toEqual([]);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists newest first with paging and filters; only admins may read it', async () => {
    const page = await req('GET', '/api/admin/audit?limit=2', admin.headers);
    const entries = expectOk<AuditEntry[]>(page);
    expect(entries).toHaveLength(2);
    expect(page.json().meta.total).toBe((await rows()).length);
    expect(entries[0]!.admin).toEqual({ id: admin.user.id, username: admin.user.username.toLowerCase() });
    const cars = expectOk<AuditEntry[]>(await req('GET', '/api/admin/audit?target_type=car&limit=50', admin.headers));
    expect(cars.length).toBeGreaterThan(0);
    expect(cars.every((e) => e.target_type === 'car')).toBe(true);
    const settings = expectOk<AuditEntry[]>(await req('GET', '/api/admin/audit?action=settings.changed', admin.headers));
    expect(settings.map((e) => e.action)).toEqual(['settings.changed', 'settings.changed']);
    expectError(await req('GET', '/api/admin/audit', host.headers), 403);
    expectError(await req('GET', '/api/admin/audit', renter.headers), 403);
    expectError(await req('GET', '/api/admin/audit', {}), 401);
    expectError(await req('GET', '/api/admin/audit?target_type=planet', admin.headers), 400);
  });
});
