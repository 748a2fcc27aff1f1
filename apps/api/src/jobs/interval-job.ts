// A background job that runs now and then every interval, never twice at once in one process, and
// that stops cleanly: stop() clears the timer and waits for a run in progress, so shutdown never
// closes the database under a job. Each run is recorded in the runtime (its lag is in /metrics).
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable } from '../db/connection-errors';
import type { Runtime } from '../runtime';

export interface IntervalJob {
  /** Runs the job now unless it is already running (a nudge after a commit, say). */
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

export function startIntervalJob(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<void>;
  log: FastifyBaseLogger;
  runtime?: Runtime;
  /** Run once at start (default) or only after the first interval. */
  runAtStart?: boolean;
}): IntervalJob {
  const { name, intervalMs, run, log, runtime } = options;
  const beat = { intervalMs, lastStartedAt: null, lastFinishedAt: null, lastDurationMs: null, failures: 0 } as {
    intervalMs: number;
    lastStartedAt: number | null;
    lastFinishedAt: number | null;
    lastDurationMs: number | null;
    failures: number;
  };
  runtime?.jobs.set(name, beat);
  let current: Promise<void> | null = null;
  let stopped = false;

  const tick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (current) return current;
    const started = Date.now();
    beat.lastStartedAt = started;
    current = run()
      .catch((error: unknown) => {
        beat.failures += 1;
        // The database away (a restart, a failover) is no bug: the next run tries again.
        if (isDatabaseUnavailable(error)) log.warn({ err: error, job: name }, `${name} skipped: database unavailable`);
        else log.error({ err: error, job: name }, `${name} failed`);
      })
      .finally(() => {
        beat.lastFinishedAt = Date.now();
        beat.lastDurationMs = beat.lastFinishedAt - started;
        current = null;
      });
    return current;
  };

  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  if (options.runAtStart !== false) void tick();

  return {
    runNow: tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
