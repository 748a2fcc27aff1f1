// Forgot and reset password (document 1 sections 5 and 8; decisions.md section 2): the same answer
// for unknown and throttled addresses, a mailed single-use link that expires in 1 hour, at most 3
// mails per email and 10 requests per source address in any hour (docs/decisions/023), links
// already mailed working throughout, and a reset that signs the user out everywhere and kills
// every other link.
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

const forgot = (email: string, remoteAddress?: string) =>
  t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email }, ...(remoteAddress ? { remoteAddress } : {}) });
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

  it('answers known, unknown and throttled emails identically, and mails at most 3 per email in an hour', async () => {
    const user = await createUser(t.ctx);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await forgot(i === 1 ? user.email.toUpperCase() : user.email));
    for (let i = 0; i < 6; i++) answers.push(await forgot('unknown.six.times@example.co.za'));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: SENT, data: null });
    }
    expect(await t.outbox.list(user.email)).toHaveLength(3);
    expect(await t.outbox.list('unknown.six.times@example.co.za')).toEqual([]);

    // Other emails are not affected, known or not.
    const other = await createUser(t.ctx);
    expectOk(await forgot(other.email));
    expect(await t.outbox.list(other.email)).toHaveLength(1);
  });

  it('counts any hour, not a fixed window: a mail again as soon as the oldest of the 3 is an hour old', async () => {
    const user = await createUser(t.ctx);
    expectOk(await forgot(user.email));
    t.clock.advance(20 * MINUTE);
    expectOk(await forgot(user.email));
    t.clock.advance(20 * MINUTE);
    expectOk(await forgot(user.email));
    t.clock.advance(10 * MINUTE);
    expectOk(await forgot(user.email));
    expect(await t.outbox.list(user.email)).toHaveLength(3);

    t.clock.advance(10 * MINUTE); // the first mail is exactly an hour old
    expectOk(await forgot(user.email));
    expect(await t.outbox.list(user.email)).toHaveLength(4);
    expectOk(await forgot(user.email)); // the next two are 40 and 20 minutes old
    expect(await t.outbox.list(user.email)).toHaveLength(4);
    t.clock.advance(20 * MINUTE + SECOND);
    expectOk(await forgot(user.email));
    expect(await t.outbox.list(user.email)).toHaveLength(5);
  });

  it('never mails more than 3 for concurrent requests', async () => {
    const user = await createUser(t.ctx);
    const answers = await Promise.all(Array.from({ length: 8 }, () => forgot(user.email)));
    for (const res of answers) expect(res.json()).toEqual({ success: true, message: SENT, data: null });
    expect(await t.outbox.list(user.email)).toHaveLength(3);
  });

  it('grants one source address 10 requests an hour whatever the email, answering the same past them', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser(t.ctx)));
    const address = '198.51.100.23';
    for (const user of users.slice(0, 10)) expectOk(await forgot(user.email, address));
    const refused = await forgot(users[10]!.email, address);
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toEqual({ success: true, message: SENT, data: null });
    expect(await t.outbox.list(users[10]!.email)).toEqual([]);
    // The same email from another address, and any email from a neighbour, still get their mail.
    expectOk(await forgot(users[10]!.email, '198.51.100.24'));
    expect(await t.outbox.list(users[10]!.email)).toHaveLength(1);
    t.clock.advance(HOUR);
    expectOk(await forgot(users[11]!.email, address));
    expect(await t.outbox.list(users[11]!.email)).toHaveLength(1);
  });

  it('never stops a link already mailed from working while the email is throttled', async () => {
    const user = await createUser(t.ctx);
    const first = await requestToken(user.email);
    expectOk(await forgot(user.email));
    expectOk(await forgot(user.email));
    for (let i = 0; i < 5; i++) expectOk(await forgot(user.email));
    expect(await t.outbox.list(user.email)).toHaveLength(3);

    expectOk(await verify(first));
    expectOk(await reset(first, NEW_PASSWORD));
    expectOk(await loginResponse(t.app, user.username, NEW_PASSWORD));
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

  it('ends the wait of the address that reset, since the owner proved control of the email', async () => {
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
