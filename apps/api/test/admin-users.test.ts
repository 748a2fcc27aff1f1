// The admins' user management (api.md Users, admin rows; decisions.md sections 1-3): verify or
// reject pending users, list and filter, create (pending_upload), delete (never admins), and the
// mail outbox. Non-admins get 403.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification, User, UserWithDocuments } from '@karoo/shared';
import {
  authHeader,
  createSignedInUser,
  createTestApp,
  createUser,
  expectError,
  expectOk,
  login,
  loginResponse,
  TEST_APP_URL,
  uniqueName,
  type TestApp,
} from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
let customer: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const setVerification = (id: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PUT', url: `/api/user/${id}/verification`, headers, payload });
const notificationsOf = async (username: string) =>
  expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: authHeader(await login(t.app, username)) }));

describe('PUT /api/user/{id}/verification', () => {
  it('verifies a pending user, who gets a notification and an email', async () => {
    const target = await createUser(t.ctx, { withDocuments: true });
    const res = await setVerification(target.username, admin.headers, { verification_status: 'verified' });
    expect(expectOk<User>(res).verification_status).toBe('verified');
    expect(res.json().message).toBe('User verified');

    const row = await t.db.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row.verification_status).toBe('verified');
    expect(new Date(row.verified_at!).getTime()).toBe(t.clock.now().getTime());

    const notifications = await notificationsOf(target.username);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ type: 'account_verified', title: 'Account verified', read: false, link: '/dashboard' });

    const mail = await t.outbox.latest(target.email);
    expect(mail).toMatchObject({ to: target.email, subject: 'Account verified' });
    expect(mail!.text).toContain(`${TEST_APP_URL}/dashboard`);
  });

  // Trust before access (issue 18; decisions.md section 12; decision 033).
  it('refuses to verify a user without the required documents (409 naming them); nothing changes', async () => {
    const target = await createUser(t.ctx);
    const res = await setVerification(target.username, admin.headers, { verification_status: 'verified' });
    expectError(res, 409, `@${target.username}: Cannot verify: missing ID Document, Driver's License and Bank Confirmation Letter.`);
    expect(res.json().errors).toEqual({ id_document: 'Not uploaded', driver_license: 'Not uploaded', bank_confirmation_letter: 'Not uploaded' });
    const row = await t.db.selectFrom('users').select(['verification_status', 'verified_at']).where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ verification_status: 'pending_verification', verified_at: null });
    expect(await notificationsOf(target.username)).toEqual([]);
  });

  it('names only the missing one; proof of address is not required', async () => {
    const target = await createUser(t.ctx, { withDocuments: ['id_document', 'bank_confirmation_letter', 'proof_of_address'] });
    expectError(await setVerification(target.id, admin.headers, { verification_status: 'verified' }), 409, `@${target.username}: Cannot verify: missing Driver's License.`);
    const complete = await createUser(t.ctx, { withDocuments: ['id_document', 'driver_license', 'bank_confirmation_letter'] });
    expect(expectOk<User>(await setVerification(complete.id, admin.headers, { verification_status: 'verified' })).verification_status).toBe('verified');
  });

  it('rejects a pending user with notes, which reach the user', async () => {
    const target = await createUser(t.ctx);
    const data = expectOk<User>(await setVerification(target.id, admin.headers, { verification_status: 'rejected', notes: 'The ID photo is blurry' }));
    expect(data).toMatchObject({ verification_status: 'rejected', verification_notes: 'The ID photo is blurry' });
    const [notification] = await notificationsOf(target.username);
    expect(notification).toMatchObject({ type: 'account_rejected', title: 'Verification rejected' });
    expect(notification!.message).toContain('The ID photo is blurry');
    expect((await t.outbox.latest(target.email))?.text).toContain('The ID photo is blurry');
  });

  it.each(['verified', 'rejected', 'pending_upload'] as const)('answers 409 for a user who is %s, not pending', async (status) => {
    const target = await createUser(t.ctx, { verification_status: status });
    expectError(await setVerification(target.id, admin.headers, { verification_status: 'verified' }), 409);
    const row = await t.db.selectFrom('users').select('verification_status').where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row.verification_status).toBe(status);
  });

  it('is for admins only (403), and needs a sign-in (401)', async () => {
    const target = await createUser(t.ctx);
    expectError(await setVerification(target.id, customer.headers, { verification_status: 'verified' }), 403);
    expectError(await setVerification(customer.user.id, customer.headers, { verification_status: 'verified' }), 403);
    expectError(await setVerification(target.id, {}, { verification_status: 'verified' }), 401);
    const row = await t.db.selectFrom('users').select('verification_status').where('id', '=', target.id).executeTakeFirstOrThrow();
    expect(row.verification_status).toBe('pending_verification');
  });

  it('refuses a status other than verified or rejected (400)', async () => {
    const target = await createUser(t.ctx);
    expectError(await setVerification(target.id, admin.headers, { verification_status: 'approved' }), 400, 'Verification status must be verified or rejected');
    expectError(await setVerification(target.id, admin.headers, {}), 400);
  });

  it('answers 404 for an unknown user', async () => {
    expectError(await setVerification('nobody_at_all', admin.headers, { verification_status: 'verified' }), 404);
  });
});

describe('GET /api/user/getList', () => {
  it('lists users with documents for admins, and refuses customers (403)', async () => {
    const users = expectOk<UserWithDocuments[]>(await t.app.inject({ method: 'GET', url: '/api/user/getList', headers: admin.headers }));
    expect(users.map((u) => u.id)).toContain(customer.user.id);
    expect(users[0]).toHaveProperty('documents');
    expect(JSON.stringify(users)).not.toContain('password_hash');
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/getList', headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/getList' }), 401);
  });

  it('filters by search (name, username or email, case-insensitive), status and role', async () => {
    const tag = uniqueName('zq');
    const a = await createUser(t.ctx, { full_name: `Anele ${tag.toUpperCase()}`, verification_status: 'verified' });
    const b = await createUser(t.ctx, { username: `${tag}_b`, verification_status: 'pending_verification' });
    const c = await createUser(t.ctx, { email: `${tag}.c@example.co.za`, role: 'host', verification_status: 'verified' });
    await createUser(t.ctx, { full_name: 'Unrelated Person' });

    const list = async (query: string) =>
      expectOk<UserWithDocuments[]>(await t.app.inject({ method: 'GET', url: `/api/user/getList?${query}`, headers: admin.headers }))
        .map((u) => u.id)
        .sort();
    expect(await list(`search=${tag}`)).toEqual([a.id, b.id, c.id].sort());
    expect(await list(`search=${tag}&status=verified`)).toEqual([a.id, c.id].sort());
    expect(await list(`search=${tag}&role=host`)).toEqual([c.id]);
    expect(await list(`search=${tag}&status=rejected`)).toEqual([]);
    expect(await list('search=%25')).toEqual([]);
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/getList?status=bogus', headers: admin.headers }), 400);
  });
});

describe('POST /api/user/create', () => {
  const payload = () => {
    const username = uniqueName('made');
    return { username, email: `${username}@example.co.za`, name: 'Made By Admin', phone_number: '+27 82 555 4321', address: '7 Main Rd', password: 'secret1' };
  };

  it('creates a customer in pending_upload (201) who can sign in', async () => {
    const body = payload();
    const created = expectOk<User>(await t.app.inject({ method: 'POST', url: '/api/user/create', headers: admin.headers, payload: body }), 201);
    expect(created).toMatchObject({ username: body.username, full_name: 'Made By Admin', role: 'customer', verification_status: 'pending_upload', phone_number: '+27 82 555 4321' });
    expectOk(await loginResponse(t.app, body.username, 'secret1'));
  });

  it('refuses customers (403), taken usernames (409) and invalid bodies (400)', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/create', headers: customer.headers, payload: payload() }), 403);
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/create', headers: admin.headers, payload: { ...payload(), username: customer.user.username } }), 409);
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/create', headers: admin.headers, payload: { ...payload(), email: customer.user.email } }), 409);
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/create', headers: admin.headers, payload: { ...payload(), password: '123' } }), 400, 'Password must be at least 6 characters');
  });
});

describe('DELETE /api/user/delete/{id}', () => {
  it('deletes a customer: sessions end, sign-in fails, the record is gone (404) and personal data is removed', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx, { withDocuments: true });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${user.username}`, headers: admin.headers });
    expectOk(res);

    expectError(await loginResponse(t.app, user.username), 401, 'Invalid credentials');
    expectError(await loginResponse(t.app, user.email), 401, 'Invalid credentials');
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/me', headers }), 401);
    expectError(await t.app.inject({ method: 'GET', url: `/api/user/get/${user.id}`, headers: admin.headers }), 404);
    const listed = expectOk<User[]>(await t.app.inject({ method: 'GET', url: '/api/user/getList', headers: admin.headers }));
    expect(listed.map((u) => u.id)).not.toContain(user.id);

    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(row).toMatchObject({ phone_number: null, address: null, bank_account_number: null, bank_code: null });
    expect(row.email).not.toBe(user.email);

    expectError(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${user.id}`, headers: admin.headers }), 404);
  });

  it('frees the email of a deleted account for a new sign-up', async () => {
    const gone = await createUser(t.ctx);
    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${gone.id}`, headers: admin.headers }));
    const username = uniqueName('again');
    expectOk(
      await t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { full_name: 'Again', email: gone.email, username, password: 'secret1', terms_accepted: true, privacy_accepted: true },
      }),
      201,
    );
  });

  it('refuses to delete an admin (403) and refuses non-admins (403)', async () => {
    const otherAdmin = await createUser(t.ctx, { role: 'admin', verification_status: 'verified' });
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${otherAdmin.id}`, headers: admin.headers }), 403);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${admin.user.id}`, headers: admin.headers }), 403);
    const victim = await createUser(t.ctx);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${victim.id}`, headers: customer.headers }), 403);
    expectOk(await loginResponse(t.app, victim.username));
  });
});

describe('deleting a user works like deleting each of their cars (decisions.md section 4), and erases them (decision 050)', () => {
  // Dates of their own, on the test clock; the admin signs in again on it (sessions follow the clock).
  const NOW = '2030-05-06T08:00:00Z';
  let started: Date;
  let admin: Awaited<ReturnType<typeof createSignedInUser>>;
  beforeAll(async () => {
    started = t.clock.now();
    t.clock.set(NOW);
    admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  });
  afterAll(() => t.clock.set(started));

  it('a host: their cars leave browse and cannot be booked; unpaid bookings are cancelled and renters told; paid records stay', async () => {
    const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host);
    const other = await createTestCar(t.ctx, host);
    const pending = await createTestBooking(t.ctx, car, renter.user, { start: '2030-06-01', days: 2 });
    const confirmed = await createTestBooking(t.ctx, other, renter.user, { start: '2030-06-10', days: 1, status: 'confirmed' });
    const completed = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-01', days: 3, status: 'completed' });
    const listed = async () =>
      expectOk<{ car_username: string }[]>(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?owner=${host.username}&limit=48` })).map((c) => c.car_username);
    expect(await listed()).toEqual(expect.arrayContaining([car.car_username, other.car_username]));

    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${host.username}`, headers: admin.headers }));

    expect(await listed()).toEqual([]);
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }), 404);
    const booking = await t.app.inject({
      method: 'POST',
      url: '/api/booking/create',
      headers: renter.headers,
      payload: { car_username: car.car_username, start_date: '2030-07-01', end_date: '2030-07-03' },
    });
    expectError(booking, 404, 'Car not found');

    const statuses = await t.db.selectFrom('bookings').select(['id', 'status', 'host_response']).where('id', 'in', [pending.id, confirmed.id, completed.id]).execute();
    const byId = new Map(statuses.map((b) => [b.id, b]));
    expect(byId.get(pending.id)).toMatchObject({ status: 'cancelled', host_response: 'Cancelled because the car was removed from Karoo' });
    expect(byId.get(confirmed.id)?.status).toBe('cancelled');
    expect(byId.get(completed.id)?.status).toBe('completed');
    const told = (await notificationsOf(renter.user.username)).filter((n) => n.title === 'Booking cancelled');
    expect(told).toHaveLength(2);
    expect(told.map((n) => n.message).join(' ')).toContain('01 Jun 2030 to 03 Jun 2030');

    const row = await t.db.selectFrom('users').selectAll().where('id', '=', host.id).executeTakeFirstOrThrow();
    // Erased as if they had deleted it themselves (decision 050): nothing names them.
    expect(row).toMatchObject({ full_name: 'Former member', username: expect.stringMatching(/^former_/), phone_number: null, address: null, id_number: null, bank_account_number: null, bank_code: null });
    expect(row.deleted_at).not.toBeNull();
    const confirmation = await t.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', host.email).executeTakeFirstOrThrow();
    expect(confirmation.subject).toBe('Your Karoo account has been deleted');
    expect(confirmation.text_body).toContain('by a Karoo administrator');
  });

  it('is refused while a trip is under way in one of their cars, or as a renter, and changes nothing', async () => {
    const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createUser(t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host);
    const spare = await createTestCar(t.ctx, host);
    const waiting = await createTestBooking(t.ctx, spare, renter, { start: '2030-06-01', days: 2 });
    const active = await createTestBooking(t.ctx, car, renter, { start: '2030-05-05', days: 3, status: 'active' });

    const refused = await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${host.username}`, headers: admin.headers });
    expectError(refused, 409);
    expect(refused.json().message).toMatch(/^This account cannot be deleted yet\. A paid trip in their car \(booking .+\) is under way or still to come/);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${renter.username}`, headers: admin.headers }), 409);
    const cars = await t.db.selectFrom('cars').select('deleted_at').where('owner_id', '=', host.id).execute();
    expect(cars.every((c) => c.deleted_at === null)).toBe(true);
    expect((await t.db.selectFrom('bookings').select('status').where('id', '=', waiting.id).executeTakeFirstOrThrow()).status).toBe('pending');

    await t.db.updateTable('bookings').set({ status: 'completed' }).where('id', '=', active.id).execute();
    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${host.username}`, headers: admin.headers }));
  });

  it('a renter: their unpaid requests are cancelled and the hosts told; the dates are free again', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createUser(t.ctx, { verification_status: 'verified', full_name: 'Thandi Mokoena' });
    const car = await createTestCar(t.ctx, host.user);
    const request = await createTestBooking(t.ctx, car, renter, { start: '2030-06-01', days: 2 });

    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/user/delete/${renter.username}`, headers: admin.headers }));

    expect((await t.db.selectFrom('bookings').select('status').where('id', '=', request.id).executeTakeFirstOrThrow()).status).toBe('cancelled');
    const note = (await notificationsOf(host.user.username)).find((n) => n.title === 'Booking cancelled');
    // The host is told, and the erasure has taken the renter's name out of the notice too.
    expect(note?.message).toContain('Former member');
    expect(note?.message).not.toContain('Thandi Mokoena');
    const held = expectOk<unknown[]>(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/availability` }));
    expect(held).toEqual([]);
  });
});

describe('GET /api/admin/outbox', () => {
  it('shows admins the mail, newest first, and can filter by address', async () => {
    const target = await createUser(t.ctx);
    await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: target.email } });
    const mails = expectOk<{ to: string; subject: string; text: string }[]>(
      await t.app.inject({ method: 'GET', url: `/api/admin/outbox?to=${encodeURIComponent(target.email)}`, headers: admin.headers }),
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: target.email, subject: 'Reset your Karoo password', transport: 'outbox' });
    expect(mails[0]!.text).toContain('/reset-password?token=');
  });

  it('is for admins only', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/outbox', headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/outbox' }), 401);
  });
});
