// The refund retry sweep (docs/decisions/024-one-charge-per-booking.md): every minute, refunds the
// provider has not accepted yet (its call failed) and whose next attempt is due are asked for again,
// with backoff, until the provider accepts. Safe with several API instances: each attempt first
// claims the refund with one conditional UPDATE, so only one instance asks the provider at a time.
// Tests call retryPendingRefunds directly with their clock; server.ts alone starts the timer.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { startIntervalJob, type IntervalJob } from '../../jobs/interval-job';
import { retryPendingRefunds } from './payments.service';

export const REFUND_RETRY_INTERVAL_MS = 60_000;

export function startRefundRetryJob(ctx: AppContext, log: FastifyBaseLogger, intervalMs = REFUND_RETRY_INTERVAL_MS): IntervalJob {
  return startIntervalJob({
    name: 'refund-retry',
    intervalMs,
    log,
    runtime: ctx.runtime,
    run: async () => {
      const counts = await retryPendingRefunds(ctx);
      if (counts.refunded > 0) log.info({ refunded: counts.refunded }, 'pending refunds accepted by the payment provider');
      if (counts.pending > 0) log.warn({ pending: counts.pending }, 'refunds still pending: the payment provider did not accept them');
    },
  });
}
