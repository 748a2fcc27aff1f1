// What the process knows about itself, for operations: whether it is shutting down (readiness then
// says 503 so a balancer stops sending traffic) and how busy the database pool is. Background jobs
// report through the job queue (jobs/queue.ts). server.ts builds one; tests may leave it out.
export interface PoolStats {
  /** Connections open, idle among them, and requests waiting for one. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface Runtime {
  draining: boolean;
  readonly startedAt: number;
  poolStats(): PoolStats | null;
}

export function createRuntime(options: { poolStats?: () => PoolStats | null } = {}): Runtime {
  return {
    draining: false,
    startedAt: Date.now(),
    poolStats: options.poolStats ?? (() => null),
  };
}
