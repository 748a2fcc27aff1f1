// TRUST_PROXY names the proxies in front of the app, by hop count or by address
// (docs/decisions/030-proxies-and-sign-in-links.md): the client address is the one the nearest
// proxy we trust saw, so whatever a client writes at the left of X-Forwarded-For changes neither
// the /metrics guard (internal network only) nor the sign-in throttles. `true` (trust every entry,
// the client's own included) is refused at start-up, saying what to write instead.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEnv } from '../src/env';
import { ADDRESS_RULE, PAIR_RULE } from '../src/modules/users/sign-in-throttling';
import { createTestApp, createUser, expectError, expectOk, MINUTE, TEST_PASSWORD, type TestApp } from './helpers';

const PROXY = '127.0.0.1';
const CLIENT = '203.0.113.9';
/** An address inside the internal network a client pretends to come from. */
const FORGED_INTERNAL = '10.0.0.5';

describe('TRUST_PROXY at start-up', () => {
  it('is off by default, and false, 0 or no turn it off', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    for (const value of ['false', '0', 'no', '']) expect(loadEnv({ TRUST_PROXY: value }).TRUST_PROXY, value).toBe(false);
  });

  it('reads a hop count', () => {
    expect(loadEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadEnv({ TRUST_PROXY: ' 2 ' }).TRUST_PROXY).toBe(2);
  });

  it('reads a list of proxy addresses and ranges (IPv4, IPv6, CIDR, the named ranges)', () => {
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,2001:db8::/32 ,::1,loopback,uniquelocal' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '2001:db8::/32',
      '::1',
      'loopback',
      'uniquelocal',
    ]);
  });

  it('refuses true, saying to give a hop count or the proxies\' addresses', () => {
    for (const value of ['true', 'yes', 'TRUE']) {
      expect(() => loadEnv({ TRUST_PROXY: value }), value).toThrow(
        /TRUST_PROXY: "true" would believe every X-Forwarded-For entry.*Give the number of proxies in front of Karoo \(e\.g\. TRUST_PROXY=1\) or their addresses or ranges \(e\.g\. TRUST_PROXY=10\.0\.0\.0\/8\)/s,
      );
    }
  });

  it('refuses what is neither a count nor an address, naming the entry', () => {
    expect(() => loadEnv({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: "10\.0\.0\.0\/33" is not an IP address or range/);
    expect(() => loadEnv({ TRUST_PROXY: '127.0.0.1,proxy.internal' })).toThrow(/TRUST_PROXY: "proxy\.internal" is not an IP address or range/);
    expect(() => loadEnv({ TRUST_PROXY: '127.0.0.1,,10.0.0.1' })).toThrow(/TRUST_PROXY: an empty entry/);
    expect(() => loadEnv({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ TRUST_PROXY: '100' })).toThrow(/TRUST_PROXY: at most 10 hops/);
  });
});

/**
 * Each setting under test: the app behind one proxy at 127.0.0.1, trusted by hop count, by its
 * address, and (two proxies) by a list that also names the outer proxy's range.
 */
const SETTINGS: { name: string; env: string; via: (client: string, forged?: string) => { remoteAddress: string; headers: Record<string, string> } }[] = [
  {
    name: 'a hop count (1)',
    env: '1',
    via: (client, forged) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': forged ? `${forged}, ${client}` : client } }),
  },
  {
    name: 'a list of the proxies (127.0.0.1, 198.51.100.0/24)',
    env: '127.0.0.1, 198.51.100.0/24',
    // Client -> outer proxy 198.51.100.7 -> inner proxy 127.0.0.1 -> app.
    via: (client, forged) => ({ remoteAddress: PROXY, headers: { 'x-forwarded-for': `${forged ? `${forged}, ` : ''}${client}, 198.51.100.7` } }),
  },
];

describe.each(SETTINGS)('behind proxies named by $name', ({ env, via }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ runtime: true, env: { TRUST_PROXY: env } });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    // A new hour for each test, so no address cap carries over.
    t.clock.advance(2 * 60 * MINUTE);
  });

  const metrics = (request: ReturnType<typeof via>) => t.app.inject({ method: 'GET', url: '/metrics', ...request });
  const signIn = (username: string, password: string, request: ReturnType<typeof via>) =>
    t.app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password }, ...request });

  it('serves /metrics to an internal client behind the proxy, never to a public one that forges an internal first entry', async () => {
    expect((await metrics(via('10.0.0.7'))).statusCode).toBe(200);
    expectError(await metrics(via(CLIENT)), 403, /internal network/);
    expectError(await metrics(via(CLIENT, FORGED_INTERNAL)), 403, /internal network/);
    expectError(await metrics(via(CLIENT, '127.0.0.1')), 403, /internal network/);
  });

  // A list trusts the proxies alone, a hop count only hops on the internal network: a public caller
  // that reached the app directly (past the proxy) is its own address, whatever it writes.
  it('takes a caller that is not one of the proxies at its own address, whatever it writes', async () => {
    expectError(await metrics({ remoteAddress: CLIENT, headers: { 'x-forwarded-for': FORGED_INTERNAL } }), 403);
    const owner = await createUser(t.ctx);
    for (let i = 0; i < PAIR_RULE.free; i++) {
      expectError(await signIn(owner.username, 'guess', { remoteAddress: CLIENT, headers: { 'x-forwarded-for': `198.18.3.${i + 1}` } }), 401);
    }
    expectError(await signIn(owner.username, 'guess', { remoteAddress: CLIENT, headers: { 'x-forwarded-for': '198.18.3.99' } }), 429);
  });

  it('throttles the (account, address) pair by the real client address, however the first entry rotates', async () => {
    const owner = await createUser(t.ctx);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await signIn(owner.username, `guess-${i}`, via(CLIENT, `198.18.0.${i + 1}`))).statusCode);
    // Five free failures, then the pair waits: the forged entries were not five new addresses each.
    expect(answers).toEqual([...Array<number>(PAIR_RULE.free).fill(401), ...Array<number>(12 - PAIR_RULE.free).fill(429)]);
    // The owner at another real address is not held back.
    expectOk(await signIn(owner.username, TEST_PASSWORD, via('198.51.100.99')));
  });

  it('caps one real address across accounts, however the first entry rotates', async () => {
    // Failures from the address (across accounts) as if checked one by one, up to two below its cap.
    const now = t.clock.now();
    const row = { failures: ADDRESS_RULE.free - 2, window_started_at: now, last_failed_at: now, wait_until: new Date(0), prev_wait_until: new Date(0) };
    await t.db
      .insertInto('sign_in_throttle')
      .values({ key: `address:${CLIENT}`, ...row })
      .onConflict((oc) => oc.column('key').doUpdateSet(row))
      .execute();
    expectError(await signIn('nobody_1', 'leaked', via(CLIENT, '198.18.1.1')), 401);
    expectError(await signIn('nobody_2', 'leaked', via(CLIENT, '198.18.1.2')), 401);
    const victim = await createUser(t.ctx);
    expectError(await signIn(victim.username, TEST_PASSWORD, via(CLIENT, '198.18.2.1')), 429, /from your network/);
    expectOk(await signIn(victim.username, TEST_PASSWORD, via('198.51.100.98')));
  });
});
