// The developer tools' login-test accounts (decisions.md section 10): admins only, and only the
// demo accounts of a server that runs with demo data; otherwise "not available", so the test page
// skips its login tests and no password is ever built into the web app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginTests } from '@karoo/shared';
import { DEMO_PASSWORD } from '../src/db/seed';
import { hashPassword } from '../src/lib/passwords';
import { createSignedInUser, createTestApp, createUser, expectError, expectOk, loginResponse, type TestApp } from './helpers';

const URL = '/api/devtools/login-tests';

describe('GET /api/devtools/login-tests on a server with demo data', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createSignedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers "not available" while the demo accounts are missing', async () => {
    const data = expectOk<LoginTests>(await t.app.inject({ method: 'GET', url: URL, headers: admin.headers }));
    expect(data).toEqual({ available: false, reason: expect.stringContaining('demo accounts') });
  });

  it('gives an admin a demo host and a demo customer that really sign in', async () => {
    const password_hash = await hashPassword(DEMO_PASSWORD);
    await createUser(t.ctx, { username: 'host_thabo', role: 'host', verification_status: 'verified', overrides: { password_hash } });
    await createUser(t.ctx, { username: 'sipho', verification_status: 'verified', overrides: { password_hash } });

    const data = expectOk<LoginTests>(await t.app.inject({ method: 'GET', url: URL, headers: admin.headers }));
    expect(data).toEqual({
      available: true,
      accounts: [
        { label: 'Host login', username: 'host_thabo', password: DEMO_PASSWORD },
        { label: 'Customer login', username: 'sipho', password: DEMO_PASSWORD },
      ],
    });
    if (!data.available) throw new Error('unreachable');
    for (const account of data.accounts) expect((await loginResponse(t.app, account.username, account.password)).statusCode).toBe(200);
  });

  it('refuses customers and hosts (403) and guests (401)', async () => {
    const customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    expectError(await t.app.inject({ method: 'GET', url: URL, headers: customer.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: URL, headers: host.headers }), 403);
    expectError(await t.app.inject({ method: 'GET', url: URL }), 401);
  });

  it('is documented in the OpenAPI document, with its bearer token', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/devtools/login-tests'].get).toMatchObject({
      operationId: 'getLoginTests',
      tags: ['Developer tools'],
      security: [{ bearerAuth: [] }],
    });
  });
});

describe('GET /api/devtools/login-tests on a production start (SEED_DEMO=false)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { SEED_DEMO: 'false', ADMIN_PASSWORD: 'Admin-pass-123' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers "not available" even when accounts with the demo names and password exist', async () => {
    const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
    const password_hash = await hashPassword(DEMO_PASSWORD);
    await createUser(t.ctx, { username: 'host_thabo', role: 'host', verification_status: 'verified', overrides: { password_hash } });
    await createUser(t.ctx, { username: 'sipho', verification_status: 'verified', overrides: { password_hash } });
    const data = expectOk<LoginTests>(await t.app.inject({ method: 'GET', url: URL, headers: admin.headers }));
    expect(data).toEqual({ available: false, reason: expect.stringContaining('SEED_DEMO=false') });
    expect(JSON.stringify(data)).not.toContain(DEMO_PASSWORD);
  });
});

describe('the test clock routes (decision 070)', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof createSignedInUser>>;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('do not exist on a server without the end-to-end clock (KAROO_TEST_NOW): 404, even for an admin', async () => {
    const routes = [
      { method: 'POST' as const, url: '/api/devtools/test-clock/advance', payload: { hours: 73 } },
      { method: 'DELETE' as const, url: '/api/devtools/test-clock' },
      { method: 'POST' as const, url: '/api/devtools/jobs/payouts.run/run' },
    ];
    for (const route of routes) {
      const res = await t.app.inject({ ...route, headers: admin.headers });
      expect(res.statusCode, route.url).toBe(404);
    }
  });
});
