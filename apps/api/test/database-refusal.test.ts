// A PostgreSQL database that refuses connections, as an operator's `ALTER DATABASE … ALLOW_CONNECTIONS
// false` and pg_terminate_backend do it (issue 32: 500s with no Retry-After, 166 times in a soak): the
// server answers every new connection with FATAL 55000 "database … is not currently accepting
// connections". The readiness probe, browse, /api/user/me, /api/settings and the server-rendered /cars
// must answer as for any database away (decisions 029, 044, 057): 503 with Retry-After for the API, the
// client-rendered page (200) for the page, then serve again once connections are allowed. The database
// is one this file creates and drops: the shared `test` database and other files' backends are never
// touched. Runs in the api-postgres project.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import type { ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectServer, type DatabaseHandle } from '../src/db/connection';
import { UNAVAILABLE_MESSAGE } from '../src/db/connection-errors';
import { migrateToLatest } from '../src/db/migrate';
import type { PageRenderer } from '../src/modules/pages';
import { forgetSettings } from '../src/modules/settings';
import { createSignedInUser, createTestApp, testDbKind, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const onPostgres = testDbKind === 'postgres' && !!DATABASE_URL;
const webRoot = fileURLToPath(new URL('../../web/', import.meta.url));

describe.skipIf(!onPostgres)('a database refusing connections (ALLOW_CONNECTIONS false, backends terminated)', () => {
  const database = `karoo_refusal_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let handle: DatabaseHandle;
  let vite: ViteDevServer;
  let dist: string;
  let t: TestApp;
  let renter: Awaited<ReturnType<typeof createSignedInUser>>;

  const allowConnections = (allowed: boolean) => admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS ${allowed}`);
  /** Ends every backend of this file's own database (the pids first, then only those). */
  const terminateBackends = async () => {
    const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [rows.map((row) => row.pid)]);
    for (let left = rows.length; left > 0; ) {
      left = (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database])).rows[0]!.n;
      if (left > 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return rows.length;
  };

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const requests = {
    ready: () => get('/api/health/ready'),
    browse: () => get('/api/car/getCarList?limit=12'),
    me: () => get('/api/user/me', renter.headers),
    settings: () => get('/api/settings'),
  };
  /** A browse page; each `sort` its own URL, so a page kept from before is not what is tested. */
  const carsPage = (sort: string) => get(`/cars?location=Durban&sort=${sort}`);

  /** Each request's status, Retry-After and message, for one comparison that shows every one at once. */
  const answersOf = async () => {
    const answers: Record<string, { status: number; retryAfter: unknown; message: unknown }> = {};
    for (const [what, request] of Object.entries(requests)) {
      const res: LightMyRequestResponse = await request();
      answers[what] = { status: res.statusCode, retryAfter: res.headers['retry-after'], message: (res.json() as { message?: string }).message };
    }
    return answers;
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const url = new URL(DATABASE_URL!);
    url.pathname = `/${database}`;
    const setup = new pg.Client({ connectionString: url.toString() });
    await setup.connect();
    await setup.query('CREATE EXTENSION IF NOT EXISTS btree_gist; CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await setup.end();
    // The production timeouts' shape, short: the refusal is answered at once anyway.
    handle = connectServer({ url: url.toString(), timeouts: { connectMs: 1000, statementMs: 2000, idleInTransactionMs: 3000 }, log: pino({ level: 'silent' }) });
    await handle.withoutTimeouts((db) => migrateToLatest(db));

    const { createServer } = await import('vite');
    vite = await createServer({
      root: webRoot,
      configFile: path.join(webRoot, 'vite.config.ts'),
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    });
    const renderer = (await vite.ssrLoadModule('/src/entry-server.tsx')) as PageRenderer;
    const template = readFileSync(path.join(webRoot, 'index.html'), 'utf8');
    dist = await mkdtemp(path.join(tmpdir(), 'karoo-refusal-dist-'));
    await writeFile(path.join(dist, 'index.html'), template);
    t = await createTestApp({
      runtime: true,
      // Every answer from the database (no page or browse answer kept from before the refusal).
      env: { BROWSE_CACHE_MS: '0' },
      openDatabase: async () => handle,
      webDistDir: dist,
      pages: { pageRenderer: { render: (request) => renderer.render(request) }, pageTemplate: template },
    });
    t.clock.set('2030-03-10T08:00:00Z');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    await createTestCar(t.ctx, host.user, { make: 'Mazda', model: 'CX-5', city: 'Durban' });
  }, 180_000);

  afterAll(async () => {
    if (admin) await allowConnections(true).catch(() => {});
    await t?.close();
    await vite?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
  });

  it('answers 503 with Retry-After (the page: the client-rendered shell) and serves again once allowed', async () => {
    for (const [what, request] of Object.entries(requests)) expect((await request()).statusCode, what).toBe(200);
    const rendered = await carsPage('PRICE_LOW');
    expect(rendered.statusCode).toBe(200);
    expect(rendered.body).toContain('CX-5');

    await allowConnections(false);
    try {
      expect(await terminateBackends()).toBeGreaterThan(0);
      // The settings as a request finds them once this instance's copy is older than its cache time.
      forgetSettings(t.ctx);
      const unavailable = { status: 503, retryAfter: '5', message: UNAVAILABLE_MESSAGE };
      expect(await answersOf()).toEqual({
        ready: { ...unavailable, message: 'Not ready: database not reachable' },
        browse: unavailable,
        me: unavailable,
        settings: unavailable,
      });
      const page = await carsPage('PRICE_HIGH');
      expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
      expect(page.body).toContain('<div id="root"></div>');
      expect(page.body).not.toContain('CX-5');
    } finally {
      await allowConnections(true);
    }

    for (const [what, request] of Object.entries(requests)) {
      let res = await request();
      // The first request after may still meet a connection the pool has not yet found dead.
      for (let tries = 0; res.statusCode === 503 && tries < 50; tries += 1) res = await request();
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
    }
    expect((await carsPage('RELEVANCE')).body).toContain('CX-5');
  });
});
