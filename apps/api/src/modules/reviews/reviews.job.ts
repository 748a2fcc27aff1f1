// The end of a review window (decision 043): every hour, reviews whose 14 days have passed are
// shown and their cars' ratings follow. A scheduled job on the one queue (decision 038); safe if two
// ran at once (one UPDATE ... RETURNING reveals each review once). Tests call revealDueReviews.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { revealDueReviews } from './reviews.service';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'reviews.reveal': Record<string, never>;
  }
}

export const REVEAL_CRON = '7 * * * *';

export const reviewRevealJob = (ctx: AppContext): JobDefinition<'reviews.reveal'> => ({
  name: 'reviews.reveal',
  payload: NO_PAYLOAD,
  cron: REVEAL_CRON,
  // The next hour's run catches up anyway.
  retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 10 * 60 },
  timeoutSeconds: 10 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const count = await revealDueReviews(ctx);
    if (count > 0) job.log.info({ revealed: count }, 'reviews revealed');
  },
});
