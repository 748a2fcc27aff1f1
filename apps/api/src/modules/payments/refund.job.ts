// The refund job (docs/decisions/038-one-job-queue.md, 039-one-ledger.md): 'refunds.attempt' asks
// the payment provider for one refund, a ledger row. It is enqueued in the transaction that records
// the refund (a charge that cannot stay on its booking, a cancelled trip, an administrator's Retry),
// so a rolled-back change asks for nothing. The request that recorded it also asks once at once,
// after its commit; the job is the next ask, a minute later, and pg-boss retries it with backoff.
// After the last retry the refund ends 'failed' (the admin's list, with a Retry, and /metrics) and
// the job goes to 'refunds.attempt.dead'. A refund Paystack has accepted but not yet paid out is
// checked by the same job until Paystack reports it processed (or its webhook does).
import { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import * as ledger from '../ledger';
import { attemptRefund } from './payments.service';
import { REFUND_RETRY, REFUND_TIMEOUT_SECONDS, RefundGivenUp, RefundNotYetAccepted } from './refund-queue';

export const refundAttemptJob = (ctx: AppContext): JobDefinition<'refunds.attempt'> => ({
  name: 'refunds.attempt',
  payload: z.object({ refundId: z.uuid() }),
  retry: REFUND_RETRY,
  timeoutSeconds: REFUND_TIMEOUT_SECONDS,
  // One ask per refund on its way at a time (singletonKey: the refund's id).
  policy: 'exclusive',
  run: async (job) => {
    const outcome = await attemptRefund(ctx, job.data.refundId, { lastTry: job.isLastAttempt });
    // Still waiting (refused, or accepted and not yet paid out), or another ask holds it: try again later.
    if (outcome === 'pending' || outcome === 'busy') throw new RefundNotYetAccepted(outcome);
    // The last try ran out with the refund recorded 'failed': the job fails too, so that pg-boss puts
    // it in 'refunds.attempt.dead' beside the admin's Retry (resolving here would mark it completed).
    if (outcome === 'failed' && job.isLastAttempt) throw new RefundGivenUp(job.data.refundId);
  },
});

declare module '../../jobs/queue' {
  interface JobPayloads {
    'refunds.sweep': Record<string, never>;
  }
}

/** Every 15 minutes (from one instance per tick). */
export const REFUND_SWEEP_CRON = '*/15 * * * *';

/**
 * A pending refund with no ask on its way gets one: refunds the ledger migration wrote (recorded
 * before the queue), and refunds Paystack accepted but had not paid out when their job ran out of
 * tries (a webhook usually settles those first). The singleton key keeps it to one job per refund.
 */
export async function enqueueWaitingRefunds(ctx: AppContext): Promise<number> {
  const waiting = await ledger.waitingRefunds(ctx.db, ctx.clock.now());
  let enqueued = 0;
  for (const id of waiting) {
    const job = await inTransaction(ctx, (tx) => ctx.jobs.enqueue(tx, 'refunds.attempt', { refundId: id }, { singletonKey: id }));
    if (job) enqueued += 1;
  }
  return enqueued;
}

export const refundSweepJob = (ctx: AppContext): JobDefinition<'refunds.sweep'> => ({
  name: 'refunds.sweep',
  payload: NO_PAYLOAD,
  cron: REFUND_SWEEP_CRON,
  retry: { limit: 1, delaySeconds: 30, maxDelaySeconds: 60 },
  timeoutSeconds: 5 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const count = await enqueueWaitingRefunds(ctx);
    if (count > 0) job.log.info({ refunds: count }, 'waiting refunds queued');
  },
});
