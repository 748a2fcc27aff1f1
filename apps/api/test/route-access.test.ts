// Who may call what. Access is declared once per group of routes (plugins/auth.ts routesFor): the
// group's guard and the bearerAuth requirement in the OpenAPI document come from the same place.
// These tests pin the public operations, prove that every documented-as-secured operation refuses
// an anonymous caller, and that the admin groups refuse a signed-in customer with 403 (after 401).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createSignedInUser, createTestApp, expectError, type TestApp } from './helpers';

/** The operations anyone may call; every other one needs a bearer token. */
const PUBLIC_OPERATIONS = [
  'GET /api/car/getCarDetails/{id}',
  'GET /api/car/getCarList',
  'GET /api/car/map',
  'GET /api/car/owner/{id}',
  'GET /api/car/{id}/availability',
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/review/getAll',
  'GET /api/review/getList',
  'GET /api/review/getStats',
  'GET /api/review/renter/{username}',
  'GET /api/review/{id}',
  'GET /api/settings',
  'GET /api/user/verify-reset-token/{token}',
  'POST /api/car/rentCar/{id}',
  'POST /api/payments/paystack/webhook',
  'POST /api/privacy/unsubscribe',
  'POST /api/user/forgot-password',
  'POST /api/user/login',
  'POST /api/user/register',
  'POST /api/user/request-sign-in-link',
  'POST /api/user/reset-password',
  'POST /api/user/sign-in-with-link',
];

/** The admin operations, each with a request that passes validation (the guard runs after it). */
const ADMIN_OPERATIONS: { operation: string; url: string; payload?: object }[] = [
  { operation: 'GET /api/admin/outbox', url: '/api/admin/outbox' },
  { operation: 'GET /api/admin/mail', url: '/api/admin/mail?status=failed' },
  { operation: 'POST /api/admin/mail/{id}/retry', url: '/api/admin/mail/00000000-0000-4000-8000-000000000000/retry' },
  { operation: 'GET /api/admin/audit', url: '/api/admin/audit' },
  { operation: 'GET /api/admin/cars', url: '/api/admin/cars' },
  { operation: 'GET /api/devtools/login-tests', url: '/api/devtools/login-tests' },
  { operation: 'PUT /api/settings', url: '/api/settings', payload: {} },
  { operation: 'PUT /api/user/{id}/verification', url: '/api/user/somebody/verification', payload: { verification_status: 'verified' } },
  { operation: 'GET /api/user/getList', url: '/api/user/getList' },
  { operation: 'POST /api/user/create', url: '/api/user/create', payload: { username: 'new_member', email: 'made@example.co.za', name: 'Made Here', password: 'Karoo-test-1' } },
  { operation: 'DELETE /api/user/delete/{id}', url: '/api/user/delete/somebody' },
  { operation: 'PATCH /api/car/verifyCar/{id}', url: '/api/car/verifyCar/some-car', payload: { verification_status: 'verified' } },
  { operation: 'PATCH /api/car/verifyRegistrationDocument/{car_username}', url: '/api/car/verifyRegistrationDocument/some-car', payload: { verified: true } },
  { operation: 'PATCH /api/car/forceReturn/{car_username}', url: '/api/car/forceReturn/some-car', payload: {} },
  { operation: 'GET /api/earnings/earning/getAppFee', url: '/api/earnings/earning/getAppFee' },
  { operation: 'PATCH /api/earnings/earning/updatePayout/{id}', url: '/api/earnings/earning/updatePayout/some-booking', payload: { payout_status: 'paid' } },
  { operation: 'POST /api/earnings/admin/payouts/{id}/reverse', url: '/api/earnings/admin/payouts/some-booking/reverse', payload: { reason: 'Paid twice' } },
  { operation: 'GET /api/admin/disputes', url: '/api/admin/disputes' },
  { operation: 'GET /api/admin/breaches', url: '/api/admin/breaches' },
  { operation: 'GET /api/admin/breaches/{id}', url: '/api/admin/breaches/00000000-0000-4000-8000-000000000000' },
  {
    operation: 'POST /api/admin/breaches',
    url: '/api/admin/breaches',
    payload: { summary: 'A test record of a compromise.', discovered_at: '2030-01-01T08:00:00+02:00', data_categories: ['contact'], measures: 'Keys rotated at once.', advice: 'Nothing to do, this is a test.', scope: 'all' },
  },
  { operation: 'PATCH /api/admin/disputes/{id}/resolve', url: '/api/admin/disputes/some-dispute/resolve', payload: { note: 'Settled with both parties' } },
  { operation: 'GET /api/admin/messages/reports', url: '/api/admin/messages/reports' },
  { operation: 'POST /api/admin/messages/reports/{id}/resolve', url: '/api/admin/messages/reports/some-report/resolve', payload: { note: 'Warned the sender' } },
  { operation: 'GET /api/admin/privacy/corrections', url: '/api/admin/privacy/corrections' },
  {
    operation: 'POST /api/admin/privacy/corrections/{id}/decision',
    url: '/api/admin/privacy/corrections/00000000-0000-4000-8000-000000000000/decision',
    payload: { decision: 'decline', note: 'Not on the document' },
  },
  { operation: 'POST /api/admin/privacy/news', url: '/api/admin/privacy/news', payload: { subject: 'Karoo news', message: 'New cars in Durban this month.' } },
];

interface Operation {
  key: string;
  isSecured: boolean;
}

let t: TestApp;
let doc: { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> };
let operations: Operation[];
beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<typeof doc>();
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, isSecured: !!op.security?.length && op.security.every((scheme) => 'bearerAuth' in scheme) })),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('route access', () => {
  it('documents a bearer token on every operation but the public ones, which say so (token optional or none)', () => {
    const undeclared = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, op]) => op.security === undefined).map(([method]) => `${method} ${path}`),
    );
    expect(undeclared).toEqual([]);
    expect(operations.filter((op) => !op.isSecured).map((op) => op.key).sort()).toEqual([...PUBLIC_OPERATIONS].sort());
    expect(operations.filter((op) => op.isSecured).length).toBeGreaterThan(50);
  });

  it('every secured operation refuses an anonymous caller with 401 and a stale token with "session expired"', async () => {
    const checked: string[] = [];
    for (const op of operations.filter((o) => o.isSecured)) {
      const [method, path] = op.key.split(' ') as [string, string];
      const url = path
        .replace('{type}', 'id_document')
        .replace(/\/notifications\/\{id\}/, '/notifications/3f2504e0-4f89-41d3-9a0c-0305e82c3301')
        .replace(/\{[^}]+\}/g, 'someone');
      // A body that fails validation answers 400 first (the guard runs after validation), so only
      // operations that accept this request without a body or with {} are checked here.
      const anonymous = await t.app.inject({ method: method as 'GET', url, payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      if (anonymous.statusCode === 400) continue;
      expectError(anonymous, 401, 'Authentication required. Please sign in.');
      const stale = await t.app.inject({ method: method as 'GET', url, headers: authHeader('no-such-session-token'), payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expectError(stale, 401, 'Your session has expired. Please sign in again.');
      checked.push(op.key);
    }
    expect(checked.length).toBeGreaterThan(30);
  });

  it.each(ADMIN_OPERATIONS)('$operation: 401 without a token, 403 for a signed-in customer', async ({ operation, url, payload }) => {
    expect(operations.find((op) => op.key === operation)?.isSecured, operation).toBe(true);
    const method = operation.split(' ')[0] as 'GET';
    expectError(await t.app.inject({ method, url, ...(payload ? { payload } : {}) }), 401, 'Authentication required. Please sign in.');
    const { headers } = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    expectError(await t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) }), 403, 'Administrator access is required.');
  });
});
