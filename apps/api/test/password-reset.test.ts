// Forgot and reset password (document 1 sections 5 and 8; decisions.md section 2): same answer
// for unknown addresses, a mailed single-use link that expires in 1 hour, 3 requests per address
// per hour, and a reset that signs the user out everywhere and kills every other link.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authHeader,
  createUser,
  createTestApp,
  expectError,
  expectOk,
  HOUR,
  login,
  loginResponse,
  MINUTE,
  SECOND,
  TEST_APP_URL,
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

const SENT = 'If an account with that email exists, a password reset link has been sent to your email.';
const INVALID_LINK = 'This reset link is invalid or has expired. Please request a new one.';
const NEW_PASSWORD = 'Sunrise42!';

const forgot = (email: string) => t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email } });
const verify = (token: string) => t.app.inject({ method: 'GET', url: `/api/user/verify-reset-token/${encodeURIComponent(token)}` });
const reset = (token: string, newPassword: string) =>
  t.app.inject({ method: 'POST', url: '/api/user/reset-password', payload: { token, newPassword } });

async function requestToken(email: string): Promise<string> {
  expectOk(await forgot(email));
  return t.outbox.resetToken(email);
}

describe('POST /api/user/forgot-password', () => {
  it('mails a reset link to a known address', async () => {
    const user = await createUser(t.ctx);
    const res = await forgot(user.email.toUpperCase());
    expectOk(res);
    expect(res.json().message).toBe(SENT);

    const mails = await t.outbox.list(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: user.email, subject: 'Reset your Karoo password', transport: 'outbox' });
    expect(mails[0]!.text).toContain(`${TEST_APP_URL}/reset-password?token=`);
    expect(mails[0]!.text).toMatch(/expires in 1 hour/);
    expect(mails[0]!.html).toContain('/reset-password?token=');
    const token = await t.outbox.resetToken(user.email);
    expect(token.length).toBeGreaterThanOrEqual(40);

    const stored = await t.db.selectFrom('password_reset_tokens').selectAll().where('user_id', '=', user.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).not.toContain(token);
    expect(new Date(stored[0]!.expires_at).getTime()).toBe(t.clock.now().getTime() + HOUR);
  });

  it('answers an unknown address exactly like a known one, and mails nothing', async () => {
    const user = await createUser(t.ctx);
    const known = await forgot(user.email);
    const unknown = await forgot('nobody.at.all@example.co.za');
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(await t.outbox.list('nobody.at.all@example.co.za')).toEqual([]);
  });

  it('validates the email with the form messages', async () => {
    expectError(await forgot(''), 400, 'Email is required');
    expectError(await forgot('not-an-email'), 400, 'Please enter a valid email address');
  });

  it('refuses a 4th request for one address within the hour with 429, whatever the case', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 3; i++) expectOk(await forgot(i === 1 ? user.email.toUpperCase() : user.email));
    const refused = expectError(await forgot(user.email), 429);
    expect(refused.message).toMatch(/try again in \d+ minutes?/i);
    expect(await t.outbox.list(user.email)).toHaveLength(3);

    // Other addresses are not affected, known or not.
    expectOk(await forgot((await createUser(t.ctx)).email));
  });

  it('throttles unknown addresses the same way, so the 429 reveals nothing', async () => {
    for (let i = 0; i < 3; i++) expectOk(await forgot('unknown.thrice@example.co.za'));
    expectError(await forgot('unknown.thrice@example.co.za'), 429);
  });

  it('accepts requests again once the hour has passed', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 3; i++) expectOk(await forgot(user.email));
    expectError(await forgot(user.email), 429);
    t.clock.advance(30 * MINUTE);
    expectError(await forgot(user.email), 429);
    t.clock.advance(30 * MINUTE + SECOND);
    expectOk(await forgot(user.email));
  });
});

describe('GET /api/user/verify-reset-token/{token}', () => {
  it('accepts a fresh link and refuses garbage with 400', async () => {
    const user = await createUser(t.ctx);
    const token = await requestToken(user.email);
    expect(expectOk(await verify(token))).toBeNull();
    expectError(await verify('garbage-token'), 400, INVALID_LINK);
  });

  it('refuses a link after 1 hour', async () => {
    const user = await createUser(t.ctx);
    const token = await requestToken(user.email);
    t.clock.advance(HOUR - SECOND);
    expectOk(await verify(token));
    t.clock.advance(SECOND);
    expectError(await verify(token), 400, INVALID_LINK);
    expectError(await reset(token, NEW_PASSWORD), 400, INVALID_LINK);
  });
});

describe('POST /api/user/reset-password', () => {
  it.each<[string, string, string]>([
    ['empty', '', 'Password is required'],
    ['7 characters', 'Abcde12', 'Password must be at least 8 characters long'],
    ['no number', 'Abcdefghij', 'Password must contain at least one letter and one number'],
    ['no letter', '1234567890', 'Password must contain at least one letter and one number'],
    ['common', 'Password123', 'Password is too common. Please choose a stronger password.'],
    ['common in capitals', 'PASSWORD123', 'Password is too common. Please choose a stronger password.'],
  ])('refuses a new password that is %s with 400 and the rule message', async (_case, newPassword, message) => {
    const error = expectError(await reset('any-token', newPassword), 400, message);
    expect(error.errors?.newPassword).toBe(message);
  });

  it('refuses a request without a token', async () => {
    expectError(
      await t.app.inject({ method: 'POST', url: '/api/user/reset-password', payload: { newPassword: NEW_PASSWORD } }),
      400,
      'No reset token provided. Please request a new password reset.',
    );
  });

  it('sets the new password: the old one fails, the new one works, and the link works only once', async () => {
    const user = await createUser(t.ctx);
    const token = await requestToken(user.email);
    const res = await reset(token, NEW_PASSWORD);
    expectOk(res);
    expect(res.json().message).toMatch(/other reset links were invalidated/i);

    expectError(await loginResponse(t.app, user.username, TEST_PASSWORD), 401, 'Invalid credentials');
    expectOk(await loginResponse(t.app, user.username, NEW_PASSWORD));

    expectError(await verify(token), 400, INVALID_LINK);
    expectError(await reset(token, 'Another42!'), 400, INVALID_LINK);
    expectOk(await loginResponse(t.app, user.username, NEW_PASSWORD));
  });

  it('invalidates every other link of the user, including one issued earlier', async () => {
    const user = await createUser(t.ctx);
    const earlier = await requestToken(user.email);
    const later = await requestToken(user.email);
    expect(later).not.toBe(earlier);
    expectOk(await verify(earlier));

    expectOk(await reset(later, NEW_PASSWORD));
    expectError(await verify(earlier), 400, INVALID_LINK);
    expectError(await reset(earlier, 'Another42!'), 400, INVALID_LINK);
    expectOk(await loginResponse(t.app, user.username, NEW_PASSWORD));
  });

  it('signs the user out everywhere', async () => {
    const user = await createUser(t.ctx);
    const phone = await login(t.app, user.username);
    const laptop = await login(t.app, user.username, TEST_PASSWORD, { remember: true });
    const token = await requestToken(user.email);
    expectOk(await reset(token, NEW_PASSWORD));
    for (const session of [phone, laptop]) {
      expectError(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: authHeader(session) }), 401);
    }
  });

  it('lifts a sign-in lock, since the owner proved control of the email', async () => {
    const user = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) await loginResponse(t.app, user.username, 'wrong');
    expectError(await loginResponse(t.app, user.username), 429);
    expectOk(await reset(await requestToken(user.email), NEW_PASSWORD));
    expectOk(await loginResponse(t.app, user.username, NEW_PASSWORD));
  });

  it('refuses an expired link', async () => {
    const user = await createUser(t.ctx);
    const token = await requestToken(user.email);
    t.clock.advance(HOUR);
    expectError(await reset(token, NEW_PASSWORD), 400, INVALID_LINK);
    expectOk(await loginResponse(t.app, user.username, TEST_PASSWORD));
  });
});
