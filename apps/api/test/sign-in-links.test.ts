// The account cap and sign-in links (docs/decisions/030-proxies-and-sign-in-links.md; NIST SP
// 800-63B 5.2.2): at most 100 consecutive wrong passwords are checked for one account, from however
// many addresses, and then password sign-in is refused with an offer of a sign-in link; the link
// (one use, 15 minutes, mailed to the account's address only, stored hashed) gets the owner in
// whatever the throttles say and clears the account's counts. The request answers the same for any
// name and is throttled itself.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_CAP, SIGN_IN_LINKS_PER_ACCOUNT, SIGN_IN_LINK_REQUESTS_PER_ADDRESS } from '../src/modules/users/sign-in-throttling';
import { hashToken } from '../src/lib/tokens';
import {
  authHeader,
  createUser,
  createTestApp,
  expectError,
  expectOk,
  MINUTE,
  TEST_APP_URL,
  TEST_PASSWORD,
  type TestApp,
  type TestUser,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  // A new day for each test, so no window or wait carries over from the one before.
  t.clock.advance(25 * 60 * MINUTE);
});

const OWNER_HOME = '198.51.100.7';
const CAPPED = /^Too many failed sign-in attempts on this account: password sign-in is paused\. Ask for a sign-in link by email to get in\.$/;
const LINK_SENT = 'If an account matches, a sign-in link is on its way to its email address. It works once, within 15 minutes.';
const LINK_INVALID = 'This sign-in link is invalid, already used or expired. Please ask for a new one.';

const signIn = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password }, remoteAddress });
const requestLink = (username: string, remoteAddress = OWNER_HOME) =>
  t.app.inject({ method: 'POST', url: '/api/user/request-sign-in-link', payload: { username }, remoteAddress });
const useLink = (token: string, remoteAddress = OWNER_HOME) =>
  t.app.inject({ method: 'POST', url: '/api/user/sign-in-with-link', payload: { token }, remoteAddress });

/** The token of the newest sign-in link mailed to an address. */
async function mailedLinkToken(email: string): Promise<string> {
  const mail = (await t.outbox.list(email)).find((m) => m.text.includes('/sign-in-link?token='));
  if (!mail) throw new Error(`No sign-in link mailed to ${email}`);
  return decodeURIComponent(/\/sign-in-link\?token=([^\s"'<>&]+)/.exec(mail.text)![1]!);
}

/**
 * Sets a consecutive-failure count as if that many wrong passwords had been checked: the count is
 * what the cap reads, and a hundred password hashes per test would only measure the machine.
 */
async function presetConsecutiveFailures(ref: string, failures: number): Promise<void> {
  const now = t.clock.now();
  await t.db
    .insertInto('sign_in_throttle')
    .values({ key: `consecutive:${ref}`, failures, window_started_at: now, last_failed_at: now, wait_until: new Date(0), prev_wait_until: new Date(0) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ failures }))
    .execute();
}

async function consecutiveFailures(ref: string): Promise<number | undefined> {
  const row = await t.db.selectFrom('sign_in_throttle').select('failures').where('key', '=', `consecutive:${ref}`).executeTakeFirst();
  return row?.failures;
}

/** `count` wrong passwords for one account, each from an address of its own, all at once. */
async function guessFromManyAddresses(username: string, count: number, offset = 0): Promise<number[]> {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) => signIn(username, `guess-${i}`, `198.18.${Math.floor((offset + i) / 250)}.${((offset + i) % 250) + 1}`)),
  );
  return answers.map((res) => res.statusCode);
}

const countOf = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('the account cap (NIST SP 800-63B 5.2.2: at most 100 consecutive failures)', () => {
  it('counts each wrong password, from any address, towards the account', async () => {
    const owner = await createUser(t.ctx);
    expect(await guessFromManyAddresses(owner.username, 3)).toEqual([401, 401, 401]);
    expect(await consecutiveFailures(`user:${owner.id}`)).toBe(3);
  });

  it('checks no more than 100: of 300 wrong passwords sent at once from 300 addresses after 95, 5 are checked; then even the right one is refused, offering a link', async () => {
    const owner = await createUser(t.ctx);
    await presetConsecutiveFailures(`user:${owner.id}`, ACCOUNT_CAP - 5);
    const statuses = await guessFromManyAddresses(owner.username, 300);
    expect(countOf(statuses, 401)).toBe(5);
    expect(countOf(statuses, 429)).toBe(295);
    expect(await consecutiveFailures(`user:${owner.id}`)).toBe(ACCOUNT_CAP);

    // Past the cap no password is checked, from a clean address or after any wait.
    expectError(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME), 429, CAPPED);
    t.clock.advance(24 * 60 * MINUTE);
    expectError(await signIn(owner.username, TEST_PASSWORD, '198.51.100.200'), 429, CAPPED);
    // An unknown name is capped alike: the answers do not tell the two apart.
    await presetConsecutiveFailures('name:nobody_here', ACCOUNT_CAP - 1);
    expect(await guessFromManyAddresses('Nobody_Here', 2, 1000)).toEqual(expect.arrayContaining([401, 429]));
    expectError(await signIn('nobody_here', 'anything', OWNER_HOME), 429, CAPPED);
  });

  it('counts consecutive failures: a success starts the count again', async () => {
    const owner = await createUser(t.ctx);
    await presetConsecutiveFailures(`user:${owner.id}`, ACCOUNT_CAP - 1);
    expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
    expect(await consecutiveFailures(`user:${owner.id}`)).toBeUndefined();
    expectError(await signIn(owner.username, 'typo', OWNER_HOME), 401);
    expect(await consecutiveFailures(`user:${owner.id}`)).toBe(1);
  });

  it('a capped owner gets in by link, which starts the count again', async () => {
    const owner = await createUser(t.ctx);
    await presetConsecutiveFailures(`user:${owner.id}`, ACCOUNT_CAP);
    expectError(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME), 429, CAPPED);

    expectOk(await requestLink(owner.username));
    const session = expectOk<{ token: string; user: { id: string } }>(await useLink(await mailedLinkToken(owner.email)));
    expect(session.user.id).toBe(owner.id);
    expectOk(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: authHeader(session.token) }));
    expect(await consecutiveFailures(`user:${owner.id}`)).toBeUndefined();
    expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
  });

  it('is cleared by a password reset too (the owner proved control of the email)', async () => {
    const owner = await createUser(t.ctx);
    await presetConsecutiveFailures(`user:${owner.id}`, ACCOUNT_CAP);
    expectError(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME), 429, CAPPED);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: owner.email } }));
    const resetToken = await t.outbox.resetToken(owner.email);
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/reset-password', payload: { token: resetToken, newPassword: 'Sunrise42!' } }));
    expectOk(await signIn(owner.username, 'Sunrise42!', OWNER_HOME));
  });
});

describe('sign-in links', () => {
  let owner: TestUser;
  beforeEach(async () => {
    owner = await createUser(t.ctx);
  });

  it('let an owner held out by guesses from her own address in, and clear that throttle', async () => {
    // 40 wrong passwords from the owner's own address (loopback here, as in the report).
    for (let i = 0; i < 40; i++) await signIn(owner.username, `guess-${i}`, '127.0.0.1');
    expectError(await signIn(owner.username, TEST_PASSWORD, '127.0.0.1'), 429, /^Too many failed sign-in attempts\. Please try again in /);

    const asked = await requestLink(owner.username, '127.0.0.1');
    expect(asked.json()).toEqual({ success: true, message: LINK_SENT, data: null });
    const session = expectOk<{ token: string; user: { username: string } }>(await useLink(await mailedLinkToken(owner.email), '127.0.0.1'));
    expect(session.user.username).toBe(owner.username);

    // Signing in by link cleared the account's throttle at that address: the password works again.
    expectOk(await signIn(owner.username, TEST_PASSWORD, '127.0.0.1'));
  });

  it('mail the link to the account\'s address only, and answer the same for a known name, its email and an unknown name', async () => {
    const linkMails = async () => (await t.outbox.list()).filter((m) => m.text.includes('/sign-in-link?token='));
    const before = (await linkMails()).length;
    const byName = await requestLink(owner.username, '203.0.113.66');
    const byEmail = await requestLink(owner.email.toUpperCase(), '203.0.113.66');
    const unknown = await requestLink('nobody_at_all', '203.0.113.66');
    for (const res of [byName, byEmail, unknown]) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, message: LINK_SENT, data: null });
    }

    const mails = await t.outbox.list(owner.email);
    expect(mails).toHaveLength(2);
    expect(mails[0]).toMatchObject({ to: owner.email, subject: 'Your Karoo sign-in link' });
    expect(mails[0]!.text).toContain(`${TEST_APP_URL}/sign-in-link?token=`);
    expect(mails[0]!.text).toMatch(/works once and expires in 15 minutes/);
    expect(mails[0]!.html).toContain('/sign-in-link?token=');
    // Nothing else was mailed: the one who asked learns nothing and gets nothing.
    const sent = (await linkMails()).slice(0, (await linkMails()).length - before);
    expect(sent.map((m) => m.to)).toEqual([owner.email, owner.email]);

    // Stored hashed, never as sent; and a token the attacker makes up signs nobody in.
    const token = await mailedLinkToken(owner.email);
    const stored = await t.db.selectFrom('sign_in_links').selectAll().where('user_id', '=', owner.id).execute();
    expect(stored.map((row) => row.token_hash)).toContain(hashToken(token));
    expect(stored.some((row) => row.token_hash.includes(token))).toBe(false);
    expectError(await useLink('made-up-token-0123456789', '203.0.113.66'), 400, LINK_INVALID);
  });

  it('work once, and using one ends the others', async () => {
    expectOk(await requestLink(owner.username));
    const first = await mailedLinkToken(owner.email);
    expectOk(await requestLink(owner.username));
    const second = await mailedLinkToken(owner.email);
    expect(second).not.toBe(first);

    expectOk(await useLink(second));
    expectError(await useLink(second), 400, LINK_INVALID);
    expectError(await useLink(first), 400, LINK_INVALID);
  });

  it('work once even when used twice at the same moment', async () => {
    expectOk(await requestLink(owner.username));
    const token = await mailedLinkToken(owner.email);
    const answers = await Promise.all([useLink(token), useLink(token), useLink(token)]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('expire 15 minutes after they were mailed (the injected clock)', async () => {
    expectOk(await requestLink(owner.username));
    const early = await mailedLinkToken(owner.email);
    t.clock.advance(15 * MINUTE - 1);
    expectOk(await useLink(early));

    expectOk(await requestLink(owner.username));
    const late = await mailedLinkToken(owner.email);
    t.clock.advance(15 * MINUTE);
    expectError(await useLink(late), 400, LINK_INVALID);
  });

  it('sign in for the standard session, recording the address and browser', async () => {
    expectOk(await requestLink(owner.username));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/user/sign-in-with-link',
      payload: { token: await mailedLinkToken(owner.email) },
      remoteAddress: OWNER_HOME,
      headers: { 'user-agent': 'Mail app browser' },
    });
    const { token } = expectOk<{ token: string }>(res);
    const session = await t.db.selectFrom('sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(session).toMatchObject({ user_id: owner.id, ip: OWNER_HOME, user_agent: 'Mail app browser' });
    expect(new Date(session.expires_at).getTime() - t.clock.now().getTime()).toBe(24 * 60 * MINUTE);
  });

  it('stop working when the account is closed', async () => {
    expectOk(await requestLink(owner.username));
    const token = await mailedLinkToken(owner.email);
    await t.db.updateTable('users').set({ deleted_at: t.clock.now() }).where('id', '=', owner.id).execute();
    expectError(await useLink(token), 400, LINK_INVALID);
  });

  it('are throttled: at most 3 mails per account in any 15 minutes, and 10 requests per address an hour, answered the same', async () => {
    for (let i = 0; i < SIGN_IN_LINKS_PER_ACCOUNT + 2; i++) {
      expect((await requestLink(i % 2 ? owner.email : owner.username, `203.0.113.${i + 1}`)).json().message).toBe(LINK_SENT);
    }
    expect(await t.outbox.list(owner.email)).toHaveLength(SIGN_IN_LINKS_PER_ACCOUNT);
    // Every link refused meanwhile has a live one in the inbox: the window is the link's lifetime.
    t.clock.advance(15 * MINUTE);
    expectOk(await requestLink(owner.username, '203.0.113.200'));
    expect(await t.outbox.list(owner.email)).toHaveLength(SIGN_IN_LINKS_PER_ACCOUNT + 1);

    const sprayer = '203.0.113.250';
    const others = await Promise.all(Array.from({ length: SIGN_IN_LINK_REQUESTS_PER_ADDRESS }, () => createUser(t.ctx)));
    for (const other of others) expectOk(await requestLink(other.username, sprayer));
    const last = await createUser(t.ctx);
    expect((await requestLink(last.username, sprayer)).json().message).toBe(LINK_SENT);
    expect(await t.outbox.list(last.email)).toEqual([]);
  });

  it('validate their bodies with a clear message', async () => {
    expectError(await requestLink(''), 400, 'Username or email is required');
    expectError(await useLink(''), 400, LINK_INVALID);
  });
});
