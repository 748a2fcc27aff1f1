// What the process knows about itself, for operations: whether it is shutting down (readiness then
// says 503 so a balancer stops sending traffic), how busy the database pool is, and when each
// background job last ran (its lag, for /metrics). server.ts builds one; tests may leave it out.
export interface PoolStats {
  /** Connections open, idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface JobBeat {
  intervalMs: number;
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastDurationMs: number | null;
  failures: number;
}

export interface Runtime {
  draining: boolean;
  readonly startedAt: number;
  poolStats(): PoolStats | null;
  readonly jobs: Map<string, JobBeat>;
}

export function createRuntime(options: { poolStats?: () => PoolStats | null } = {}): Runtime {
  return {
    draining: false,
    startedAt: Date.now(),
    poolStats: options.poolStats ?? (() => null),
    jobs: new Map(),
  };
}
