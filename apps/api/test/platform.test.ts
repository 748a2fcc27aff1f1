// What every route shares (api.md Conventions): health, the failure envelope, never a 500 for
// bad input, security headers, the request id, the OpenAPI document, and the demo seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '@karoo/shared';
import { migrateToLatest } from '../src/db/migrate';
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from '../src/db/seed';
import {
  authHeader,
  createSignedInUser,
  createTestApp,
  expectError,
  expectOk,
  loginResponse,
  multipart,
  openTestDatabase,
  pdfBytes,
  type TestApp,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('migrations', () => {
  it('are idempotent: running them again applies nothing', async () => {
    expect(await migrateToLatest(t.db)).toEqual([]);
  });

  it('migrate a second database or schema next to this one (on PostgreSQL: a second schema of one server)', async () => {
    const other = await openTestDatabase();
    try {
      expect(await other.db.selectFrom('users').select('id').execute()).toEqual([]);
      await other.db.insertInto('mail_outbox').values({ to_address: 'x@example.co.za', subject: 's', text_body: 't', transport: 'outbox' }).execute();
      expect(await t.outbox.list('x@example.co.za')).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

describe('GET /api/health', () => {
  it('reports the API and the database as ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { status: 'ok', db: 'ok' } });
  });
});

describe('bad input is answered with a 4xx envelope, never a 500', () => {
  const post = (url: string, payload: string | Buffer, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });

  it('malformed JSON -> 400', async () => {
    expectError(await post('/api/user/login', '{"username": "sipho", '), 400, 'The request body is not valid JSON.');
    expectError(await post('/api/user/register', 'not json at all'), 400);
  });

  it('an empty JSON body -> 400', async () => {
    expectError(await post('/api/user/login', ''), 400);
  });

  it.each<[string, unknown]>([
    ['a number for the username', { username: 123, password: 'x' }],
    ['an object for the password', { username: 'sipho', password: { $ne: '' } }],
    ['a string for remember', { username: 'sipho', password: 'x', remember: 'yes' }],
    ['an array body', [1, 2, 3]],
    ['null', null],
  ])('wrong types (%s) -> 400', async (_case, payload) => {
    expectError(await post('/api/user/login', JSON.stringify(payload)), 400);
  });

  it('wrong types on register -> 400 with field errors', async () => {
    const error = expectError(
      await post('/api/user/register', JSON.stringify({ full_name: ['x'], email: 5, username: true, password: 123456, terms_accepted: 'true', privacy_accepted: 1 })),
      400,
    );
    expect(Object.keys(error.errors ?? {}).sort()).toEqual(['email', 'full_name', 'password', 'privacy_accepted', 'terms_accepted', 'username']);
  });

  it('a body over 1 MB -> 413', async () => {
    const huge = JSON.stringify({ username: 'x'.repeat(1024 * 1024 + 10), password: 'x' });
    expectError(await post('/api/user/login', huge), 413, 'The request body is too large.');
  });

  it('an unsupported content type -> 415', async () => {
    expectError(await post('/api/user/login', 'username=sipho&password=x', 'application/x-www-form-urlencoded'), 415, 'This content type is not supported here.');
    expectError(await post('/api/user/login', '<login/>', 'application/xml'), 415);
  });

  it('plain text where an object is expected -> 400', async () => {
    expectError(await post('/api/user/login', 'hello', 'text/plain'), 400);
  });

  it('multipart sent to a JSON route -> 4xx', async () => {
    const form = multipart([
      { name: 'username', value: 'sipho' },
      { name: 'document', filename: 'a.pdf', data: pdfBytes() },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/user/login', payload: form.payload, headers: form.headers });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectError(res, res.statusCode);
  });

  it('an unknown /api route -> 404 envelope', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/no/such/route' }), 404, 'Route GET /api/no/such/route not found');
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/user/me' }), 404);
  });

  it('an over-long, undecodable or odd path parameter -> 4xx envelope', async () => {
    const { headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await t.app.inject({ method: 'GET', url: `/api/user/get/${'a'.repeat(500)}`, headers }), 414, 'The URL is too long.');
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/get/%E0%A4%A', headers }), 400, 'The URL is not valid.');
    expectError(await t.app.inject({ method: 'GET', url: `/api/user/get/${encodeURIComponent("' OR 1=1 --")}`, headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/get/00000000-0000-4000-8000-000000000000', headers }), 404);
  });

  it('a bearer token of junk bytes -> 401', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: authHeader('\u00ff\u00fe'.repeat(300)) }), 401);
  });
});

describe('per-client rate limit', () => {
  it('answers 429 in the envelope, saying when to try again; health stays open', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const call = () => limited.app.inject({ method: 'GET', url: '/api/notifications' });
      for (let i = 0; i < 5; i++) expectError(await call(), 401);
      const refused = expectError(await call(), 429);
      expect(refused.message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
      expect(refused.errors).toBeUndefined();
      for (let i = 0; i < 3; i++) expect((await limited.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('headers', () => {
  it('sends a content security policy and the usual hardening headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('echoes a well-formed x-request-id, and makes one up otherwise', async () => {
    const echoed = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-1234abcd' } });
    expect(echoed.headers['x-request-id']).toBe('trace-1234abcd');
    const made = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id <script>' } });
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const onError = await t.app.inject({ method: 'GET', url: '/api/nowhere', headers: { 'x-request-id': 'trace-5678efgh' } });
    expect(onError.headers['x-request-id']).toBe('trace-5678efgh');
  });
});

describe('GET /api/openapi.json', () => {
  it('publishes the user, notification and admin paths', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, unknown>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/api/user/register',
      '/api/user/login',
      '/api/user/logout',
      '/api/user/me',
      '/api/user/forgot-password',
      '/api/user/verify-reset-token/{token}',
      '/api/user/reset-password',
      '/api/user/get/{id}',
      '/api/user/update/{id}',
      '/api/user/{id}/verification-status',
      '/api/user/{id}/upload-document',
      '/api/user/{id}/documents/{type}',
      '/api/user/{id}/verification',
      '/api/user/getList',
      '/api/user/create',
      '/api/user/delete/{id}',
      '/api/notifications',
      '/api/notifications/{id}/read',
      '/api/health',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(doc.paths['/api/user/register']).toHaveProperty('post');
  });
});

describe('demo seed (decisions.md section 11)', () => {
  it('creates the documented accounts, each signing in with the demo password', async () => {
    await seedDemo(t.ctx, t.db);
    const expected: Record<string, [string, string]> = {
      admin: ['admin', 'verified'],
      host_thabo: ['host', 'verified'],
      host_lerato: ['host', 'verified'],
      sipho: ['customer', 'verified'],
      naledi: ['customer', 'pending_verification'],
    };
    for (const [username, [role, status]] of Object.entries(expected)) {
      expect(DEMO_USERS.map((u) => u.username)).toContain(username);
      const data = expectOk<LoginResponse>(await loginResponse(t.app, username, DEMO_PASSWORD));
      expect(data.user, username).toMatchObject({ role, verification_status: status });
    }
    expect(DEMO_PASSWORD).toBe('Demo@1234');
  });
});
