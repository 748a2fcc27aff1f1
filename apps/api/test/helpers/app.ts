// The app under test: buildApp over a per-file database, a silent logger, files in a temp folder,
// mail in the outbox (or an SMTP server) and a clock the test controls. Tests only use inject().
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { CacheBus } from '../../src/lib/cache-bus';
import { buildApp, type BuildOptions } from '../../src/app';
import { createAppContext } from '../../src/app-context';
import type { AppContext } from '../../src/context';
import type { DatabaseHandle, Db } from '../../src/db/connection';
import { loadEnv } from '../../src/env';
import { createJobQueue, jobSchemaFor } from '../../src/jobs/queue';
import { createMailer } from '../../src/lib/mail';
import { createStorage } from '../../src/lib/storage';
import { createRuntime } from '../../src/runtime';
import { TestClock } from './clock';
import { openTestDatabase } from './db';

export const TEST_APP_URL = 'http://karoo.test';

/** One document master key for every test app of a file (made here, never stored): two apps on one bucket open each other's files. */
export const TEST_DOCUMENT_KEY = randomBytes(32).toString('base64');

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  transport: 'smtp' | 'outbox';
  status: 'pending' | 'sent' | 'kept' | 'failed';
  attempts: number;
  sent_at: Date | null;
  /** The last error of a failed attempt. */
  error: string | null;
  message_id: string | null;
  created_at: Date;
}

export interface Outbox {
  /** Every mail, newest first, optionally only those to one address (case-insensitive). */
  list(to?: string): Promise<OutboxMail[]>;
  latest(to: string): Promise<OutboxMail | undefined>;
  /** The token of the newest reset link mailed to an address. */
  resetToken(to: string): Promise<string>;
  /**
   * Runs every 'mail.send' job that is due at the test clock's now, as the mail worker would (tests
   * start no workers). Returns the attempts made.
   */
  drain(): Promise<number>;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Db;
  /** The database's handle (its pool, for a second job queue on the same database). */
  database: DatabaseHandle;
  clock: TestClock;
  outbox: Outbox;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  smtpUrl?: string;
  /** A built web app to serve (index.html and assets), as server.ts does. */
  webDistDir?: string;
  /** The public pages' server renderer, its template and the sitemap's paging (decision 044). */
  pages?: Pick<BuildOptions, 'pageRenderer' | 'pageTemplate' | 'pageLoopDelayMs' | 'sitemapUrlsPerFile'>;
  /** Give the app a runtime (shutdown state, pool use, job beats) as server.ts does. */
  runtime?: boolean;
  /** Opens the app's database instead of the file's own (through a proxy the test controls, say). */
  openDatabase?: () => Promise<DatabaseHandle>;
  /** How this app hears the other instances (two apps on one database: a shared bus, or PostgreSQL's). */
  cacheBus?: CacheBus;
}

const RESET_LINK = /\/reset-password\?token=([^\s"'<>&]+)/;

export function resetTokenFromText(text: string): string {
  const match = RESET_LINK.exec(text);
  if (!match?.[1]) throw new Error(`No reset link in mail:\n${text}`);
  return decodeURIComponent(match[1]);
}

function createOutbox(ctx: AppContext): Outbox {
  const { db } = ctx;
  const list = async (to?: string) => {
    let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc');
    if (to) query = query.where((eb) => eb(eb.fn('lower', ['to_address']), '=', to.toLowerCase()));
    const rows = await query.execute();
    return rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      transport: r.transport,
      status: r.status,
      attempts: r.attempts,
      sent_at: r.sent_at,
      error: r.last_error ?? r.error,
      message_id: r.message_id,
      created_at: r.created_at,
    }));
  };
  return {
    list,
    latest: async (to) => (await list(to))[0],
    resetToken: async (to) => {
      const mail = (await list(to))[0];
      if (!mail) throw new Error(`No mail to ${to} in the outbox`);
      return resetTokenFromText(mail.text);
    },
    drain: () => ctx.jobs.runDue('mail.send'),
  };
}

/** The app's context over `handle` as the tests build it: silent, files in `dataDir`, on a test clock. */
function createTestContext(handle: DatabaseHandle, dataDir: string, options: Pick<TestAppOptions, 'env' | 'smtpUrl' | 'runtime' | 'cacheBus'> = {}) {
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    APP_URL: TEST_APP_URL,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    // Pages render whatever the machine's load (a busy test machine's event loop falls behind);
    // page-render-bounds.test.ts turns the bound on with a delay it drives.
    RENDER_MAX_LOOP_DELAY_MS: '0',
    // Factories write cars and bookings straight in SQL (no event): the browse index looks for
    // changes before every answer, so a test reads what it just wrote.
    BROWSE_INDEX_POLL_MS: '0',
    DOCUMENT_ENCRYPTION_KEY: TEST_DOCUMENT_KEY,
    ...(options.smtpUrl ? { SMTP_URL: options.smtpUrl } : {}),
    ...options.env,
  });
  const logger = pino({ level: 'silent' });
  const clock = new TestClock();
  const ctx: AppContext = createAppContext({
    db: handle.db,
    env,
    clock,
    mailer: createMailer({ log: logger, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM }),
    // On the test's clock: nothing runs by itself, and jobs are due by the test's time.
    jobs: createJobQueue({ pool: handle.pool, kind: handle.kind, schema: jobSchemaFor(handle.schema), log: logger, testClock: clock }),
    ...createStorage(env),
    ...(options.runtime ? { runtime: createRuntime({ poolStats: handle.poolStats }) } : {}),
    ...(options.cacheBus ? { cacheBus: options.cacheBus } : {}),
  });
  return { ctx, clock, logger };
}

/**
 * Installs the job queue in a template database (setup/*.global.ts): pg-boss's tables and every
 * job's queue and schedule, so that each file's app finds them there and only checks them.
 */
export async function installJobQueue(handle: DatabaseHandle): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-api-template-'));
  try {
    const { ctx } = createTestContext(handle, dataDir);
    await ctx.jobs.start();
    await ctx.jobs.stop();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-api-test-'));
  const cleanups: (() => Promise<void>)[] = [() => rm(dataDir, { recursive: true, force: true })];
  const close = async () => {
    // App, then database, then files; a second close() does nothing.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const handle = await (options.openDatabase ?? openTestDatabase)();
    cleanups.push(() => handle.close());
    const { ctx, clock, logger } = createTestContext(handle, dataDir, options);
    await ctx.jobs.start();
    cleanups.push(() => ctx.jobs.stop());
    const app = await buildApp({ ctx, logger, ...(options.webDistDir ? { webDistDir: options.webDistDir } : {}), ...options.pages });
    cleanups.push(async () => ctx.mailer.close());
    cleanups.push(() => app.close());
    await app.ready();
    return { app, ctx, db: handle.db, database: handle, clock, outbox: createOutbox(ctx), close };
  } catch (error) {
    await close();
    throw error;
  }
}
