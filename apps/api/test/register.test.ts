// POST /api/user/register: document 1 section 5 messages, enforced again by the server
// (decisions.md sections 1 and 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@karoo/shared';
import { createTestApp, createUser, expectError, expectOk, loginResponse, testDbKind, uniqueName, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const body = (overrides: Record<string, unknown> = {}) => {
  const username = uniqueName('reg');
  return {
    full_name: 'Naledi Mahlangu',
    email: `${username}@example.co.za`,
    username,
    password: 'secret1',
    terms_accepted: true,
    privacy_accepted: true,
    role: 'user',
    ...overrides,
  };
};

const register = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/user/register', payload: payload as Record<string, unknown> });

describe('POST /api/user/register', () => {
  it('creates a customer pending verification and never returns the password hash', async () => {
    const payload = body();
    const res = await register(payload);
    const user = expectOk<User>(res, 201);
    expect(user).toMatchObject({
      username: payload.username,
      email: payload.email,
      full_name: 'Naledi Mahlangu',
      role: 'customer',
      verification_status: 'pending_verification',
    });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toMatch(/password/i);
    expect(res.body).not.toContain('$argon2');

    const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.terms_accepted_at).not.toBeNull();
    expect(row.privacy_accepted_at).not.toBeNull();
  });

  it('lets the new account sign in', async () => {
    const payload = body();
    expectOk(await register(payload), 201);
    expect((await loginResponse(t.app, payload.username, payload.password)).statusCode).toBe(200);
  });

  it('ignores a requested role: asking for admin still makes a customer', async () => {
    const user = expectOk<User>(await register(body({ role: 'admin', user_type: 'admin', verification_status: 'verified' })), 201);
    expect(user.role).toBe('customer');
    expect(user.user_type).toBeNull();
    expect(user.verification_status).toBe('pending_verification');
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['full name empty', { full_name: '' }, 'full_name', 'Full name is required'],
    ['full name blank', { full_name: '   ' }, 'full_name', 'Full name is required'],
    ['email missing', { email: undefined }, 'email', 'Email is required'],
    ['email malformed', { email: 'naledi.example.co.za' }, 'email', 'Please enter a valid email address'],
    ['username empty', { username: '' }, 'username', 'Username is required'],
    ['username too short', { username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    ['password empty', { password: '' }, 'password', 'Password is required'],
    ['password too short', { password: '12345' }, 'password', 'Password must be at least 6 characters'],
    ['terms not accepted', { terms_accepted: false }, 'terms_accepted', 'You must accept the terms and conditions'],
    ['privacy not accepted', { privacy_accepted: false }, 'privacy_accepted', 'You must accept the privacy policy'],
    ['privacy missing', { privacy_accepted: undefined }, 'privacy_accepted', 'You must accept the privacy policy'],
  ])('refuses %s with 400 and the field message', async (_case, change, field, message) => {
    const error = expectError(await register(body(change)), 400, message);
    expect(error.errors?.[field]).toBe(message);
  });

  it('reports every invalid field in the errors map at once', async () => {
    const error = expectError(await register({ full_name: '', email: 'x', username: 'a', password: '1', terms_accepted: false, privacy_accepted: false }), 400);
    expect(error.errors).toEqual({
      full_name: 'Full name is required',
      email: 'Please enter a valid email address',
      username: 'Username must be at least 3 characters',
      password: 'Password must be at least 6 characters',
      terms_accepted: 'You must accept the terms and conditions',
      privacy_accepted: 'You must accept the privacy policy',
    });
  });

  it.each(['admin', 'SiteAdmin', 'admin_2', 'host_sipho', 'Hostess'])('refuses the reserved username %s', async (username) => {
    const error = expectError(await register(body({ username })), 400, 'This username is reserved');
    expect(error.errors?.username).toBe('This username is reserved');
  });

  it('refuses a username already taken, whatever its case, with 409', async () => {
    const first = body();
    expectOk(await register(first), 201);
    const error = expectError(await register(body({ username: first.username.toUpperCase() })), 409, 'Username is already taken');
    expect(error.errors?.username).toBe('Username is already taken');
  });

  it('refuses an email already registered, whatever its case, with 409', async () => {
    const first = body();
    expectOk(await register(first), 201);
    const error = expectError(await register(body({ email: first.email.toUpperCase() })), 409, 'An account with this email already exists');
    expect(error.errors?.email).toBe('An account with this email already exists');
  });

  it('keeps the username of a deleted account taken', async () => {
    const gone = await createUser(t.ctx, { overrides: { deleted_at: new Date(), email: `${uniqueName('gone')}@deleted.invalid` } });
    expectError(await register(body({ username: gone.username })), 409);
  });
});

describe.skipIf(testDbKind !== 'postgres')('concurrent registrations (PostgreSQL)', () => {
  it('lets exactly one of 10 simultaneous sign-ups for one username through; the rest get 409', async () => {
    const username = uniqueName('race');
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => register(body({ username, email: `${username}.${i}@example.co.za` }))),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of responses.filter((r) => r.statusCode === 409)) expectError(res, 409);
    const rows = await t.db.selectFrom('users').select('id').where('username', '=', username).execute();
    expect(rows).toHaveLength(1);
  });
});
