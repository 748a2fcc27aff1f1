import { LOGIN_TEST_SKIPPED } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const admin = makeUser({ id: 'admin-1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const paged = (count: number, total: number) =>
  jsonResponse({ success: true, data: Array.from({ length: count }, (_, i) => ({ id: `car-${i}` })), meta: { total, page: 1, limit: 5 } });
const accounts = [
  { label: 'Host login', username: 'host_thabo', password: 'from-the-server-1' },
  { label: 'Customer login', username: 'sipho', password: 'from-the-server-2' },
];

function serverWith(loginTests: unknown) {
  return mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/health': ok({ status: 'ok', db: 'ok' }),
    'GET /api/car/getCarList': ({ url }) => (url.includes('includeUnverified=true') ? paged(5, 64) : paged(5, 60)),
    'GET /api/user/getList': ok([makeUser(), admin]),
    'GET /api/devtools/login-tests': loginTests instanceof Response ? loginTests : ok(loginTests),
    'POST /api/user/login': ({ init }) => {
      const { username } = JSON.parse(String(init?.body)) as { username: string };
      return ok({ user: { username, role: username.startsWith('host') ? 'host' : 'customer' }, token: `token-of-${username}` });
    },
    'POST /api/user/logout': ok(null),
  });
}

const row = (name: string) => screen.getByRole('rowheader', { name }).closest('tr') as HTMLElement;

/** The frame's own reads (the bell's notifications and unread messages, the accepted terms' versions), beside the page's calls. */
const isBellPoll = (url: string) => url.includes('notifications') || url.includes('/messages/unread') || url.includes('/privacy/policies');

describe('ApiTestPage', () => {
  it('runs the six tests in order and signs the demo accounts in and out without touching the admin session', async () => {
    signIn(admin, 'admin-token');
    const fetch = serverWith({ available: true, accounts });
    const { user } = renderApp({ path: '/api-test' });
    await user.click(await screen.findByRole('button', { name: 'Run API Tests' }));

    expect(await screen.findByText('6 passed, 0 failed, 0 skipped', { exact: false })).toBeInTheDocument();
    expect(within(row('Health check')).getByText('Passed')).toBeInTheDocument();
    expect(within(row('Health check')).getByText('200')).toBeInTheDocument();
    expect(within(row('Health check')).getByText('Server ok, database ok')).toBeInTheDocument();
    expect(within(row('Car list')).getByText('5 cars received of 60 listed')).toBeInTheDocument();
    expect(within(row('Cars call (admin)')).getByText('5 cars received of 64, unverified included')).toBeInTheDocument();
    expect(within(row('Users call')).getByText('2 users received')).toBeInTheDocument();
    expect(within(row('Login test 1')).getByText(/Host login: signed in as host_thabo \(host\); test session signed out/)).toBeInTheDocument();
    expect(within(row('Login test 2')).getByText(/signed in as sipho \(customer\)/)).toBeInTheDocument();

    const calls = fetch.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`).filter((c) => !isBellPoll(c));
    expect(calls).toEqual([
      'GET /api/health',
      'GET /api/car/getCarList?limit=5',
      'GET /api/car/getCarList?includeUnverified=true&limit=5',
      'GET /api/user/getList',
      'GET /api/devtools/login-tests',
      'POST /api/user/login',
      'POST /api/user/logout',
      'POST /api/user/login',
      'POST /api/user/logout',
    ]);
    // The admin's token goes with the admin calls; the test sessions are signed out with their own.
    const headersOf = (index: number) => (fetch.mock.calls.filter(([url]) => !isBellPoll(String(url)))[index]![1]?.headers ?? {}) as Record<string, string>;
    expect(headersOf(2).Authorization).toBe('Bearer admin-token');
    expect(headersOf(5).Authorization).toBeUndefined();
    expect(headersOf(6).Authorization).toBe('Bearer token-of-host_thabo');
    expect(window.localStorage.getItem('authToken')).toBe('admin-token');
  });

  it('skips the login tests on a server without demo data', async () => {
    signIn(admin);
    const fetch = serverWith({ available: false, reason: 'This server runs without demo data (SEED_DEMO=false).' });
    const { user } = renderApp({ path: '/api-test' });
    await user.click(await screen.findByRole('button', { name: 'Run API Tests' }));

    expect(await screen.findByText('4 passed, 0 failed, 2 skipped', { exact: false })).toBeInTheDocument();
    for (const name of ['Login test 1', 'Login test 2']) {
      expect(within(row(name)).getByText('Skipped')).toBeInTheDocument();
      expect(within(row(name)).getByText(new RegExp(LOGIN_TEST_SKIPPED))).toBeInTheDocument();
    }
    expect(fetch.mock.calls.some(([url]) => String(url).includes('/user/login'))).toBe(false);
  });

  it('reports a failing call with its status and message', async () => {
    signIn(admin);
    mockFetch({
      'GET /api/health': fail(503, 'Karoo is down for maintenance.'),
      'GET /api/car/getCarList': paged(0, 0),
      'GET /api/user/getList': ok([]),
      'GET /api/devtools/login-tests': ok({ available: true, accounts }),
      'POST /api/user/login': fail(401, 'Invalid username or password'),
    });
    const { user } = renderApp({ path: '/api-test' });
    await user.click(await screen.findByRole('button', { name: 'Run API Tests' }));

    expect(await screen.findByText('3 passed, 3 failed, 0 skipped', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Some tests failed')).toBeInTheDocument();
    expect(within(row('Health check')).getByText('503')).toBeInTheDocument();
    expect(within(row('Health check')).getByText('Karoo is down for maintenance.')).toBeInTheDocument();
    expect(within(row('Login test 1')).getByText('401')).toBeInTheDocument();
    expect(within(row('Login test 1')).getByText('Invalid username or password')).toBeInTheDocument();
  });

  it("shows the denied text to an admin the playground's username reading does not admit", async () => {
    signIn(makeUser({ username: 'ops_lead', role: 'admin', user_type: 'admin' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    renderApp({ path: '/api-test' });
    expect(await screen.findByText("You don't have permission to access the API playground.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Run API Tests' })).not.toBeInTheDocument();
  });
});
