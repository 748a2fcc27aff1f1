// Sign-in throttling that cannot lock the owner out (docs/decisions/023-sign-in-throttling.md;
// decisions.md section 2; NIST SP 800-63B 5.2.2): counted per account and source address together,
// a growing wait instead of a lock, a cap per address across accounts and a per-account cap that
// only slows addresses that already failed. Addresses here are public documentation ranges
// (loopback and private addresses are not capped per address).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { describeWait, isPrivateSource, sourceOf, waitAfter, PAIR_RULE } from '../src/modules/users/sign-in-throttling';
import { countSignInAttempt } from '../src/modules/users/users.repository';
import { createTestApp, createUser, expectError, expectOk, MINUTE, SECOND, TEST_PASSWORD, type TestApp } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  // A new hour for each test, so no address cap carries over from the one before.
  t.clock.advance(2 * 60 * MINUTE);
});

const ATTACKER = '203.0.113.66';
const OWNER_HOME = '198.51.100.7';

const signIn = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password }, remoteAddress });

/** The wait a 429 announces, in milliseconds. */
function announcedWait(message: string): number {
  const match = /Please try again in (\d+) (second|minute)s?\.$/.exec(message);
  if (!match) throw new Error(`No wait in: ${message}`);
  return Number(match[1]) * (match[2] === 'second' ? SECOND : MINUTE);
}

describe('a stranger guessing from one address', () => {
  it("never stops the owner signing in from another address, and waits longer and longer (50 guesses)", async () => {
    const owner = await createUser(t.ctx);
    const waits: number[] = [];
    for (let guess = 1; guess <= 50; guess++) {
      const res = await signIn(owner.username, `guess-${guess}`, ATTACKER);
      if (guess <= PAIR_RULE.free) {
        expectError(res, 401, 'Invalid credentials');
        continue;
      }
      // Every guess past the free ones must first wait; one millisecond early is still too early.
      const wait = announcedWait(expectError(res, 429, /^Too many failed sign-in attempts\. Please try again in /).message);
      waits.push(wait);
      t.clock.advance(wait - 1);
      expectError(await signIn(owner.username, TEST_PASSWORD, ATTACKER), 429);
      t.clock.advance(1);
      expectError(await signIn(owner.username, `guess-${guess}`, ATTACKER), 401, 'Invalid credentials');

      if (guess % 10 === 0) expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
    }

    // 15 s, 30 s, 1, 2, 4, 8 minutes, then 15 minutes for every further guess: it grows, it is capped.
    expect(waits.slice(0, 7)).toEqual([15 * SECOND, 30 * SECOND, MINUTE, 2 * MINUTE, 4 * MINUTE, 8 * MINUTE, 15 * MINUTE]);
    expect(waits.slice(7).every((wait) => wait === 15 * MINUTE)).toBe(true);

    // The owner, first try, from home: the right password works at once.
    const data = expectOk<{ token: string }>(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
    expect(data.token).toBeTruthy();
    // And the stranger is still made to wait.
    expectError(await signIn(owner.username, TEST_PASSWORD, ATTACKER), 429);
  }, 120_000); // 50 sign-ins, each a password hash: past 20 s on a loaded machine under faketime (a ceiling for a hang).

  it('refuses a burst of concurrent guesses past the free ones: each is checked against the others', async () => {
    const owner = await createUser(t.ctx);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => signIn(owner.username, `burst-${i}`, ATTACKER)));
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(PAIR_RULE.free);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - PAIR_RULE.free);
    expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
  });

  it('lets parallel attempts through in whatever order they reach the row (a double-clicked Sign in)', async () => {
    // Parallel attempts take their "now" before they queue on the row's lock: the one that counts
    // second may carry the earlier time. A new key must not look as if it had to wait until the first.
    const key = `pair:parallel:${ATTACKER}`;
    const first = t.clock.now();
    const earlier = new Date(first.getTime() - 5);
    expect(await countSignInAttempt(t.db, key, first, PAIR_RULE.windowMs, true)).toBeDefined();
    expect(await countSignInAttempt(t.db, key, earlier, PAIR_RULE.windowMs, true)).toMatchObject({ failures: 2 });
    // And through the API: five parallel right passwords from one address all sign in.
    const owner = await createUser(t.ctx);
    const answers = await Promise.all(Array.from({ length: 5 }, () => signIn(owner.username, TEST_PASSWORD, OWNER_HOME)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
  });

  it('forgets the failures of an address when the owner signs in from it', async () => {
    const owner = await createUser(t.ctx);
    for (let i = 0; i < 5; i++) expectError(await signIn(owner.username, 'typo', OWNER_HOME), 401);
    expectError(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME), 429, 'Too many failed sign-in attempts. Please try again in 15 seconds.');
    t.clock.advance(15 * SECOND);
    expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));
    // Five more typos are free again, and the next wait starts over at 15 seconds.
    for (let i = 0; i < 5; i++) expectError(await signIn(owner.username, 'typo', OWNER_HOME), 401);
    expectError(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME), 429, /in 15 seconds\.$/);
  });

  it('counts one IPv6 /64 as one address, and an IPv4-mapped address as the IPv4 one', async () => {
    const owner = await createUser(t.ctx);
    for (let i = 1; i <= 5; i++) expectError(await signIn(owner.username, 'wrong', `2001:db8:aa:bb::${i}`), 401);
    expectError(await signIn(owner.username, 'wrong', '2001:db8:aa:bb:ffff::1'), 429);
    expectOk(await signIn(owner.username, TEST_PASSWORD, '2001:db8:aa:cc::1'));

    for (let i = 0; i < 5; i++) expectError(await signIn(owner.username, 'wrong', '::ffff:203.0.113.9'), 401);
    expectError(await signIn(owner.username, 'wrong', '203.0.113.9'), 429);
  });
});

describe('one address across many accounts (credential stuffing)', () => {
  it('slows every sign-in from the address past 30 failures an hour, and no other address', async () => {
    const stuffer = '203.0.113.200';
    const victim = await createUser(t.ctx);
    for (let i = 0; i < 30; i++) expectError(await signIn(`leaked_${i}@example.co.za`, 'leaked-password', stuffer), 401, 'Invalid credentials');

    // Even a right password (a hit in the leaked list) from that address waits now.
    const refused = expectError(await signIn(victim.username, TEST_PASSWORD, stuffer), 429);
    expect(refused.message).toBe('Too many failed sign-in attempts from your network. Please try again in 15 seconds.');
    expectOk(await signIn(victim.username, TEST_PASSWORD, OWNER_HOME));

    // The wait grows with each further failure, and passes.
    t.clock.advance(15 * SECOND);
    expectError(await signIn('leaked_31@example.co.za', 'leaked-password', stuffer), 401);
    expectError(await signIn(victim.username, TEST_PASSWORD, stuffer), 429, /from your network\. Please try again in 30 seconds\.$/);
    t.clock.advance(30 * SECOND);
    expectOk(await signIn(victim.username, TEST_PASSWORD, stuffer));
    // A success takes back its own attempt (and the wait it would have started), nothing more.
    expectOk(await signIn(victim.username, TEST_PASSWORD, stuffer));
    expectError(await signIn('leaked_32@example.co.za', 'leaked-password', stuffer), 401);
    expectError(await signIn(victim.username, TEST_PASSWORD, stuffer), 429, /from your network\. Please try again in 1 minute\.$/);
  });

  it('does not cap a loopback or private address (a proxy TRUST_PROXY does not name would be everyone)', async () => {
    for (let i = 0; i < 40; i++) expectError(await signIn(`nobody_${i}`, 'wrong', '10.0.0.5'), 401);
    const user = await createUser(t.ctx);
    expectOk(await signIn(user.username, TEST_PASSWORD, '10.0.0.5'));
  });
});

describe('one account from many addresses', () => {
  const address = (i: number) => `192.0.2.${i}`;

  it('past 20 failures, slows the addresses that failed, never the owner on a clean one', async () => {
    const owner = await createUser(t.ctx);
    for (let i = 1; i <= 19; i++) expectError(await signIn(owner.username, 'spread', address(i)), 401);
    // One failure per address is free of the pair rule; the 20th failure on the account is not.
    expectError(await signIn(owner.username, 'spread', address(20)), 401);
    expectError(await signIn(owner.username, 'spread', address(20)), 429, /in 15 seconds\.$/);
    expectError(await signIn(owner.username, 'spread', address(21)), 401);
    expectError(await signIn(owner.username, 'spread', address(21)), 429, /in 30 seconds\.$/);

    // The owner from a clean address: first try, even while the account is this hot.
    expectOk(await signIn(owner.username, TEST_PASSWORD, OWNER_HOME));

    // Heat it further: the wait for a failing address reaches 15 minutes and goes no higher.
    for (let i = 22; i <= 60; i++) expectError(await signIn(owner.username, 'spread', address(i)), 401);
    expectError(await signIn(owner.username, 'spread', address(60)), 429, /in 15 minutes\.$/);
    expectOk(await signIn(owner.username, TEST_PASSWORD, '198.51.100.99'));

    // Slowed, never locked: once its wait has passed, even a failing address may sign in.
    t.clock.advance(15 * MINUTE);
    expectOk(await signIn(owner.username, TEST_PASSWORD, address(60)));
  });
});

describe('the rules', () => {
  it('waits nothing for the free failures, then doubles to the cap', () => {
    expect([1, 4, 5, 6, 7, 11, 12, 1000].map((n) => waitAfter(PAIR_RULE, n))).toEqual([
      0,
      0,
      15 * SECOND,
      30 * SECOND,
      MINUTE,
      15 * MINUTE,
      15 * MINUTE,
      15 * MINUTE,
    ]);
  });

  it('says a wait in seconds below a minute, else in minutes rounded up', () => {
    expect([1, 999, 1000, 15_000, 59_001, 60_000, 61_000, 15 * MINUTE].map(describeWait)).toEqual([
      '1 second',
      '1 second',
      '1 second',
      '15 seconds',
      '1 minute',
      '1 minute',
      '2 minutes',
      '15 minutes',
    ]);
  });

  it('reads the source address', () => {
    expect(sourceOf('203.0.113.5')).toBe('203.0.113.5');
    expect(sourceOf('::ffff:203.0.113.5')).toBe('203.0.113.5');
    expect(sourceOf('2001:DB8:0:1:2:3:4:5')).toBe('2001:db8:0:1::/64');
    expect(sourceOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(sourceOf('not an address')).toBe('unknown');
    expect(sourceOf(null)).toBe('unknown');
    for (const source of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.0.1', '::1', 'fd00::1', 'fe80::1', 'x']) {
      expect(isPrivateSource(sourceOf(source)), source).toBe(true);
    }
    for (const source of ['203.0.113.5', '172.32.0.1', '8.8.8.8', '2001:db8::1']) {
      expect(isPrivateSource(sourceOf(source)), source).toBe(false);
    }
  });
});
