// Prometheus metrics at /metrics (prom-client): requests by route and status, latency by route,
// server errors, the database pool's use, the job queue's runs and depth and each interval job's lag, plus Node's own process
// metrics. Each app has its own registry (tests build many apps in one process). Served only to the
// internal network (loopback and private addresses, as the proxy reports them with TRUST_PROXY),
// to a scraper holding METRICS_TOKEN, or to a signed-in administrator.
import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { browseIndexEnabled } from '../modules/cars';
import { countRefundsByState } from '../modules/ledger';
import { isAdmin } from '@karoo/shared';
import type { AppContext } from '../context';
import { forbidden } from '../lib/app-error';
import { imageQueueStats } from '../lib/images';
import { outboxBacklog } from '../lib/mail-outbox.repository';

const PRIVATE_V4 = [/^127\./, /^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./];

/** Loopback, private (RFC 1918), link-local and unique-local addresses: the internal network. */
export function isInternalAddress(ip: string): boolean {
  const v4 = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(v4) === 4) return PRIVATE_V4.some((range) => range.test(v4));
  const v6 = ip.toLowerCase();
  return v6 === '::1' || v6.startsWith('fc') || v6.startsWith('fd') || v6.startsWith('fe80:');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function registerMetrics(app: FastifyInstance, ctx: AppContext) {
  const registry = new Registry();
  // Process metrics (memory, event loop, GC) for a real server; tests build many apps per process.
  if (ctx.runtime) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'karoo_http_requests_total',
    help: 'HTTP requests answered, by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'karoo_http_server_errors_total',
    help: 'HTTP answers with a 5xx status, by method and route',
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'karoo_http_request_duration_seconds',
    help: 'Time from request to answer, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'karoo_db_pool_connections',
    help: 'Database pool connections by state (open, idle, waiting requests, max)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = ctx.runtime?.poolStats();
      if (!stats) return;
      this.set({ state: 'open' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'in_use' }, stats.total - stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
      this.set({ state: 'max' }, stats.max);
    },
  });
  // The job queue (decision 038): attempts this instance ran, by outcome, and the jobs waiting.
  const reported = new Map<string, number>();
  new Counter({
    name: 'karoo_jobs_total',
    help: 'Job attempts run by this instance, by queue and outcome: completed, retried (failed, another attempt follows) or failed (its last attempt failed: dead-lettered)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    collect() {
      // The queue keeps its own counts (it is built before the app); the counter catches up here.
      for (const { queue, outcome, count } of ctx.jobs.outcomes()) {
        const key = `${queue} ${outcome}`;
        const added = count - (reported.get(key) ?? 0);
        if (added > 0) this.inc({ queue, outcome }, added);
        reported.set(key, count);
      }
    },
  });
  new Gauge({
    name: 'karoo_job_queue_depth',
    help: "Jobs in the queue's tables, by queue (a job's dead letters are in '<queue>.dead') and state: queued (due now), deferred (waiting for its time or a retry's backoff), active (running), failed (given up)",
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const { queue, state, count } of await ctx.jobs.depth()) this.set({ queue, state }, count);
      } catch {
        // The database is down: /api/health/ready says so; the other metrics still answer.
      }
    },
  });
  // The mail outbox's lag: how long the oldest mail that is due has waited, and how much is due.
  new Gauge({
    name: 'karoo_mail_outbox',
    help: 'The mail outbox: mail due now and not yet sent (due), mail given up on (failed), and seconds the oldest due mail has waited (lag_seconds)',
    labelNames: ['measure'] as const,
    registers: [registry],
    async collect() {
      try {
        const now = ctx.clock.now();
        const backlog = await outboxBacklog(ctx.db, now);
        this.set({ measure: 'due' }, backlog.due);
        this.set({ measure: 'failed' }, backlog.failed);
        this.set({ measure: 'lag_seconds' }, backlog.oldestDueAt ? Math.max(0, (now.getTime() - backlog.oldestDueAt.getTime()) / 1000) : 0);
      } catch {
        // The database is down: /api/health/ready says so; the other metrics still answer.
      }
    },
  });
  // Refunds in the ledger by state: pending ones are being asked of the provider; failed ones gave up
  // after repeated refusals and wait for an administrator's Retry (alert on failed > 0).
  new Gauge({
    name: 'karoo_refunds',
    help: 'Refunds in the ledger by state: pending (asked of the provider, not yet accepted), failed (refused repeatedly; an administrator must retry), succeeded',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const counts = await countRefundsByState(ctx.db);
        for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
      } catch {
        // The database is down: /api/health/ready says so.
      }
    },
  });
  // The public browse's memory (decision 028): the listed cars it holds, and seconds since its last look.
  new Gauge({
    name: 'karoo_browse_index',
    help: 'The browse index: listed cars held (cars, 0 until the first load ends), seconds since it last read the change notes (age_seconds), and answers the SQL gave because its look took longer than the wait (slow_looks, a count since start)',
    labelNames: ['measure'] as const,
    registers: [registry],
    collect() {
      if (!browseIndexEnabled(ctx)) return;
      const index = ctx.browseIndex;
      this.set({ measure: 'cars' }, index.loaded ? index.size : 0);
      this.set({ measure: 'age_seconds' }, index.loaded ? index.ageSeconds : 0);
      this.set({ measure: 'slow_looks' }, index.slowLooks);
    },
  });
  // The picture queue (decision 031): decoding is CPU-heavy, so uploads wait their turn.
  new Gauge({
    name: 'karoo_image_jobs',
    help: 'Uploaded pictures being decoded and re-encoded now (running) and waiting their turn (waiting); the process-wide queue',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const queue = imageQueueStats();
      this.set({ state: 'running' }, queue.running);
      this.set({ state: 'waiting' }, queue.waiting);
    },
  });
  new Gauge({
    name: 'karoo_image_jobs_total',
    help: 'Uploaded pictures since the process started, by outcome: stored, refused (not a picture, damaged or over the size limit), busy (turned away with a 503 because the queue was full)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      for (const [outcome, count] of Object.entries(imageQueueStats().outcomes)) this.set({ outcome }, count);
    },
  });
  new Gauge({
    name: 'karoo_image_busy_seconds_total',
    help: 'Seconds spent decoding and re-encoding uploaded pictures since the process started (its rate is the share of a core they take)',
    registers: [registry],
    collect() {
      this.set(imageQueueStats().busySeconds);
    },
  });
  new Gauge({
    name: 'karoo_draining',
    help: '1 while the instance is shutting down',
    registers: [registry],
    collect() {
      this.set(ctx.runtime?.draining ? 1 : 0);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern (/api/car/getCarDetails/:id), never the raw URL: one series per route.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const status = reply.statusCode;
    requests.inc({ method: request.method, route, status });
    // A live stream the server ends (after 15 minutes, or at shutdown) would count its whole life as
    // an answer's latency (decision 083); one the client leaves records no response at all.
    if (route !== '/api/live') latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    if (status >= 500) errors.inc({ method: request.method, route });
  });

  const mayRead = (request: FastifyRequest): boolean => {
    const token = ctx.env.METRICS_TOKEN;
    const header = request.headers.authorization;
    if (token && header?.startsWith('Bearer ') && sameSecret(header.slice(7).trim(), token)) return true;
    return isInternalAddress(request.ip) || isAdmin(request.user);
  };

  app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (request, reply) => {
    if (!mayRead(request)) throw forbidden('Metrics are served to the internal network, a scraper with the metrics token, or an administrator.');
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
