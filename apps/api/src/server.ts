// Starts Karoo: validates the environment, opens the database, migrates, seeds on first start,
// and serves the API and the built web app from one process.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app';
import { createAppContext } from './app-context';
import { clockFromEnv } from './context';
import { connectDatabase, timeoutsFromEnv } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedOnFirstStart } from './db/seed';
import { browseIndexEnabled } from './modules/cars';
import { loadPageRenderer } from './modules/pages';
import { createJobQueue } from './jobs/queue';
import { loadEnv } from './env';
import { createRuntime } from './runtime';
import { createMailer } from './lib/mail';
import { connectSharedState } from './lib/shared-state';
import { createStorage } from './lib/storage';

/** How long each step of the start took (ms), logged once it listens: where a restart spends its time. */
const startSteps: Record<string, number> = {};
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    startSteps[name] = Math.round(performance.now() - started);
  }
}

async function main() {
  const startedAt = performance.now();
  const env = loadEnv();
  const logger = pino({
    level: env.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', '*.password', '*.newPassword', '*.token'], censor: '[redacted]' },
  });
  const handle = await step('database', () => connectDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, timeouts: timeoutsFromEnv(env), log: logger }));
  logger.info({ database: handle.kind, dataDir: handle.kind === 'pglite' ? env.DATA_DIR : undefined }, 'database connected');

  // Without the request timeouts: an index build, or waiting for another instance's migration.
  const applied = await step('migrations', () => handle.withoutTimeouts(migrateToLatest));
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

  // Redis and the cache bus (decision 026); without REDIS_URL on the embedded database, nothing.
  const shared = await step('sharedState', () => connectSharedState(env, logger));

  const clock = clockFromEnv(env);
  if (env.KAROO_TEST_NOW) logger.warn({ now: clock.now().toISOString() }, 'test clock: KAROO_TEST_NOW pins the start time (NODE_ENV=test)');
  const runtime = createRuntime({ poolStats: handle.poolStats });
  if (env.S3_BUCKET && !env.DOCUMENT_ENCRYPTION_KEY && env.NODE_ENV === 'production') {
    // Instances share the bucket: a key generated on one instance's disk would not open another's files.
    throw new Error('Invalid environment:\n  DOCUMENT_ENCRYPTION_KEY: required with S3_BUCKET in production, the same on every instance (openssl rand -base64 32)');
  }
  const ctx = createAppContext({
    runtime,
    db: handle.db,
    env,
    clock,
    mailer: createMailer({ log: logger, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }),
    jobs: createJobQueue({ pool: handle.pool, kind: handle.kind, log: logger }),
    ...createStorage(env, logger),
    ...shared.context,
  });
  // The job queue's tables (pg-boss installs and migrates its own schema), each job's queue and the
  // schedules, before anything could enqueue a job; its workers start once the app is built.
  await step('jobQueue', () => ctx.jobs.start());
  logger.info({ files: env.S3_BUCKET ? `s3 bucket ${env.S3_BUCKET}` : env.FILES_DIR }, 'file storage');
  // Also without them: the seed holds its advisory lock while it hashes passwords and writes files.
  await step('seed', () => handle.withoutTimeouts((db) => seedOnFirstStart({ ...ctx, db }, logger)));

  const here = path.dirname(fileURLToPath(import.meta.url));
  const webDistDir = path.resolve(env.WEB_DIST_DIR ?? path.join(here, '../../web/dist'));
  // The public pages' server renderer, built beside the web app (decision 044); without it every page is the shell.
  const pageRenderer = await step('pageRenderer', () =>
    loadPageRenderer(webDistDir).catch((error: unknown) => {
      logger.error({ err: error }, 'server renderer failed to load: public pages are client-rendered');
      return null;
    }),
  );
  if (pageRenderer) logger.info('public pages rendered on the server');
  const app = await step('app', () => buildApp({ ctx, logger, webDistDir, pageRenderer }));

  // Mail, refunds, booking expiry and pruning run on the job queue (decision 038).
  await step('jobWorkers', () => ctx.jobs.startWorkers());
  // The public browse's memory of the listed cars (decision 028): loaded now rather than on the
  // first visit; browse pages are answered in SQL until it is ready.
  if (browseIndexEnabled(ctx)) {
    const index = ctx.browseIndex;
    const started = Date.now();
    void index.startLoading().then(() => {
      if (index.loaded) logger.info({ cars: index.size, ms: Date.now() - started }, 'browse index loaded');
      else logger.warn({ err: index.lastLoadError }, 'browse index: first load failed, the browse is answered in SQL until it loads');
    });
  }

  // Graceful shutdown (SIGTERM from an orchestrator, Ctrl-C): readiness turns 503 at once so the
  // balancer stops sending traffic; the server stops accepting connections and finishes the
  // requests in flight; jobs finish their current run; then the database closes. A second signal,
  // or SHUTDOWN_TIMEOUT_MS passing, ends the process at once.
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    shuttingDown = true;
    runtime.draining = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      logger.error({ timeoutMs: env.SHUTDOWN_TIMEOUT_MS }, 'shutdown took too long: exiting');
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    try {
      if (env.SHUTDOWN_DRAIN_MS > 0) await new Promise((resolve) => setTimeout(resolve, env.SHUTDOWN_DRAIN_MS));
      await app.close();
      // After the app: no request enqueues a job any more; the queue's workers and the interval job
      // finish the run or send in flight.
      await ctx.jobs.stop();
      ctx.mailer.close();
      await shared.close();
      await handle.close();
      logger.info('shut down cleanly');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await step('listen', () => app.listen({ port: env.PORT, host: env.HOST }));
  logger.info({ ms: Math.round(performance.now() - startedAt), steps: startSteps }, 'start-up: listening');
  logger.info(`Karoo is running on ${env.APP_URL} (mail: ${ctx.mailer.transport}, database: ${handle.kind})`);
  // A parent that started this process with an IPC channel (the tests, npm run chaos) learns the
  // moment it listens, rather than guessing how long a start takes on its machine.
  process.send?.({ type: 'listening', url: env.APP_URL });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
