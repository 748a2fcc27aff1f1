// `npm run chaos -- database` (issue 18, docs/decisions/029-database-failures.md): what a database
// restart, a failover and a stalled network do to two real Karoo servers under a load of bookings
// and approvals. The servers reach PostgreSQL through a TCP proxy this script controls, on a
// database of the script's own, with the production timeouts (the defaults). In turn:
//   terminated  every backend of that database ended with pg_terminate_backend (a failover),
//   refused     the proxy resets every connection and refuses new ones (a restart),
//   closed      the database itself refuses connections (ALTER DATABASE … ALLOW_CONNECTIONS false and
//               its backends terminated: every new connection answered FATAL 55000, issue 32),
//   stalled     the proxy holds every byte both ways (a frozen server or network).
// Throughout, the load and a prober record every answer. The run passes when both servers are
// still running at the end, no request got anything but a 2xx, a 4xx or a 503 (no 500, no refused
// or cut connection) and no server-rendered page anything but a 200, both serve again within
// seconds of each return, every acknowledged write is in the database, and the mail worker has
// handled the mail queued after the database's return.
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startTcpProxy, type TcpProxy } from '../test/helpers/tcp-proxy';
import { call, freePort, Instance, isoDay, login, RENTERS, sleep } from './chaos-support';

const WORKERS = Number(process.env.CHAOS_DB_WORKERS ?? 6);
/** How long each failure lasts (s); the stall is longer than the timeouts (5 s + 1 s) on purpose. */
const REFUSE_MS = Number(process.env.CHAOS_DB_REFUSE_S ?? 8) * 1000;
const STALL_MS = Number(process.env.CHAOS_DB_STALL_S ?? 15) * 1000;
const STEADY_MS = 3000;
/** The longest any request may wait (the script gives up on it after this, and counts it as cut). */
const REQUEST_LIMIT_MS = 30_000;
/** A server not ready this long after the database's return is reported as not back. */
const NOT_BACK_AFTER_MS = 30_000;

type Phase = 'steady' | 'terminated' | 'refused' | 'recovering' | 'closed' | 'stalled' | 'after';
const PHASES: Phase[] = ['steady', 'terminated', 'refused', 'recovering', 'closed', 'stalled', 'after'];

interface Sample {
  phase: Phase;
  /** 0: no answer (connection refused or cut, or the script's 30 s limit). */
  status: number;
  ms: number;
  /** Which request: booking, approval, ready, me, browse, or one of the server-rendered pages. */
  what: string;
}

export interface DatabaseFailuresResult {
  samples: Sample[];
  /** Servers running at the end (of 2), and any exit seen on the way. */
  alive: number;
  exits: string[];
  /** ms from each return of the database until each server's /api/health/ready answered 200 again. */
  backAfterRefuse: number[];
  backAfterClosed: number[];
  backAfterStall: number[];
  acknowledged: { created: number; approved: number };
  lost: string[];
  /** Mail queued after the database's last return, and how much of it the mail worker had not handled 30 s after the load. */
  mailAfterReturn: number;
  mailStuck: number;
  passed: boolean;
}

const isPage = (sample: Sample) => sample.what.endsWith(' page');

/** A call that records its status and time, and never throws. */
async function timed(base: string, method: string, url: string, token?: string, body?: unknown) {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
    });
    const json = (await res.json().catch(() => ({}))) as { data?: { id?: string } };
    return { status: res.status, data: json.data, ms: performance.now() - started };
  } catch {
    return { status: 0, data: undefined, ms: performance.now() - started };
  }
}

/** Ends every backend of the script's own database: two statements, so that no other backend is touched. */
async function terminateBackends(adminUrl: string, database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    const pids = rows.map((row) => row.pid);
    await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    return pids.length;
  } finally {
    await admin.end();
  }
}

/** What an operator does to keep sessions out of a database (a restore, a migration by hand). */
async function allowConnections(adminUrl: string, database: string, allowed: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS ${allowed}`);
  } finally {
    await admin.end();
  }
}

async function databaseNow(url: string): Promise<Date> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ now: Date }>('SELECT now()')).rows[0]!.now;
  } finally {
    await client.end();
  }
}

/** ms until every instance's readiness answers 200 again (checked every 100 ms). */
async function msUntilReady(instances: Instance[], since: number): Promise<number[]> {
  return Promise.all(
    instances.map(async (instance) => {
      for (;;) {
        const res = await timed(instance.base, 'GET', '/api/health/ready');
        if (res.status === 200) return performance.now() - since;
        if (performance.now() - since > NOT_BACK_AFTER_MS) return Number.POSITIVE_INFINITY;
        await sleep(100);
      }
    }),
  );
}

/** The web app's build, which the servers render the public pages from (built here when missing). */
export function ensureWebBuild(): void {
  const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
  if (existsSync(path.join(webDir, 'dist/index.html')) && existsSync(path.join(webDir, 'dist-server/entry-server.js'))) return;
  process.stdout.write('  database failures: building the web app first (the servers render the public pages from it)\n');
  const build = spawnSync('npm', ['run', 'build'], { cwd: webDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the web app did not build');
}

export async function runDatabaseFailures(adminUrl: string): Promise<DatabaseFailuresResult> {
  ensureWebBuild();
  const dbName = `karoo_chaos_db_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const directUrl = new URL(adminUrl);
  directUrl.pathname = `/${dbName}`;
  const target = new URL(adminUrl);
  const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const dataDirs = await Promise.all([0, 1].map((n) => mkdtemp(path.join(tmpdir(), `karoo-chaos-db-${n}-`))));
  const namespace = `chaosdb${Date.now().toString(36)}`;
  const instances = await Promise.all(
    dataDirs.map(
      async (dataDir) =>
        new Instance(await freePort(), {
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MINUTE: '1000000',
          SEED_DEMO: 'true',
          DATABASE_URL: proxy.urlFor(directUrl.toString()),
          CACHE_NAMESPACE: namespace,
        }),
    ),
  );

  const samples: Sample[] = [];
  const exits: string[] = [];
  const acks = { created: [] as string[], approved: [] as string[] };
  const result: DatabaseFailuresResult = { samples, alive: 0, exits, backAfterRefuse: [], backAfterClosed: [], backAfterStall: [], acknowledged: { created: 0, approved: 0 }, lost: [], mailAfterReturn: 0, mailStuck: 0, passed: false };
  let phase: Phase = 'steady';
  let isStopping = false;

  try {
    // One after the other: the first migrates and seeds, the second finds it done.
    for (const instance of instances) {
      await instance.start();
      instance.child!.once('exit', (code, signal) => {
        if (!isStopping) exits.push(`${instance.base} exited (${code ?? signal}) in phase ${phase}; its last words: ${instance.log.slice(-600)}`);
      });
    }
    const [a] = instances as [Instance, Instance];
    const tokens = new Map<string, string>();
    for (const name of RENTERS) tokens.set(name, await login(a.base, name));
    const list = await call<{ car_username: string; car_owner: string }[]>(a.base, 'GET', '/api/car/getCarList?limit=48');
    if (list.status !== 200) throw new Error(`car list: ${list.status} ${list.message}`);
    const cars = list.data;
    const hostTokens = new Map<string, string>();
    for (const owner of new Set(cars.map((c) => c.car_owner))) hostTokens.set(owner, await login(a.base, owner));

    let stopped = false;
    /** Starts a request's record: it counts in the phase it was sent in. */
    const begin = (what: string) => {
      const sentIn = phase;
      return (answer: { status: number; ms: number }) => samples.push({ phase: sentIn, status: answer.status, ms: answer.ms, what });
    };
    const worker = async (n: number) => {
      for (let round = 0; !stopped; round += 1) {
        const instance = instances[(n + round) % 2]!;
        const renter = RENTERS[n % RENTERS.length]!;
        const car = cars[randomInt(cars.length)]!;
        // Far ahead and spread out, so most requests book free dates (a clash is a plain 409).
        const start = new Date(Date.now() + (60 + randomInt(3000)) * 86_400_000);
        const end = new Date(start.getTime() + (1 + randomInt(3)) * 86_400_000);
        const recordCreated = begin('booking');
        const created = await timed(instance.base, 'POST', '/api/booking/create', tokens.get(renter), {
          car_username: car.car_username,
          start_date: isoDay(start),
          end_date: isoDay(end),
          start_time: '09:00',
          end_time: '17:00',
          is_hourly_booking: false,
        });
        recordCreated(created);
        if (created.status !== 201 || !created.data?.id) {
          // Unavailable, or no server there any more: a pause, as a client would, before the next try.
          if (created.status === 503 || created.status === 0) await sleep(200);
          continue;
        }
        const id = created.data.id;
        acks.created.push(id);
        const recordApproved = begin('approval');
        const approved = await timed(instances[(n + round + 1) % 2]!.base, 'PATCH', `/api/booking/approve/${id}`, hostTokens.get(car.car_owner), {});
        recordApproved(approved);
        if (approved.status === 200) acks.approved.push(id);
      }
    };
    // Readiness, a signed-in read, the public browse (from each server's browse index) and the three
    // server-rendered pages (decision 044: a render that fails sends the client-rendered page, never
    // a 5xx) on both servers, every 250 ms.
    const prober = async () => {
      while (!stopped) {
        const probes = ['ready', 'me', 'browse', 'landing page', 'cars page', 'car page'] as const;
        const urls = {
          ready: '/api/health/ready',
          me: '/api/user/me',
          browse: '/api/car/getCarList?limit=12',
          'landing page': '/',
          'cars page': '/cars?sort=PRICE_LOW',
          'car page': `/cars/${cars[0]!.car_username}`,
        };
        await Promise.all(
          instances.flatMap((instance) =>
            probes.map(async (what) => begin(what)(await timed(instance.base, 'GET', urls[what], what === 'me' ? tokens.get('sipho') : undefined))),
          ),
        );
        await sleep(250);
      }
    };
    const load = Promise.all([...Array.from({ length: WORKERS }, (_, n) => worker(n)), prober()]);
    const say = (line: string) => process.stdout.write(`  database failures: ${line}\n`);

    await sleep(STEADY_MS);
    phase = 'terminated';
    say(`terminated ${await terminateBackends(adminUrl, dbName)} backends`);
    await sleep(STEADY_MS);

    phase = 'refused';
    say(`refusing connections for ${REFUSE_MS / 1000} s`);
    await proxy.refuse();
    await sleep(REFUSE_MS);
    await proxy.resume();
    phase = 'recovering';
    result.backAfterRefuse = await msUntilReady(instances, performance.now());
    say(`back after the refusal in ${result.backAfterRefuse.map((ms) => `${Math.round(ms)} ms`).join(' and ')}`);

    phase = 'closed';
    say(`the database refusing connections (ALLOW_CONNECTIONS false) for ${REFUSE_MS / 1000} s`);
    await allowConnections(adminUrl, dbName, false);
    try {
      say(`terminated ${await terminateBackends(adminUrl, dbName)} backends`);
      await sleep(REFUSE_MS);
    } finally {
      await allowConnections(adminUrl, dbName, true);
    }
    phase = 'recovering';
    result.backAfterClosed = await msUntilReady(instances, performance.now());
    say(`back after the database's refusal in ${result.backAfterClosed.map((ms) => `${Math.round(ms)} ms`).join(' and ')}`);

    phase = 'stalled';
    say(`stalling for ${STALL_MS / 1000} s`);
    proxy.stall();
    await sleep(STALL_MS);
    await proxy.resume();
    phase = 'recovering';
    result.backAfterStall = await msUntilReady(instances, performance.now());
    say(`back after the stall in ${result.backAfterStall.map((ms) => `${Math.round(ms)} ms`).join(' and ')}`);
    const returnedAt = await databaseNow(directUrl.toString());

    phase = 'after';
    await sleep(STEADY_MS);
    stopped = true;
    await load;

    result.alive = instances.filter((instance) => instance.isAlive).length;
    // The mail worker carried on: what the load queued after the return is handled (kept in the
    // outbox: no SMTP_URL here), by the database's clock.
    const mailSince = async () => {
      const client = new pg.Client({ connectionString: directUrl.toString() });
      await client.connect();
      try {
        const { rows } = await client.query<{ queued: number; pending: number }>(
          `SELECT count(*)::int AS queued, (count(*) FILTER (WHERE status = 'pending'))::int AS pending FROM mail_outbox WHERE created_at > $1`,
          [returnedAt],
        );
        return rows[0]!;
      } finally {
        await client.end();
      }
    };
    for (let waited = 0; ; waited += 500) {
      const { queued, pending } = await mailSince();
      result.mailAfterReturn = queued;
      result.mailStuck = pending;
      if (pending === 0 || waited >= 30_000) break;
      await sleep(500);
    }
    // Every acknowledged write, read straight from the database.
    const client = new pg.Client({ connectionString: directUrl.toString() });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string; status: string }>('SELECT id, status FROM bookings WHERE id = ANY($1::uuid[])', [acks.created]);
      const status = new Map(rows.map((row) => [row.id, row.status]));
      for (const id of acks.created) if (!status.has(id)) result.lost.push(`${id}: created, not in the database`);
      for (const id of acks.approved) {
        const now = status.get(id);
        if (now && !['confirmed', 'active', 'completed'].includes(now)) result.lost.push(`${id}: approved, now ${now}`);
      }
    } finally {
      await client.end();
    }
  } finally {
    isStopping = true;
    await Promise.all(instances.map((instance) => instance.stop()));
    await proxy.close();
    await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    const cleanup = new pg.Client({ connectionString: adminUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await cleanup.end();
  }

  result.acknowledged = { created: acks.created.length, approved: acks.approved.length };
  // A page always answers 200: rendered, or the client-rendered page when the render fails.
  const unexpected = samples.filter((s) => s.status === 0 || (s.status >= 500 && s.status !== 503) || (isPage(s) && s.status !== 200));
  const slowest = [...result.backAfterRefuse, ...result.backAfterClosed, ...result.backAfterStall].reduce((most, ms) => Math.max(most, ms), 0);
  result.passed =
    result.alive === 2 && exits.length === 0 && unexpected.length === 0 && result.lost.length === 0 && slowest < 10_000 && result.mailAfterReturn > 0 && result.mailStuck === 0;
  return result;
}

export function printDatabaseFailures(r: DatabaseFailuresResult): void {
  const seconds = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : `not within ${NOT_BACK_AFTER_MS / 1000} s`);
  console.log(`\nDatabase failures under load (${WORKERS} renters booking and hosts approving, over two servers, plus a prober)\n`);
  console.log('| phase (requests counted where they were sent) | requests | 2xx | 4xx | 503 | other 5xx | no answer | longest answer |');
  console.log('|---|---|---|---|---|---|---|---|');
  const longest = (of: Sample[]) => of.reduce<Sample | null>((most, s) => (!most || s.ms > most.ms ? s : most), null);
  for (const phase of PHASES) {
    const of = r.samples.filter((s) => s.phase === phase);
    if (!of.length) continue;
    const count = (test: (status: number) => boolean) => of.filter((s) => test(s.status)).length;
    console.log(
      `| ${phase} | ${of.length} | ${count((s) => s >= 200 && s < 300)} | ${count((s) => s >= 400 && s < 500)} | ${count((s) => s === 503)} | ${count((s) => s >= 500 && s !== 503)} | ${count((s) => s === 0)} | ${seconds(longest(of)!.ms)} (${longest(of)!.what}, ${longest(of)!.status}) |`,
    );
  }
  console.log(
    `\nservers running at the end: ${r.alive} of 2; ready again ${r.backAfterRefuse.map(seconds).join(' / ')} after the proxy's refusal, ${r.backAfterClosed.map(seconds).join(' / ')} after the database's and ${r.backAfterStall.map(seconds).join(' / ')} after the stall; ` +
      `writes acknowledged: ${r.acknowledged.created} bookings, ${r.acknowledged.approved} approvals; lost: ${r.lost.length}; ` +
      `mail queued after the last return: ${r.mailAfterReturn}, left pending by the mail worker: ${r.mailStuck}`,
  );
  const pages = r.samples.filter(isPage);
  const statuses = [...new Set(pages.map((s) => s.status))].sort().map((status) => `${pages.filter((s) => s.status === status).length} × ${status || 'no answer'}`);
  console.log(`server-rendered pages (/, /cars, a car page): ${pages.length} requests, ${statuses.join(', ')} (each must be 200: the page, or the client-rendered one)`);
  for (const line of r.exits) console.log(`EXIT: ${line}`);
  for (const line of r.lost) console.log(`LOST: ${line}`);
}
