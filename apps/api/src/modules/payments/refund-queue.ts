// Putting a refund on the job queue (refund.job.ts runs it): its job's name, payload and retry
// policy, and the enqueue the change that records a refund calls in its transaction. Apart from
// the job itself, so the payments service can enqueue without importing the job that calls it.
import type { AppContext } from '../../context';
import type { JobTransaction, RetryPolicy } from '../../jobs/queue';

declare module '../../jobs/queue' {
  interface JobPayloads {
    /** One refund (its ledger row) to ask the provider for, or to check. */
    'refunds.attempt': { refundId: string };
  }
}

/**
 * 8 retries, the n-th after 60 s × 2^(n-1) (times a random 1 to 2), at most 6 h: about 4 to 8 hours
 * of a provider refusing before a person is asked to look.
 */
export const REFUND_RETRY: RetryPolicy = { limit: 8, delaySeconds: 60, maxDelaySeconds: 6 * 60 * 60 };
/** One ask takes Paystack's 10 s timeout at most, twice (the refund, then its lookup). */
export const REFUND_TIMEOUT_SECONDS = 120;

/** The provider has not taken the refund yet: pg-boss asks again after its backoff. */
export class RefundNotYetAccepted extends Error {
  constructor(outcome: string) {
    super(`The refund is still ${outcome}.`);
    this.name = 'RefundNotYetAccepted';
  }
}

/** The refund's last try failed: recorded 'failed' for an administrator, and its job dead-lettered. */
export class RefundGivenUp extends Error {
  constructor(refundId: string) {
    super(`Refund ${refundId} failed after its last try; an administrator can retry it.`);
    this.name = 'RefundGivenUp';
  }
}

/** Enqueues the next ask for a refund just recorded, in the caller's transaction (the request asks once itself after the commit). */
export function enqueueRefundAttempt(ctx: AppContext, tx: JobTransaction, refundId: string) {
  return ctx.jobs.enqueue(tx, 'refunds.attempt', { refundId }, { delaySeconds: REFUND_RETRY.delaySeconds, singletonKey: refundId });
}

