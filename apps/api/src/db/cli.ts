// `npm run db:migrate` and `npm run db:seed`: the same steps the server runs at start-up.
import pino from 'pino';
import { createAppContext } from '../app-context';
import { clockFromEnv } from '../context';
import { loadEnv } from '../env';
import { createMailer } from '../lib/mail';
import { createStorage } from '../lib/storage';
import { connectDatabase } from './connection';
import { migrateToLatest } from './migrate';
import { seedOnFirstStart } from './seed';

const command = process.argv[2];
const env = loadEnv();
const logger = pino({ level: env.LOG_LEVEL });
// An operator's command, not a request: no statement timeouts (a long index build is expected).
const handle = await connectDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, log: logger });
try {
  const applied = await migrateToLatest(handle.db);
  logger.info({ migrations: applied }, applied.length ? 'migrations applied' : 'database is up to date');
  if (command === 'seed') {
    const clock = clockFromEnv(env);
    await seedOnFirstStart(
      createAppContext({
        db: handle.db,
        env,
        clock,
        mailer: createMailer({ log: logger, from: env.MAIL_FROM }),
        ...createStorage(env, logger),
      }),
      logger,
    );
  }
} finally {
  await handle.close();
}
