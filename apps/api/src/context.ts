// What services need, built once per app (app-context.ts builds it): the database, mail, files, the
// clock, the event bus, the job queue and the payment providers. Every dependency is a field, passed
// in when the app is built; no module keeps a hidden per-app singleton of its own.
// A module that keeps something per app (a cache, the browse index) adds its field to AppContext
// itself, by declaration merging (modules/cars/cars.context.ts, modules/settings/settings.context.ts),
// as modules add their events to DomainEvents and their jobs to JobPayloads: this file imports no
// module, so nothing below the modules (lib/, jobs/, events/, db/) depends on one through it
// (`npm run graph` checks it, type imports included).
import type { Redis } from 'ioredis';
import type { Db } from './db/connection';
import type { Env } from './env';
import type { EventBus } from './events/domain-events';
import type { JobQueue } from './jobs/queue';
import type { CacheBus } from './lib/cache-bus';
import type { Mailer } from './lib/mail';
import type { PaymentProvider, PayoutProvider } from './lib/payments';
import type { Storage } from './lib/storage';
import type { Runtime } from './runtime';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock that reads `start` at creation and then runs at real speed, for end-to-end runs that
 * pin "now" (KAROO_TEST_NOW) while sessions, expiries and jobs still see time pass.
 */
export function offsetClock(start: Date, realNow: () => number = Date.now): TestClock {
  const offset = start.getTime() - realNow();
  let shift = 0;
  return {
    now: () => new Date(realNow() + offset + shift),
    advance: (ms) => {
      shift += ms;
    },
    reset: () => {
      shift = 0;
    },
  };
}

/**
 * The end-to-end run's clock (KAROO_TEST_NOW): it can be moved forward, so a journey can reach a
 * moment days after a trip (a claim window closing, a payout day) without waiting for it, and put
 * back to the run's own time afterwards (decision 070; only the devtools' test routes move it).
 */
export interface TestClock extends Clock {
  /** Moves this clock `ms` milliseconds forward (it then runs on at real speed). */
  advance(ms: number): void;
  /** Back to the run's pinned start plus the real time since. */
  reset(): void;
}

export function isTestClock(clock: Clock): clock is TestClock {
  return typeof (clock as Partial<TestClock>).advance === 'function' && typeof (clock as Partial<TestClock>).reset === 'function';
}

/** The server's clock: the system clock, or the pinned test clock when KAROO_TEST_NOW is set. */
export function clockFromEnv(env: Pick<Env, 'KAROO_TEST_NOW'>): Clock {
  return env.KAROO_TEST_NOW ? offsetClock(new Date(env.KAROO_TEST_NOW)) : systemClock;
}

export interface AppContext {
  db: Db;
  env: Env;
  mailer: Mailer;
  /** Identity and registration documents: only served through authorised routes. */
  privateFiles: Storage;
  /** Car photos: served to anyone at /uploads/ (lib/public-files.ts). */
  publicFiles: Storage;
  clock: Clock;
  /** Shutdown state, pool use and job beats for health and metrics (server.ts sets it). */
  runtime?: Runtime;
  /** Tells every instance to forget a cache (decision 026): Redis, PostgreSQL NOTIFY, or this process alone. */
  cacheBus: CacheBus;
  /** Redis shared by the instances (REDIS_URL): the rate limit's counts. */
  redis?: Redis;
  /** Every module's event subscriptions (events/domain-events.ts). */
  events: EventBus;
  /** The one job queue (jobs/queue.ts): mail, booking expiry, pruning; enqueued in the change's transaction. */
  jobs: JobQueue;
  /** Paystack, or the sandbox checkout without keys. */
  payments: PaymentProvider;
  /** Paystack Transfers, or the sandbox's, for hosts' payouts (modules/payouts, decision 068). */
  payouts: PayoutProvider;
  // The modules' own fields follow by declaration merging (see the top of this file).
}
