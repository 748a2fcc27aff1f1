// Operations: the live and ready probes, Prometheus metrics (who may read them and what they say),
// background jobs that stop cleanly, and a real server that shuts down gracefully on SIGTERM.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInternalAddress } from '../src/plugins/metrics';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { waitForListening, waitForOutput } from './helpers/process';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ runtime: true, env: { METRICS_TOKEN: 'scrape-token-0123456789' } });
});
afterAll(() => t?.close());

const PUBLIC_IP = '196.25.1.1';

describe('health probes', () => {
  it('live answers without touching anything; ready checks the database, and says it checks nothing else', async () => {
    const live = expectOk<{ status: string; uptime_seconds: number }>(await t.app.inject({ method: 'GET', url: '/api/health/live' }));
    expect(live.status).toBe('live');
    const ready = expectOk<{ status: string; checks: Record<string, string> }>(await t.app.inject({ method: 'GET', url: '/api/health/ready' }));
    expect(ready).toEqual({ status: 'ready', draining: false, checks: { database: 'ok' } });
    // Redis and the object store are shared by every instance: were they readiness checks, their
    // outage would take every instance out of the balancer at once. The description says so too.
    // (A database that is down: database-failures.test.ts.)
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, { get: { summary: string } }>;
    };
    const summary = spec.paths['/api/health/ready']!.get.summary;
    expect(summary).toMatch(/^Readiness: the database answers/);
    expect(summary).not.toMatch(/service/);
  });

  it('ready turns 503 while the instance is shutting down, live stays 200', async () => {
    t.ctx.runtime!.draining = true;
    try {
      expectError(await t.app.inject({ method: 'GET', url: '/api/health/ready' }), 503, 'This instance is shutting down');
      expectOk(await t.app.inject({ method: 'GET', url: '/api/health/live' }));
    } finally {
      t.ctx.runtime!.draining = false;
    }
  });
});

describe('/metrics', () => {
  it('counts requests by route pattern and status, with latency, pool use and job lag', async () => {
    await t.app.inject({ method: 'GET', url: '/api/car/getCarDetails/no-such-car' });
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('karoo_http_requests_total{method="GET",route="/api/car/getCarDetails/:id",status="404"} 1');
    expect(res.body).toContain('karoo_http_request_duration_seconds_bucket{le="0.002",method="GET",route="/api/health"}');
    expect(res.body).toMatch(/karoo_db_pool_connections\{state="max"\} \d+/);
    expect(res.body).toContain('process_resident_memory_bytes');
    expect(res.body).toMatch(/karoo_mail_outbox\{measure="due"\} \d+/);
    expect(res.body).toMatch(/karoo_mail_outbox\{measure="lag_seconds"\} [\d.]+/);
    expect(res.body).not.toContain('no-such-car');
  });

  it('reports the browse index: 0 cars until its first load, then the listed cars it holds', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(before.body).toMatch(/karoo_browse_index\{measure="cars"\} \d+/);
    await t.ctx.browseIndex.startLoading();
    const { count } = await t.db
      .selectFrom('cars')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('deleted_at', 'is', null)
      .where('status', '=', 'available')
      .where('verification_status', '=', 'verified')
      .executeTakeFirstOrThrow();
    const after = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(after.body).toContain(`karoo_browse_index{measure="cars"} ${Number(count)}`);
    expect(after.body).toMatch(/karoo_browse_index\{measure="age_seconds"\} [\d.]+/);
    expect(after.body).toMatch(/karoo_browse_index\{measure="slow_looks"\} \d+/);
  });

  it('is refused to the public internet, served to a scraper with the token or to an admin', async () => {
    expectError(await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: PUBLIC_IP }), 403, /internal network/);
    expectError(
      await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: PUBLIC_IP, headers: { authorization: 'Bearer wrong-token-0123456789' } }),
      403,
    );
    const scraper = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: PUBLIC_IP, headers: { authorization: 'Bearer scrape-token-0123456789' } });
    expect(scraper.statusCode).toBe(200);
    const { headers: customer } = await createSignedInUser(t.app, t.ctx);
    expectError(await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: PUBLIC_IP, headers: customer }), 403);
    const { headers: admin } = await createSignedInUser(t.app, t.ctx, { role: 'admin' });
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: PUBLIC_IP, headers: admin })).statusCode).toBe(200);
  });

  it('knows the internal network', () => {
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '172.16.0.9', '172.31.255.1', '192.168.1.10', '::ffff:10.0.0.1', 'fd00::1']) expect(isInternalAddress(ip), ip).toBe(true);
    for (const ip of ['196.25.1.1', '172.32.0.1', '8.8.8.8', '::ffff:41.0.0.1', '2001:db8::1']) expect(isInternalAddress(ip), ip).toBe(false);
  });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

// One real server process on the embedded database: the signal handling lives in server.ts.
describe.runIf(process.env.TEST_DB !== 'postgres')('a real server on SIGTERM', () => {
  // Every wait is on the server's own events (it listens, it says it drains, it exits), bounded only
  // by this test's timeout: a busy machine makes the test slower, never wrong (issue 32).
  it('says not ready while it drains, finishes, closes the database and exits 0', { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-sigterm-'));
    const port = await freePort();
    const apiRoot = fileURLToPath(new URL('..', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: apiRoot,
      env: { ...process.env, NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', ADMIN_PASSWORD: 'Karoo-admin-1', SHUTDOWN_DRAIN_MS: '3000', LOG_LEVEL: 'info', WEB_DIST_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let log = '';
    child.stdout!.on('data', (chunk) => (log += chunk));
    child.stderr!.on('data', (chunk) => (log += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitForListening(child, () => log);
      // The database was opened and migrated before it listened.
      expect((await fetch(`${base}/api/health/ready`)).status).toBe(200);
      const draining = waitForOutput(child, /shutting down: finishing requests in flight/, () => log);
      child.kill('SIGTERM');
      await draining;
      // Within the drain (SHUTDOWN_DRAIN_MS): not ready, still live.
      expect((await fetch(`${base}/api/health/ready`)).status).toBe(503);
      expect((await fetch(`${base}/api/health/live`)).status).toBe(200);
      expect(await exited).toBe(0);
      expect(log).toContain('shut down cleanly');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
