// What production does to a database server, done to this file's own connections (issue 18,
// docs/decisions/029-database-failures.md): the app's pool goes through a TCP proxy the test
// controls and names itself in pg_stat_activity, so that only its own backends are terminated and
// only its own traffic is stalled or refused; the PostgreSQL server other files share is left
// alone. The app must stay up, answer 503 with Retry-After (readiness too) while the database is
// away or stalled, in seconds rather than for as long as the stall lasts, serve again by itself
// within seconds of its return, and keep every write it acknowledged. Runs in the api-postgres
// project (the embedded PGlite has no connection to lose; operations.test.ts starts a real server
// on it, through the same start-up path with the timeouts set).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MARGIN_MS, connectServer, type DatabaseHandle, type DatabaseTimeouts } from '../src/db/connection';
import { isDatabaseTimeout, isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from '../src/db/connection-errors';
import { PostgresCacheBus, RESYNC } from '../src/lib/cache-bus';
import { createSignedInUser, createTestApp, expectOk, openTestDatabase, testDbKind, type TestApp } from './helpers';
import { uniqueNamespace } from './helpers/instances';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { createTestCar } from './helpers/vehicles';

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const onPostgres = testDbKind === 'postgres' && !!DATABASE_URL;

/** Short, so that the file runs in seconds: a stalled request must answer by statement + margin (2 s). */
const TIMEOUTS: DatabaseTimeouts = { connectMs: 1000, statementMs: 1000, idleInTransactionMs: 1500 };
/**
 * The longest a request may take while the database is stalled or gone: the wait for one stalled
 * statement (statement timeout and margin, 2 s), never two in a row, and room for a loaded machine.
 */
const ANSWER_WITHIN_MS = TIMEOUTS.statementMs + ANSWER_MARGIN_MS + 1500;
/** The longest the app may take to serve again once the database is back. */
const BACK_WITHIN_MS = 5000;

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('which failures mean "the database is unavailable"', () => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  it('connection-level failures, and nothing a request did wrong', () => {
    for (const error of [
      coded('ECONNREFUSED'),
      coded('ECONNRESET'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      coded('57014', 'canceling statement due to statement timeout'),
      coded('25P03', 'terminating connection due to idle-in-transaction timeout'),
      coded('08006'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Connection terminated unexpectedly'),
      new Error('Query read timeout'),
      new Error('Client has encountered a connection error and is not queryable'),
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')], 'connect failed'),
      new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') }),
      // ALTER DATABASE … ALLOW_CONNECTIONS false: the server's FATAL answer to a new connection (issue 32).
      Object.assign(coded('55000', 'database "karoo" is not currently accepting connections'), { severity: 'FATAL' }),
      coded('57P05', 'terminating connection due to idle-session timeout'),
      // pg-boss appends its queue and worker to the message of an error it reports.
      new Error('Connection terminated unexpectedly (Queue: mail.send, Worker: 5d1c0e4b)'),
      coded('57P01', 'terminating connection due to administrator command (Queue: mail.send, Worker: 5d1c0e4b)'),
      // A wrapper's own error, the driver's inside it.
      new Error('could not load the settings', { cause: new Error('x', { cause: coded('ECONNREFUSED') }) }),
    ]) {
      expect(isDatabaseUnavailable(error), error.message).toBe(true);
    }
    for (const error of [
      coded('23505'),
      coded('22P02'),
      coded('42P01'),
      // 55000 inside a session is the statement's fault (currval before nextval), not the database's absence.
      Object.assign(coded('55000', 'currval of sequence "s" is not yet defined in this session'), { severity: 'ERROR' }),
      // A server's answer is classified by its code, whatever its words.
      coded('42601', 'Connection terminated near "x"'),
      new Error('boom'),
      'ECONNREFUSED',
      null,
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
  });

  it("node-postgres still starts its code-less failures with the words classified here", () => {
    // The driver gives these no code; if an upgrade rewords one, this fails before production does.
    const fromPg = createRequire(createRequire(import.meta.url).resolve('pg'));
    const source = [fromPg.resolve('./client.js'), fromPg.resolve('pg-pool')].map((file) => readFileSync(file, 'utf8')).join('\n');
    for (const words of ['timeout exceeded when trying to connect', 'Connection terminated unexpectedly', 'Connection terminated due to connection timeout', 'Query read timeout', 'Client has encountered a connection error and is not queryable', 'Client was closed and is not queryable']) {
      expect(source, words).toContain(`new Error('${words}'`);
      expect(isDatabaseUnavailable(new Error(words)), words).toBe(true);
    }
  });

  it('among them, the ones a timeout found (trying again at once would wait as long again)', () => {
    for (const error of [coded('57014'), new Error('Query read timeout'), new Error('timeout exceeded when trying to connect')]) {
      expect(isDatabaseTimeout(error), error.message).toBe(true);
    }
    for (const error of [coded('57P01'), coded('ECONNREFUSED'), new Error('Connection terminated unexpectedly')]) {
      expect(isDatabaseTimeout(error), error.message).toBe(false);
    }
  });
});

describe.skipIf(!onPostgres)('PostgreSQL connections lost, refused and stalled', () => {
  const applicationName = `karoo-test-${randomBytes(4).toString('hex')}`;
  /** This file's schema, straight to the server: where the test reads back and terminates from. */
  let base: DatabaseHandle;
  /** The app's database: the same schema, through the proxy, with short timeouts. */
  let appHandle: DatabaseHandle;
  let proxy: TcpProxy;
  let t: TestApp;
  let renter: Awaited<ReturnType<typeof createSignedInUser>>;
  let carUsername: string;
  /** Bookings the app answered 201 for: each must be in the database at the end. */
  const acknowledged: string[] = [];
  let nextDay = 0;

  /** Ends this file's own backends only (by application_name), as pg_terminate_backend does in a failover. */
  const terminateOwnBackends = async (): Promise<number> => {
    // The pids first, in a statement of their own: in one statement the planner may call
    // pg_terminate_backend before it filters on the name, and end other files' backends too.
    const { rows: own } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE application_name = ${applicationName}`.execute(base.db);
    const pids = own.map((row) => row.pid);
    const { rows } = await sql<{ ended: number }>`SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS ended
      FROM unnest(${pids}::int[]) AS pid`.execute(base.db);
    // Until the server has ended them (and told their clients so).
    for (let waited = 0; waited < 5000; waited += 20) {
      const { rows: left } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${applicationName}`.execute(base.db);
      if (left[0]!.n === 0) break;
      await sleep(20);
    }
    return rows[0]!.ended;
  };

  const me = () => t.app.inject({ method: 'GET', url: '/api/user/me', headers: renter.headers });
  const browse = () => t.app.inject({ method: 'GET', url: '/api/car/getCarList?limit=12' });
  const ready = () => t.app.inject({ method: 'GET', url: '/api/health/ready' });
  const book = async () => {
    nextDay += 2;
    const start = new Date(Date.UTC(2030, 3, 1 + nextDay)).toISOString().slice(0, 10);
    const end = new Date(Date.UTC(2030, 3, 2 + nextDay)).toISOString().slice(0, 10);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/booking/create',
      headers: renter.headers,
      payload: { car_username: carUsername, start_date: start, end_date: end, start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
    });
    if (res.statusCode === 201) acknowledged.push((res.json() as { data: { id: string } }).data.id);
    return res;
  };

  /** The answer while the database is away: 503, the message, Retry-After; never a 500. */
  const expectUnavailable = (res: LightMyRequestResponse, what: string) => {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(503);
    expect(res.json(), what).toEqual({ success: false, message: UNAVAILABLE_MESSAGE });
    expect(res.headers['retry-after'], what).toBe('5');
  };

  const timed = async (request: () => Promise<LightMyRequestResponse>) => {
    const started = performance.now();
    const res = await request();
    return { res, ms: performance.now() - started };
  };

  /** Milliseconds until `request` answers 200 again (it is asked every 100 ms). */
  const msUntilServed = async (request: () => Promise<LightMyRequestResponse>) => {
    const started = performance.now();
    for (;;) {
      const res = await request();
      if (res.statusCode === 200) return performance.now() - started;
      expect(res.statusCode, res.body).toBe(503);
      if (performance.now() - started > 3 * BACK_WITHIN_MS) throw new Error(`not served again after ${3 * BACK_WITHIN_MS} ms: ${res.body}`);
      await sleep(100);
    }
  };

  beforeAll(async () => {
    base = await openTestDatabase();
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(base.db);
    const target = new URL(DATABASE_URL!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    t = await createTestApp({
      runtime: true,
      // Every browse answered by the database, not by a page kept from before the outage.
      env: { BROWSE_CACHE_MS: '0' },
      openDatabase: async () => {
        appHandle = connectServer({ url: proxy.urlFor(base.url!), schema: rows[0]!.schema, timeouts: TIMEOUTS, applicationName, log });
        return appHandle;
      },
    });
    t.clock.set('2030-03-10T08:00:00Z');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    carUsername = (await createTestCar(t.ctx, host.user)).car_username;
  });

  afterAll(async () => {
    await proxy?.resume();
    await t?.close();
    await proxy?.close();
    await base?.close();
  });

  it('terminated backends: the idle connections go without crashing the process, and the next requests are served', async () => {
    // Several connections open and idle in the pool.
    for (const res of await Promise.all([me(), me(), browse(), book()])) expect(res.statusCode, res.body).toBeLessThan(300);
    expect(await terminateOwnBackends()).toBeGreaterThan(0);
    // A request that picks an idle connection before its client has read the server's goodbye may
    // get a 503; the next ones get new connections.
    expect(await msUntilServed(me)).toBeLessThan(BACK_WITHIN_MS);
    expectOk(await browse());
    expectOk(await book(), 201);
    expectOk(await ready());
  });

  it('a connection lost inside a transaction fails that transaction as "unavailable", and only it', async () => {
    const lost = t.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      // The server ends the session while the request holds the connection between two statements.
      await terminateOwnBackends();
      await sql`SELECT 1`.execute(trx);
    });
    await expect(lost).rejects.toSatisfy(isDatabaseUnavailable);
    expectOk(await me());
  });

  it('idle_in_transaction_session_timeout and statement_timeout are set on the server connections', async () => {
    const idle = t.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      await sleep(TIMEOUTS.idleInTransactionMs + 700);
      await sql`SELECT 1`.execute(trx);
    });
    await expect(idle).rejects.toSatisfy(isDatabaseUnavailable);
    const started = performance.now();
    await expect(sql`SELECT pg_sleep(10)`.execute(t.db)).rejects.toMatchObject({ code: '57014' });
    expect(performance.now() - started).toBeLessThan(TIMEOUTS.statementMs + 1000);
    const setting = (db: typeof t.db) => sql<{ timeout: string }>`SELECT current_setting('statement_timeout') AS timeout`.execute(db);
    expect((await setting(t.db)).rows[0]!.timeout).toBe('1s');
    // The migrations and the first-start seed run without them (an index build, another instance's lock).
    await appHandle.withoutTimeouts(async (db) => {
      expect((await setting(db)).rows[0]!.timeout).toBe('0');
      await sql`SELECT pg_sleep(${(TIMEOUTS.statementMs + 500) / 1000})`.execute(db);
    });
    expectOk(await me());
  });

  it('while the database refuses connections: 503 with Retry-After (readiness too), the process stays up, back within seconds', async () => {
    expectOk(await book(), 201);
    await proxy.refuse();
    try {
      for (const [what, request] of [['me', me], ['browse', browse], ['booking', book]] as const) {
        const { res, ms } = await timed(request);
        expectUnavailable(res, what);
        expect(ms, what).toBeLessThan(ANSWER_WITHIN_MS);
      }
      const notReady = await ready();
      expect(notReady.statusCode).toBe(503);
      expect(notReady.json()).toMatchObject({ message: 'Not ready: database not reachable', data: { status: 'not_ready', checks: { database: 'down' } } });
      expectOk(await t.app.inject({ method: 'GET', url: '/api/health/live' }));
    } finally {
      await proxy.resume();
    }
    expect(await msUntilServed(ready)).toBeLessThan(BACK_WITHIN_MS);
    expectOk(await me());
    expectOk(await book(), 201);
  });

  it('while the database is stalled: /api/user/me, browse and a booking answer 503 in seconds, not after the stall; then serve again', async () => {
    // Connections idle in the pool, enough for every statement below (each will wait for an answer
    // the stall holds back); past them, new ones wait to connect.
    for (const res of await Promise.all([me(), me(), me(), me(), me(), me(), me(), browse()])) expect(res.statusCode).toBe(200);
    // The browse index loaded: a browse then looks for changes first, and must not fall back to the
    // SQL after a look the stall failed (a second wait as long).
    await t.ctx.browseIndex.startLoading();
    expect(t.ctx.browseIndex.loaded).toBe(true);
    proxy.stall();
    try {
      const answers = await Promise.all([timed(me), timed(browse), timed(book), timed(me), timed(book)]);
      answers.forEach(({ res, ms }, n) => {
        expectUnavailable(res, `request ${n}`);
        expect(ms, `request ${n}`).toBeLessThan(ANSWER_WITHIN_MS);
      });
      const { res: notReady, ms } = await timed(ready);
      expect(notReady.statusCode).toBe(503);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    } finally {
      await proxy.resume();
    }
    expect(await msUntilServed(me)).toBeLessThan(BACK_WITHIN_MS);
    expectOk(await browse());
    expectOk(await book(), 201);
  });

  it('every booking the app acknowledged is in the database', async () => {
    expect(acknowledged.length).toBeGreaterThanOrEqual(4);
    const found = await base.db.selectFrom('bookings').select('id').where('id', 'in', acknowledged).execute();
    expect(found.map((b) => b.id).sort()).toEqual([...acknowledged].sort());
  });

  it('the LISTEN/NOTIFY cache bus: a publish during a stall returns in seconds; terminated or refused, it listens again and resyncs', async () => {
    const namespace = uniqueNamespace();
    const url = proxy.urlFor(DATABASE_URL!);
    const [a, b] = [
      new PostgresCacheBus({ url, namespace, log, timeouts: TIMEOUTS, applicationName }),
      new PostgresCacheBus({ url, namespace, log, timeouts: TIMEOUTS, applicationName }),
    ];
    try {
      expect(await a.listen()).toBe(true);
      expect(await b.listen()).toBe(true);
      let resyncs = 0;
      const heard: unknown[] = [];
      b.subscribe('browse', (payload) => {
        if (payload === RESYNC) resyncs += 1;
        else heard.push(payload);
      });
      const until = async (what: string, holds: () => boolean) => {
        for (let waited = 0; !holds(); waited += 20) {
          if (waited > BACK_WITHIN_MS) throw new Error(`cache bus: not ${what} after ${waited} ms`);
          await sleep(20);
        }
      };
      const hears = (n: number) => until(`heard message ${n}`, () => heard.some((p) => (p as { n: number }).n === n));

      await terminateOwnBackends();
      await until('resynced', () => resyncs === 1);
      await a.publish('browse', { n: 1 });
      await hears(1);

      proxy.stall();
      const started = performance.now();
      try {
        await a.publish('browse', { n: 2 });
        expect(performance.now() - started).toBeLessThan(ANSWER_WITHIN_MS);
      } finally {
        await proxy.resume();
      }

      await proxy.refuse();
      await sleep(300);
      await proxy.resume();
      await until('resynced again', () => resyncs === 2);
      await a.publish('browse', { n: 3 });
      await hears(3);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
