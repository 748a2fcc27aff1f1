// Sign-in, sessions and sign-out (decisions.md section 2): username or email, case-insensitive;
// 'Invalid credentials'; after 5 failures from one address a growing wait for that address (the
// owner elsewhere is not held back: sign-in-throttling.test.ts); 24 h or 30 days sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse, User } from '@karoo/shared';
import {
  authHeader,
  createUser,
  createTestApp,
  DAY,
  expectError,
  expectOk,
  login,
  loginResponse,
  SECOND,
  TEST_PASSWORD,
  type TestApp,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const me = (token?: string) => t.app.inject({ method: 'GET', url: '/api/user/me', headers: token ? authHeader(token) : {} });

describe('POST /api/user/login', () => {
  it('signs in by username and answers { user, token } without secrets', async () => {
    const user = await createUser(t.ctx);
    const res = await loginResponse(t.app, user.username);
    const data = expectOk<LoginResponse>(res);
    expect(res.json()).toMatchObject({ success: true, message: expect.any(String) });
    expect(data.user).toMatchObject({ id: user.id, username: user.username, role: 'customer' });
    expect(data.token).toMatch(/^[\w-]{40,}$/);
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('$argon2');
  });

  it('accepts the username and the email in any case', async () => {
    const user = await createUser(t.ctx);
    expect((await loginResponse(t.app, user.username.toUpperCase())).statusCode).toBe(200);
    expect((await loginResponse(t.app, user.email)).statusCode).toBe(200);
    expect((await loginResponse(t.app, `  ${user.email.toUpperCase()} `)).statusCode).toBe(200);
  });

  it('stores only a hash of the session token', async () => {
    const user = await createUser(t.ctx);
    const token = await login(t.app, user.username);
    const sessions = await t.db.selectFrom('sessions').select('token_hash').where('user_id', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.token_hash).not.toContain(token);
  });

  it("answers 401 'Invalid credentials' for a wrong password and for an unknown user alike", async () => {
    const user = await createUser(t.ctx);
    const wrong = expectError(await loginResponse(t.app, user.username, 'not-the-password'), 401, 'Invalid credentials');
    const unknown = expectError(await loginResponse(t.app, 'nobody_here', TEST_PASSWORD), 401, 'Invalid credentials');
    expect(wrong).toEqual(unknown);
  });

  it('validates the body with the form messages', async () => {
    const missing = expectError(await t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username: '', password: '' } }), 400);
    expect(missing.errors).toEqual({ username: 'Username or email is required', password: 'Password is required' });
  });

  it('makes the 6th attempt from the same address wait, with 429 saying how long, even with the right password', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) expectError(await loginResponse(t.app, user.username, `wrong-${i}`), 401, 'Invalid credentials');
    const waiting = expectError(await loginResponse(t.app, user.username), 429);
    expect(waiting.message).toBe('Too many failed sign-in attempts. Please try again in 15 seconds.');

    t.clock.advance(5 * SECOND);
    expectError(await loginResponse(t.app, user.email), 429, 'Too many failed sign-in attempts. Please try again in 10 seconds.');
  });

  it('lets the address try again once the wait has passed', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) await loginResponse(t.app, user.username, `wrong-${i}`);
    expectError(await loginResponse(t.app, user.username), 429);

    t.clock.advance(15 * SECOND - 1);
    expectError(await loginResponse(t.app, user.username), 429, /try again in 1 second\./);
    t.clock.advance(1);
    expectOk(await loginResponse(t.app, user.username));
  });

  it('does not make anyone wait after 4 failures, and a success starts the count again', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 4; i++) await loginResponse(t.app, user.username, 'wrong');
    expectOk(await loginResponse(t.app, user.username));
    for (let i = 0; i < 4; i++) expectError(await loginResponse(t.app, user.username, 'wrong'), 401);
    expectOk(await loginResponse(t.app, user.username));
  });

  it('throttles one account from an address, not the other accounts signing in from it', async () => {
    const victim = await createUser(t.ctx);
    const other = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) await loginResponse(t.app, victim.username, 'wrong');
    expectError(await loginResponse(t.app, victim.username), 429);
    expectOk(await loginResponse(t.app, other.username));
  });

  it('throttles guesses at an unknown name too', async () => {
    for (let i = 0; i < 5; i++) expectError(await loginResponse(t.app, 'ghost_user_x', 'wrong'), 401);
    expectError(await loginResponse(t.app, 'ghost_user_x', 'wrong'), 429);
  });
});

describe('session lifetime', () => {
  it('lasts 24 hours without remember me', async () => {
    const user = await createUser(t.ctx);
    const token = await login(t.app, user.username);
    t.clock.advance(DAY - SECOND);
    expect(expectOk<User>(await me(token)).id).toBe(user.id);
    t.clock.advance(SECOND);
    expectError(await me(token), 401, 'Your session has expired. Please sign in again.');
  });

  it('lasts 30 days with remember me', async () => {
    const user = await createUser(t.ctx);
    const token = await login(t.app, user.username, TEST_PASSWORD, { remember: true });
    t.clock.advance(2 * DAY);
    expectOk(await me(token));
    t.clock.advance(28 * DAY - SECOND);
    expectOk(await me(token));
    t.clock.advance(SECOND);
    expectError(await me(token), 401);
  });
});

describe('GET /api/user/me and POST /api/user/logout', () => {
  it('answers the signed-in user', async () => {
    const user = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const data = expectOk<User>(await me(await login(t.app, user.username)));
    expect(data).toMatchObject({ id: user.id, username: user.username, role: 'host', user_type: 'host', verification_status: 'verified' });
    expect(data).not.toHaveProperty('password_hash');
  });

  it('answers 401 without a token, with a malformed header and with an unknown token', async () => {
    expectError(await me(), 401, 'Authentication required. Please sign in.');
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: 'Basic abc' } }), 401);
    expectError(await me('not-a-real-token'), 401);
  });

  it('revokes the token on logout, leaving other sessions alone', async () => {
    const user = await createUser(t.ctx);
    const first = await login(t.app, user.username);
    const second = await login(t.app, user.username);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: authHeader(first) }));
    expectError(await me(first), 401);
    expectOk(await me(second));
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: authHeader(first) }), 401);
  });

  it('refuses logout without a token', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/user/logout' }), 401);
  });
});
