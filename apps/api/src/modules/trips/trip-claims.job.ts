// The trip charges' clock (decision 065): every 15 minutes, claims the renter left unanswered past
// their 48 hours are accepted and paid, and deposits whose claim window closed with no claim open go
// back (what is left of them). Safe if two ran at once: each claim settles once (a conditional
// UPDATE), each release is recorded under the booking's held sum. Tests call the two functions.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { releaseDueDeposits, settleOverdueClaims } from './trip-claims.service';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'trip-charges.sweep': Record<string, never>;
  }
}

export const TRIP_CHARGES_CRON = '*/15 * * * *';

export const tripChargesSweepJob = (ctx: AppContext): JobDefinition<'trip-charges.sweep'> => ({
  name: 'trip-charges.sweep',
  payload: NO_PAYLOAD,
  cron: TRIP_CHARGES_CRON,
  retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 10 * 60 },
  timeoutSeconds: 10 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const settled = await settleOverdueClaims(ctx);
    const released = await releaseDueDeposits(ctx);
    if (settled + released > 0) job.log.info({ settled, released }, 'trip charges swept');
  },
});
