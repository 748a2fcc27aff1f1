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
