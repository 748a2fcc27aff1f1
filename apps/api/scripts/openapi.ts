// Prints the API description (/api/openapi.json) without a database or a port: the app is built
// over a pool that never connects, since describing routes reads no data.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../src/app';
import { createAppContext } from '../src/app-context';
import { systemClock } from '../src/context';
import type { Database } from '../src/db/schema';
import { loadEnv } from '../src/env';
import { createMailer } from '../src/lib/mail';
import { createStorage } from '../src/lib/storage';

const out = process.argv[2];
if (out) mkdirSync(path.dirname(out), { recursive: true });
const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: '.tmp/openapi', LOG_LEVEL: 'silent' });
const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/none' }) }) });
const logger = pino({ level: 'silent' });
const mailer = createMailer({ log: logger, from: env.MAIL_FROM });
const ctx = createAppContext({ db, env, clock: systemClock, mailer, ...createStorage(env) });
const app = await buildApp({ ctx, logger });
await app.ready();
const json = JSON.stringify(app.swagger(), null, 2);
if (out) writeFileSync(out, json);
else process.stdout.write(json);
await app.close();
await db.destroy();
