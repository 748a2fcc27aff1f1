// Starts Karoo: validates the environment, opens the database, migrates, seeds on first start,
// and serves the API and the built web app from one process.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { buildApp } from './app';
import { clockFromEnv, type AppContext } from './context';
import { connectDatabase } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedOnFirstStart } from './db/seed';
import { startBookingExpiryJob } from './modules/bookings/booking-expiry.job';
import { startPruneJob } from './jobs/prune.job';
import { loadEnv } from './env';
import { createMailer } from './lib/mail';
import { LocalDiskStorage } from './lib/storage';

async function main() {
  const env = loadEnv();
  const logger = pino({
    level: env.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', '*.password', '*.newPassword', '*.token'], censor: '[redacted]' },
  });
  const handle = await connectDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  logger.info({ database: handle.kind, dataDir: handle.kind === 'pglite' ? env.DATA_DIR : undefined }, 'database connected');

  const applied = await migrateToLatest(handle.db);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

  const clock = clockFromEnv(env);
  if (env.KAROO_TEST_NOW) logger.warn({ now: clock.now().toISOString() }, 'test clock: KAROO_TEST_NOW pins the start time (NODE_ENV=test)');
  const ctx: AppContext = {
    db: handle.db,
    env,
    clock,
    mailer: createMailer({ db: handle.db, log: logger, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, clock }),
    privateFiles: new LocalDiskStorage(path.join(env.FILES_DIR, 'private')),
  };
  await seedOnFirstStart(ctx, logger);

  const here = path.dirname(fileURLToPath(import.meta.url));
  const webDistDir = path.resolve(env.WEB_DIST_DIR ?? path.join(here, '../../web/dist'));
  const app = await buildApp({ ctx, logger, webDistDir });

  const stopExpiryJob = startBookingExpiryJob(ctx, logger);
  const stopPruneJob = startPruneJob(ctx, logger);

  const shutdown = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    stopExpiryJob();
    stopPruneJob();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  logger.info(`Karoo is running on ${env.APP_URL} (mail: ${ctx.mailer.transport}, database: ${handle.kind})`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
