// The one job queue (docs/decisions/038-one-job-queue.md): every background job of Karoo is a
// pg-boss job in the app's own database, the embedded PGlite or PostgreSQL, through one code path.
// pg-boss runs its statements on the app's connection pool (on PGlite, its one session); a job is
// enqueued through the transaction of the change that causes it, so it exists only if that change
// commits. Every instance runs the workers; pg-boss claims each job with FOR UPDATE SKIP LOCKED, so
// one instance runs it. Scheduled jobs (cron) are sent by one instance per tick.
//
// ── How to put a new kind of job on the queue (refund attempts, say) ──────────────────────────────
// 1. Declare the job's name and payload in the module that owns it, by merging into JobPayloads
//    (as modules declare their DomainEvents):
//        declare module '../../jobs/queue' {
//          interface JobPayloads { 'refunds.attempt': { refundId: string } }
//        }
// 2. Define it, with the zod schema of its payload (the compiler holds it to the declared type), and
//    add the definition to JOBS in app-context.ts (its queue and its dead-letter queue '<name>.dead'
//    are created when the queue starts):
//        export const refundAttemptJob = (ctx: AppContext): JobDefinition<'refunds.attempt'> => ({
//          name: 'refunds.attempt',
//          payload: z.object({ refundId: z.uuid() }),
//          retry: { limit: 8, delaySeconds: 60, maxDelaySeconds: 6 * 3600 },
//          timeoutSeconds: 120,
//          run: async (job) => attemptRefund(ctx, job.data.refundId, { isLastAttempt: job.isLastAttempt }),
//        });
// 3. Enqueue it inside the unit of work that causes it (a domain Tx from inTransaction):
//        await ctx.jobs.enqueue(tx, 'refunds.attempt', { refundId }, { delaySeconds: 0, singletonKey: refundId });
//    Rolled back, the job never existed; committed, this instance's worker is woken at once.
// 4. run() resolves: the job is completed. run() throws: the attempt failed, and pg-boss tries again
//    after delaySeconds × 2^n (times a random 1 to 2, at most maxDelaySeconds); after `limit`
//    retries the job is failed and a copy goes to '<name>.dead', where it waits for a person.
//    job.isLastAttempt says this is the last try (to record a final state in your own table).
// 5. A payload is checked against the schema when it is enqueued (a wrong one throws, rolling the
//    change back) and again when it is taken off the queue. It is stored with its shape's version
//    beside its own fields (`_v`; SQL still reads `data->>'refundId'`): a job
//    written by another version of the code (an instance not yet upgraded, a job queued before a
//    deploy) is read by `upgrade` if the definition has one, and one that still does not fit is not
//    run: it goes to '<name>.dead' with the reason at once (retrying cannot mend it). Change a
//    payload's shape by raising `version` and giving `upgrade` the old shapes.
// 6. A job runs at least once, not exactly once: a worker that dies mid-run leaves it active, and
//    after timeoutSeconds it is tried again. Make run() idempotent (check your row's state first).
// 7. Tests do not start workers: `await t.ctx.jobs.runDue('refunds.attempt')` runs, here and now,
//    every job of that name that is due at the test clock's time, as a worker would.
// Metrics (plugins/metrics.ts): karoo_jobs_total{queue, outcome} and karoo_job_queue_depth{queue, state}.
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, TestClock as BossTestClock, fromKysely, type Db as BossDb, type JobWithMetadata } from 'pg-boss';
import type pg from 'pg';
import type { Clock } from '../context';
import type { Db } from '../db/connection';
import { isDatabaseUnavailable } from '../db/connection-errors';
import { z } from 'zod';

/** Every job's name and payload: filled in by the modules that own the jobs (see above). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the job owners merge their payloads into it
export interface JobPayloads {}

export type JobName = keyof JobPayloads & string;

/** Exponential backoff: the n-th retry waits delaySeconds × 2^(n-1), times a random 1 to 2, capped. */
export interface RetryPolicy {
  /** Retries after the first attempt; then the job is failed and dead-lettered. */
  limit: number;
  delaySeconds: number;
  maxDelaySeconds: number;
}

export interface QueuedJob<N extends JobName> {
  id: string;
  name: N;
  data: JobPayloads[N];
  /** 1 for the first attempt. */
  attempt: number;
  /** No retry follows if this attempt fails. */
  isLastAttempt: boolean;
  /** The queue's logger, for what the job did. */
  log: FastifyBaseLogger;
}

export interface JobDefinition<N extends JobName = JobName> {
  name: N;
  /** The payload's schema: checked on enqueue and when the job is taken off the queue. */
  payload: z.ZodType<JobPayloads[N]>;
  /** The payload's shape version (1 unless it changed); stored with each job. */
  version?: number;
  /**
   * Reads a payload stored by an older version (`from`, 0 for a job queued before payloads carried
   * one) into today's shape; without it only today's version is run.
   */
  upgrade?(stored: unknown, from: number): unknown;
  retry: RetryPolicy;
  /** How long one attempt may stay active before it counts as failed (its worker died) and is retried. */
  timeoutSeconds: number;
  /** A cron expression (Africa/Johannesburg): pg-boss sends the job on it, from one instance per tick. */
  cron?: string;
  /** How often an idle worker looks for due jobs (retries, jobs enqueued by another instance). */
  pollSeconds?: number;
  /**
   * pg-boss's queue policy: 'exclusive' keeps at most one job per singletonKey queued, waiting for a
   * retry or active (a refund is asked by one job at a time); 'standard' (the default) keeps no limit.
   */
  policy?: 'standard' | 'exclusive';
  run(job: QueuedJob<N>): Promise<void>;
}

/** The payload of a job that carries none (the scheduled sweeps): nothing, and nothing else. */
export const NO_PAYLOAD = z.object({}).strict();

/** The key of a stored payload's version, beside the payload's own fields. */
const VERSION_KEY = '_v';

/** What a definition stores for `data` (checked: a wrong payload is a bug in the caller, thrown). */
export function storedPayload<N extends JobName>(definition: Pick<JobDefinition<N>, 'name' | 'payload' | 'version'>, data: JobPayloads[N]): Record<string, unknown> {
  const checked = definition.payload.safeParse(data);
  if (!checked.success) throw new Error(`The payload of a ${definition.name} job does not fit its schema: ${z.prettifyError(checked.error)}`);
  return { ...(checked.data as object), [VERSION_KEY]: definition.version ?? 1 };
}

/**
 * A stored job's payload in today's shape, or why it cannot be run. A job from before payloads
 * carried a version is version 0, its data the payload itself.
 */
export function takenPayload<N extends JobName>(definition: Pick<JobDefinition<N>, 'payload' | 'version' | 'upgrade'>, data: unknown): { ok: true; payload: JobPayloads[N] } | { ok: false; reason: string } {
  const version = definition.version ?? 1;
  const { [VERSION_KEY]: storedVersion, ...fields } = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const from = typeof storedVersion === 'number' ? storedVersion : 0;
  let payload: unknown = fields;
  if (from !== version) {
    // Version 0 (no `_v`) and 1 are one shape unless the definition says otherwise: 1 is where every job began.
    if (definition.upgrade) payload = definition.upgrade(fields, from);
    else if (!(from === 0 && version === 1)) return { ok: false, reason: `payload version ${from}; this code reads version ${version} and has no upgrade from it` };
  }
  const checked = definition.payload.safeParse(payload);
  return checked.success ? { ok: true, payload: checked.data } : { ok: false, reason: `payload does not fit its schema: ${z.prettifyError(checked.error)}` };
}

/** A definition of any of the jobs. */
export type AnyJobDefinition = { [N in JobName]: JobDefinition<N> }[JobName];

/** What enqueue needs of a unit of work: a domain Tx (events/domain-events.ts) fits. */
export interface JobTransaction {
  /** The transaction's handle: the job is inserted through it. */
  db: Db;
  /** The transaction's clock reading. */
  now: Date;
  afterCommit?(effect: () => void): void;
}

export interface EnqueueOptions {
  /** Run no earlier than this many seconds after the transaction's time. */
  delaySeconds?: number;
  /** At most one queued job with this key (a second enqueue is dropped and returns null). */
  singletonKey?: string;
}

export type JobOutcome = 'completed' | 'retried' | 'failed';

export interface QueueDepth {
  queue: string;
  /** queued: due now; deferred: waiting for its time (a retry's backoff); active: running; failed: given up. */
  state: 'queued' | 'deferred' | 'active' | 'failed';
  count: number;
}

export interface JobQueue {
  /** The PostgreSQL schema of pg-boss's tables. */
  readonly schema: string;
  /** True for a context built without a queue (detachedJobQueue): enqueuing would throw. */
  readonly detached?: boolean;
  /** Adds a job kind; before start(). */
  define<N extends JobName>(definition: JobDefinition<N>): void;
  /**
   * Installs or migrates pg-boss's tables and creates each job's queue, dead-letter queue and
   * schedule: from then on jobs can be enqueued. Workers start with startWorkers().
   */
  start(): Promise<void>;
  /** Every instance runs a worker per job kind (server.ts; tests use runDue instead). */
  startWorkers(): Promise<void>;
  /** Enqueues a job through `tx`: it exists only if the transaction commits. Returns its id. */
  enqueue<N extends JobName>(tx: JobTransaction, name: N, data: JobPayloads[N], options?: EnqueueOptions): Promise<string | null>;
  /** Runs here, one after another, every job of `name` that is due now; returns how many ran. */
  runDue(name: JobName): Promise<number>;
  /** Tells this instance's worker of `name` to look now (a commit enqueued a job for it). */
  wake(name: JobName): void;
  /**
   * pg-boss's maintenance of `name` now: an attempt active past its timeout (its worker died) is
   * failed and retried. Every instance does it about once a minute; tests call it.
   */
  supervise(name: JobName): Promise<void>;
  /** Attempts this instance has run, by queue and outcome, since it started (for /metrics). */
  outcomes(): { queue: string; outcome: JobOutcome; count: number }[];
  /** Jobs in the database by queue and state, the same on every instance (for /metrics). */
  depth(): Promise<QueueDepth[]>;
  /** Stops the workers (waiting for the jobs they are running) and the schedules' clock. */
  stop(): Promise<void>;
}

export const deadLetterQueueOf = (name: string) => `${name}.dead`;

/** How long a dead letter is kept for a person to look at. */
const DEAD_LETTER_RETENTION_SECONDS = 30 * 24 * 3600;
/** Where the cron expressions are read. */
const SCHEDULE_TIME_ZONE = 'Africa/Johannesburg';
const STOP_TIMEOUT_MS = 20_000;

/**
 * pg-boss's database: its statements on the app's pool, each on a connection that has run the
 * session statements pg-boss asked for (only its TestClock asks: the opt-in to the test's time).
 * A statement that fails inside a transaction pg-boss opened in the same text leaves the session
 * in a failed transaction: on PGlite that one session is everyone's, so it is rolled back here.
 */
function poolDatabase(pool: pg.Pool): BossDb {
  let statements: string[] = [];
  let generation = 0;
  const setUp = new WeakMap<pg.PoolClient, number>();
  return {
    async executeSql(text, values) {
      const client = await pool.connect();
      try {
        if (setUp.get(client) !== generation) {
          for (const statement of statements) await client.query(statement);
          setUp.set(client, generation);
        }
        // Several statements in one text come back as an array of results: pg-boss unwraps it.
        const result = (await client.query(text, values)) as unknown as { rows: unknown[] };
        client.release();
        return result;
      } catch (error) {
        // A connection that cannot even roll back is dropped rather than handed to the next query.
        const isUsable = await client.query('ROLLBACK').then(
          () => true,
          () => false,
        );
        client.release(isUsable ? undefined : (error as Error));
        throw error;
      }
    },
    async setSessionStatements(next) {
      statements = next;
      generation += 1;
    },
  };
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export interface JobQueueOptions {
  /** The app's pool (DatabaseHandle.pool). */
  pool: pg.Pool;
  kind: 'pglite' | 'postgres';
  /** pg-boss's schema; `pgboss` unless the app's tables are in a schema of their own (tests). */
  schema?: string;
  log: FastifyBaseLogger;
  /**
   * Tests: pg-boss reads its time from this clock, the test's, not from the database, and nothing
   * runs by itself (no polling, no maintenance, no cron): the test calls runDue.
   */
  testClock?: Clock;
}

/** pg-boss's schema beside the app's: `pgboss`, or `<schema>_jobs` when the app has a schema of its own. */
export function jobSchemaFor(appSchema: string | undefined): string {
  return appSchema ? `${appSchema}_jobs` : 'pgboss';
}

/**
 * pg-boss's clock for a test clock: one per test clock, so that several queues of one test (two
 * "instances" on one database) keep one time in the database, moved one step at a time.
 */
const followers = new WeakMap<Clock, { boss: BossTestClock; turn: Promise<void> }>();

function followerOf(testClock: Clock) {
  let follower = followers.get(testClock);
  if (!follower) {
    follower = { boss: new BossTestClock(testClock.now()), turn: Promise.resolve() };
    followers.set(testClock, follower);
  }
  return follower;
}

export function createJobQueue(options: JobQueueOptions): JobQueue {
  const { log, testClock } = options;
  const schema = options.schema ?? 'pgboss';
  const definitions = new Map<string, JobDefinition>();
  const counts = new Map<string, number>();
  const workerIds = new Map<string, string>();
  const follower = testClock ? followerOf(testClock) : undefined;
  const bossClock = follower?.boss;
  const background = !bossClock;
  const db = poolDatabase(options.pool);
  const boss = new PgBoss({
    db,
    schema,
    backend: options.kind,
    ...(bossClock ? { clock: bossClock } : {}),
    // Maintenance (expiring the jobs of dead workers, deleting old ones) and the cron pass; both
    // claim their turn in the database, so running them on every instance does each once.
    supervise: background,
    schedule: background,
    registerInstance: background,
    // REINDEX CONCURRENTLY is for a busy server; the embedded database is small and single-session.
    reindex: options.kind === 'postgres',
  });
  // pg-boss reports trouble as events; an 'error' event nobody hears would end the process. The
  // database away (a restart, a failover) is no bug: its polls fail until it is back (decision 029).
  boss.on('error', (error) => {
    if (isDatabaseUnavailable(error)) log.warn({ err: error }, 'job queue: database unavailable');
    else log.error({ err: error }, 'job queue error');
  });
  boss.on('warning', (warning) => log.warn({ warning }, 'job queue warning'));

  /** Tests: pg-boss's time becomes the test clock's now (one move at a time, and only if it moved). */
  const followTestClock = () => {
    if (!follower || !testClock) return Promise.resolve();
    follower.turn = follower.turn.catch(() => {}).then(async () => {
      const now = testClock.now().getTime();
      if (follower.boss.now() !== now) await follower.boss.setTime(now);
    });
    return follower.turn;
  };

  const count = (queue: string, outcome: JobOutcome) => {
    const key = `${queue}\u0000${outcome}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  };

  /**
   * One attempt: the definition's run, its outcome counted and logged; rethrows so pg-boss retries.
   * A payload this code cannot read is not run: a copy goes to the dead-letter queue with the reason,
   * and the job ends (no retry could make it readable).
   */
  async function attempt(definition: JobDefinition, job: JobWithMetadata<unknown>): Promise<void> {
    const taken = takenPayload(definition, job.data);
    if (!taken.ok) {
      count(definition.name, 'failed');
      log.error({ job: definition.name, jobId: job.id, reason: taken.reason }, `${definition.name} not run: its payload cannot be read; dead-lettered`);
      await boss.send(deadLetterQueueOf(definition.name), { job: job.id, reason: taken.reason, data: job.data });
      return;
    }
    const queued = {
      id: job.id,
      name: definition.name,
      data: taken.payload as never,
      attempt: job.retryCount + 1,
      isLastAttempt: job.retryCount >= job.retryLimit,
      log,
    };
    try {
      await definition.run(queued);
      count(definition.name, 'completed');
    } catch (error) {
      count(definition.name, queued.isLastAttempt ? 'failed' : 'retried');
      const details = { job: definition.name, jobId: job.id, attempt: queued.attempt, reason: reasonOf(error) };
      if (queued.isLastAttempt) log.error(details, `${definition.name} failed after its last attempt: dead-lettered`);
      else log.warn(details, `${definition.name} failed; it will be retried`);
      throw error;
    }
  }

  const definitionOf = (name: string): JobDefinition => {
    const definition = definitions.get(name);
    if (!definition) throw new Error(`No job is defined as ${name}`);
    return definition;
  };

  const queue: JobQueue = {
    schema,
    define(definition) {
      definitions.set(definition.name, definition as unknown as JobDefinition);
    },

    async start() {
      await boss.start();
      for (const definition of definitions.values()) {
        const dead = deadLetterQueueOf(definition.name);
        await boss.createQueue(dead, { retentionSeconds: DEAD_LETTER_RETENTION_SECONDS });
        const queue = {
          retryLimit: definition.retry.limit,
          retryDelay: definition.retry.delaySeconds,
          retryBackoff: true,
          retryDelayMax: definition.retry.maxDelaySeconds,
          expireInSeconds: definition.timeoutSeconds,
          deadLetter: dead,
        };
        const policy = definition.policy ?? 'standard';
        // A queue made by an earlier version gets today's policy.
        if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, queue);
        else await boss.createQueue(definition.name, { ...queue, policy });
        // A tick missed while every instance was down is sent once when one is back.
        if (definition.cron) await boss.schedule(definition.name, definition.cron, storedPayload(definition, {} as never), { tz: SCHEDULE_TIME_ZONE, missed: 'once' });
        else await boss.unschedule(definition.name);
      }
    },

    async startWorkers() {
      for (const definition of definitions.values()) {
        const id = await boss.work(
          definition.name,
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: definition.pollSeconds ?? 2 },
          async ([job]) => {
            if (!job) return;
            await attempt(definition, job);
            // A worker that found a job looks for the next at once: a backlog (the seed's photos, a
            // sweep's batch) drains job after job, and only an empty look waits the poll interval.
            const id = workerIds.get(definition.name);
            if (id) boss.notifyWorker(id);
          },
        );
        workerIds.set(definition.name, id);
      }
    },

    async enqueue(tx, name, data, enqueueOptions = {}) {
      const stored = storedPayload(definitionOf(name) as unknown as JobDefinition<typeof name>, data);
      const delaySeconds = enqueueOptions.delaySeconds ?? 0;
      // Under a test clock the job is due at the transaction's time (the test's), not the database's.
      const startAfter = bossClock ? new Date(tx.now.getTime() + delaySeconds * 1000) : delaySeconds > 0 ? delaySeconds : undefined;
      const id = await boss.send(name, stored, {
        db: fromKysely(tx.db),
        ...(startAfter !== undefined ? { startAfter } : {}),
        ...(enqueueOptions.singletonKey ? { singletonKey: enqueueOptions.singletonKey } : {}),
      });
      tx.afterCommit?.(() => queue.wake(name));
      return id;
    },

    async runDue(name) {
      const definition = definitionOf(name);
      await followTestClock();
      const seen = new Set<string>();
      for (;;) {
        const [job] = await boss.fetch(name, { batchSize: 1, includeMetadata: true });
        if (!job || seen.has(job.id)) return seen.size;
        seen.add(job.id);
        try {
          await attempt(definition, job);
          await boss.complete(name, job.id);
        } catch (error) {
          await boss.fail(name, job.id, { message: reasonOf(error) });
        }
      }
    },

    async supervise(name) {
      await followTestClock();
      await boss.supervise(name);
    },

    wake(name) {
      const id = workerIds.get(name);
      if (!id) return;
      void followTestClock().then(() => boss.notifyWorker(id));
    },

    outcomes() {
      return [...counts].map(([key, value]) => {
        const [queue, outcome] = key.split('\u0000') as [string, JobOutcome];
        return { queue, outcome, count: value };
      });
    },

    async depth() {
      // Straight from the job table at scrape time, so every instance reports the same numbers.
      const { rows } = await db.executeSql(
        `SELECT name AS queue,
                CASE WHEN state IN ('created', 'retry') AND start_after > ${schema}.job_now() THEN 'deferred'
                     WHEN state IN ('created', 'retry') THEN 'queued'
                     ELSE state::text END AS state,
                count(*)::int AS count
           FROM ${schema}.job
          WHERE state IN ('created', 'retry', 'active', 'failed')
          GROUP BY 1, 2`,
      );
      return rows as QueueDepth[];
    },

    async stop() {
      await boss.stop({ graceful: true, close: false, timeout: STOP_TIMEOUT_MS });
    },
  };
  return queue;
}

/**
 * The queue of a context built without one (the API description script, benchmarks): jobs can be
 * defined, and enqueuing one says plainly that nothing would run it.
 */
export function detachedJobQueue(): JobQueue {
  const refuse = (): never => {
    throw new Error('This app context has no job queue: build it with `jobs` (createJobQueue) to enqueue jobs');
  };
  return {
    schema: 'pgboss',
    detached: true,
    define() {},
    start: async () => refuse(),
    startWorkers: async () => refuse(),
    enqueue: async () => refuse(),
    runDue: async () => refuse(),
    wake() {},
    supervise: async () => refuse(),
    outcomes: () => [],
    depth: async () => [],
    stop: async () => {},
  };
}
