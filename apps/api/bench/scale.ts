// `npm run bench:scale` (issue 32): account deletion and admin Finance at scale, the code before
// and after side by side on the same data, in one run.
// - The code "before" is a git ref (SCALE_BEFORE_REF, required; issue 32's is e477eef), unpacked
//   with `git archive` under .tmp/ and loaded from there; "after" is this tree.
// - For each size, a template database is created on the PostgreSQL server of BENCH_DATABASE_URL /
//   TEST_DATABASE_URL / DATABASE_URL (karoo_scale_tpl_<n>), migrated by the code before and seeded
//   (seed-scale-data.ts); each measured run gets its own copy (CREATE DATABASE ... TEMPLATE), so
//   both codes meet the same rows, and the code after applies its own migrations to its copy
//   first (timed). Every database is dropped at the end.
// - The app is built in this process as server.ts builds it (no port), with the production
//   statement timeout (DATABASE_STATEMENT_TIMEOUT_MS, 5 s), and driven through app.inject().
// Measures:
//   erasure  (SCALE_ERASURE_BOOKINGS, 100000): a member's own deletion (POST /api/privacy/account-deletion)
//            and an administrator's (DELETE /api/user/delete/{id}): status and time;
//   finance  (SCALE_FINANCE_BOOKINGS, "20000,200000"): GET /api/earnings/admin/finance, SCALE_RUNS
//            (7) times after one warm-up, median and range; the all-time CSV once; and whether the
//            answers of both codes are equal (the JSON, and the CSV byte for byte).
// SCALE_OUT=file writes the tables as markdown too. SCALE_ONLY=erasure|finance runs one part.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import pino from 'pino';
import { todayIn } from '@karoo/shared';
import { ADMIN_TARGET_USERNAME, ADMIN_USERNAME, MEMBER_USERNAME, SCALE_PASSWORD, seedScaleData, type ScaleSeedResult } from './seed-scale-data';
import { serverUrl } from './bench-db';

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = path.resolve(apiDir, '../..');
const RUNS = Number(process.env.SCALE_RUNS || 7);
const ERASURE_BOOKINGS = Number(process.env.SCALE_ERASURE_BOOKINGS || 100_000);
const FINANCE_BOOKINGS = (process.env.SCALE_FINANCE_BOOKINGS ?? '20000,200000').split(',').map(Number).filter((n) => n > 0);
const ONLY = process.env.SCALE_ONLY;
/** The all-time CSV is fetched up to this size (the code before pages it by OFFSET: hours at 200,000 bookings). */
const CSV_MAX_BOOKINGS = Number(process.env.SCALE_CSV_MAX_BOOKINGS || 20_000);
const git = (...args: string[]) => execFileSync('git', args, { cwd: repoDir, encoding: 'utf8' }).trim();

/** The code before: the ref unpacked under .tmp (its apps/api and packages/shared sources). */
function unpackBefore(): { label: string; apiSrc: string } {
  const ref = process.env.SCALE_BEFORE_REF;
  if (!ref) throw new Error('Set SCALE_BEFORE_REF to the code to compare with (issue 32: e477eef, the commit before the change)');
  const sha = git('rev-parse', '--short', ref);
  const dir = path.join(repoDir, '.tmp', `scale-before-${sha}`);
  if (!existsSync(path.join(dir, 'apps/api/src'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${sha} apps/api/src apps/api/package.json apps/api/tsconfig.json | tar -x -C ${JSON.stringify(dir)}`], { cwd: repoDir });
  }
  return { label: `before (${sha})`, apiSrc: path.join(dir, 'apps/api/src') };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the two codes' modules are loaded by path
type Loaded = Record<string, any>;
async function load(apiSrc: string, file: string): Promise<Loaded> {
  return import(pathToFileURL(path.join(apiSrc, file)).href) as Promise<Loaded>;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
const urlOf = (database: string) => {
  const url = new URL(serverUrl!);
  url.pathname = `/${database}`;
  return url.toString();
};
const dropDatabase = (name: string) => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));

/** The template of one size: migrated by the code before, seeded. */
async function createTemplate(bookings: number, before: { apiSrc: string }): Promise<{ name: string; seed: ScaleSeedResult }> {
  const name = `karoo_scale_tpl_${bookings}`;
  await dropDatabase(name);
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const { connectServer } = await load(before.apiSrc, 'db/connection.ts');
  const { migrateToLatest } = await load(before.apiSrc, 'db/migrate.ts');
  const handle = connectServer({ url: urlOf(name) });
  try {
    await migrateToLatest(handle.db);
    const seed = await seedScaleData(handle.db, bookings, todayIn(new Date()));
    return { name, seed };
  } finally {
    await handle.close();
  }
}

interface BuiltApp {
  inject: (options: { method: string; url: string; headers?: Record<string, string>; payload?: unknown }) => Promise<{ statusCode: number; body: string; json: () => unknown }>;
  migrationMs: number;
  close: () => Promise<void>;
}

/** The app of one code on one database, built as server.ts builds it (its migrations first, without timeouts). */
async function buildAppOf(apiSrc: string, database: string): Promise<BuiltApp> {
  const { buildApp } = await load(apiSrc, 'app.ts');
  const { createAppContext } = await load(apiSrc, 'app-context.ts');
  const { clockFromEnv } = await load(apiSrc, 'context.ts');
  const connection = await load(apiSrc, 'db/connection.ts');
  const { migrateToLatest } = await load(apiSrc, 'db/migrate.ts');
  const { createJobQueue } = await load(apiSrc, 'jobs/queue.ts');
  const { loadEnv } = await load(apiSrc, 'env.ts');
  const { createMailer } = await load(apiSrc, 'lib/mail.ts');
  const { createStorage } = await load(apiSrc, 'lib/storage.ts');
  const dataDir = path.join(repoDir, '.tmp', `scale-data-${database}`);
  mkdirSync(dataDir, { recursive: true });
  const env = loadEnv({ NODE_ENV: 'production', DATABASE_URL: urlOf(database), DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000', SEED_DEMO: 'false', ADMIN_PASSWORD: SCALE_PASSWORD, BROWSE_INDEX: 'off', DOCUMENT_ENCRYPTION_KEY: 'c2NhbGUtYmVuY2gta2V5LTMyLWJ5dGVzLWxvbmchISE=' });
  const logger = pino({ level: 'silent' });
  const handle = connection.connectServer({ url: urlOf(database), timeouts: connection.timeoutsFromEnv(env), log: logger });
  const at = performance.now();
  await handle.withoutTimeouts(migrateToLatest);
  const migrationMs = performance.now() - at;
  const ctx = createAppContext({
    db: handle.db,
    env,
    clock: clockFromEnv(env),
    mailer: createMailer({ log: logger, from: env.MAIL_FROM }),
    jobs: createJobQueue({ pool: handle.pool, kind: handle.kind, log: logger }),
    ...createStorage(env, logger),
  });
  await ctx.jobs.start();
  const app = await buildApp({ ctx, logger });
  await app.ready();
  return {
    inject: (options) => app.inject(options),
    migrationMs,
    close: async () => {
      await app.close();
      await ctx.jobs.stop();
      await handle.close();
    },
  };
}

async function signIn(app: BuiltApp, username: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/user/login', payload: { username, password: SCALE_PASSWORD } });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username}: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const at = performance.now();
  const value = await run();
  return { ms: performance.now() - at, value };
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const load1 = () => os.loadavg().map((n) => n.toFixed(2)).join(', ');

const report: string[] = [];
const say = (line = '') => {
  console.log(line);
  report.push(line);
};

async function withCopy<T>(template: string, apiSrc: string, run: (app: BuiltApp) => Promise<T>, afterMigrations?: (database: string) => Promise<void>): Promise<T> {
  const name = `karoo_scale_run_${process.pid}`;
  await dropDatabase(name);
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const app = await buildAppOf(apiSrc, name);
  try {
    if (afterMigrations) await afterMigrations(name);
    return await run(app);
  } finally {
    await app.close();
    await dropDatabase(name);
  }
}

/** Whether this code's migrations give notices their booking (0043). */
async function hasNoticeBookings(apiSrc: string): Promise<boolean> {
  const { migrations } = await load(apiSrc, 'db/migrations/index.ts');
  return '0043-notice-reach' in (migrations as Record<string, unknown>);
}

/**
 * The seeded notices and mail with the booking they are about, as notify() writes them from 0043 on:
 * the seed's notices link to their booking's number, and its mail names it ("booking KT….").
 */
async function recordNoticeBookings(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: urlOf(database) });
  await client.connect();
  try {
    await client.query(`UPDATE notifications n SET booking_id = b.id, reach_recorded = true FROM bookings b WHERE n.link = '/bookings/' || b.booking_number`);
    await client.query(`UPDATE mail_outbox m SET booking_id = b.id, reach_recorded = true FROM bookings b WHERE b.booking_number = substring(m.text_body from 'booking ([A-Z0-9]+)\\.')`);
    await client.query('VACUUM ANALYZE notifications');
    await client.query('VACUUM ANALYZE mail_outbox');
  } finally {
    await client.end();
  }
}

async function erasure(codes: { label: string; apiSrc: string }[]): Promise<void> {
  say(`## Account deletion at ${ERASURE_BOOKINGS.toLocaleString('en')} bookings`);
  const template = await createTemplate(ERASURE_BOOKINGS, codes[0]!);
  const s = template.seed;
  say(`Seeded in ${s.seconds.toFixed(0)} s: ${s.bookings} bookings, ${s.ledgerRows} ledger rows, ${s.messages} messages, ${s.notifications} notifications, ${s.mails} mails, ${s.auditRows} audit rows.`);
  say();
  say('| code | migrations on start | member deletes own account | admin deletes a member | load average (1, 5, 15 min) |');
  say('|---|---|---|---|---|');
  // The code after migration 0043 meets the seeded notices and mail as rows written before it (their
  // booking unknown, found by recipient); a third row gives them their booking as that code writes
  // them (recordNoticeBookings, not timed), the state every notice written from then on is in.
  const steady = { label: `${codes[1]!.label}, notices written by it`, apiSrc: codes[1]!.apiSrc, afterMigrations: recordNoticeBookings };
  try {
    for (const code of [...codes, steady] as { label: string; apiSrc: string; afterMigrations?: (database: string) => Promise<void> }[]) {
      if (code === steady && !(await hasNoticeBookings(code.apiSrc))) continue;
      await withCopy(template.name, code.apiSrc, async (app) => {
        const memberToken = await signIn(app, MEMBER_USERNAME);
        const own = await timed(() =>
          app.inject({ method: 'POST', url: '/api/privacy/account-deletion', headers: { authorization: `Bearer ${memberToken}` }, payload: { password: SCALE_PASSWORD } }),
        );
        const adminToken = await signIn(app, ADMIN_USERNAME);
        const byAdmin = await timed(() => app.inject({ method: 'DELETE', url: `/api/user/delete/${ADMIN_TARGET_USERNAME}`, headers: { authorization: `Bearer ${adminToken}` } }));
        const cell = (r: { ms: number; value: { statusCode: number; body: string } }) =>
          `${r.value.statusCode} in ${fmt(r.ms)}${r.value.statusCode >= 300 ? ` (${r.value.body.slice(0, 120).replace(/\|/g, '/')})` : ''}`;
        say(`| ${code.label} | ${fmt(app.migrationMs)} | ${cell(own)} | ${cell(byAdmin)} | ${load1()} |`);
      }, code.afterMigrations);
    }
  } finally {
    await dropDatabase(template.name);
  }
  say();
}

async function finance(codes: { label: string; apiSrc: string }[]): Promise<void> {
  for (const bookings of FINANCE_BOOKINGS) {
    say(`## Admin Finance at ${bookings.toLocaleString('en')} bookings`);
    const template = await createTemplate(bookings, codes[0]!);
    const s = template.seed;
    say(`Seeded in ${s.seconds.toFixed(0)} s: ${s.bookings} bookings, ${s.ledgerRows} ledger rows.`);
    say();
    say(`| code | migrations on start | GET /api/earnings/admin/finance, median of ${RUNS} (min-max) | last month (?from=…&to=…), median | all-time CSV | CSV size | load average |`);
    say('|---|---|---|---|---|---|---|');
    const answers: string[] = [];
    const csvs: string[] = [];
    try {
      for (const code of codes) {
        await withCopy(template.name, code.apiSrc, async (app) => {
          const token = await signIn(app, ADMIN_USERNAME);
          const headers = { authorization: `Bearer ${token}` };
          const get = async (url: string) => {
            const res = await app.inject({ method: 'GET', url, headers });
            if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
            return res.body;
          };
          const today = todayIn(new Date());
          const monthAgo = todayIn(new Date(Date.now() - 30 * 86_400_000));
          const periodUrl = `/api/earnings/admin/finance?from=${monthAgo}&to=${today}`;
          await get('/api/earnings/admin/finance');
          const all: number[] = [];
          let body = '';
          for (let i = 0; i < RUNS; i++) {
            const r = await timed(() => get('/api/earnings/admin/finance'));
            all.push(r.ms);
            body = r.value;
          }
          const period: number[] = [];
          let periodBody = '';
          for (let i = 0; i < RUNS; i++) {
            const r = await timed(() => get(periodUrl));
            period.push(r.ms);
            periodBody = r.value;
          }
          const csv = bookings <= CSV_MAX_BOOKINGS ? await timed(() => get('/api/earnings/admin/transactions.csv')) : null;
          answers.push(body + periodBody);
          if (csv) csvs.push(createHash('sha256').update(csv.value).digest('hex'));
          const csvCells = csv ? `${fmt(csv.ms)} | ${(csv.value.length / 1e6).toFixed(1)} MB, ${csv.value.split('\n').length - 2} lines` : `not fetched (SCALE_CSV_MAX_BOOKINGS=${CSV_MAX_BOOKINGS}) | -`;
          say(`| ${code.label} | ${fmt(app.migrationMs)} | ${fmt(median(all))} (${fmt(Math.min(...all))}-${fmt(Math.max(...all))}) | ${fmt(median(period))} | ${csvCells} | ${load1()} |`);
        });
      }
    } finally {
      await dropDatabase(template.name);
    }
    if (answers.length === 2) {
      say();
      const csvSame = csvs.length < 2 ? 'not compared' : csvs[0] === csvs[1] ? 'equal byte for byte' : 'DIFFERENT';
      say(`Same answers before and after: Finance JSON ${answers[0] === answers[1] ? 'equal' : 'DIFFERENT'}, CSV ${csvSame}.`);
      if (answers[0] !== answers[1]) {
        const dir = path.join(repoDir, '.tmp');
        writeFileSync(path.join(dir, `scale-finance-${bookings}-before.json`), answers[0]!);
        writeFileSync(path.join(dir, `scale-finance-${bookings}-after.json`), answers[1]!);
      }
    }
    say();
  }
}

async function main() {
  if (!serverUrl) throw new Error('Set BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL to a PostgreSQL server');
  const before = unpackBefore();
  const codes = [before, { label: `after (${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? ' + changes' : ''})`, apiSrc: path.join(apiDir, 'src') }];
  say(`# npm run bench:scale, ${new Date().toISOString()}`);
  say(`Machine: ${os.cpus().length} cores, load average at start ${load1()}; PostgreSQL at ${new URL(serverUrl).host}.`);
  say();
  if (ONLY !== 'finance') await erasure(codes);
  if (ONLY !== 'erasure') await finance(codes);
  if (process.env.SCALE_OUT) writeFileSync(process.env.SCALE_OUT, `${report.join('\n')}\n`);
}

await main();
process.exit(0);
