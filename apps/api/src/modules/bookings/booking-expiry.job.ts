// The background sweep of decisions.md section 5: every minute, overdue pending and unpaid
// bookings are cancelled. A scheduled job on the one queue (decision 038): each minute's tick is
// sent by one instance and run by one. Safe even if two ran at once: the sweep is one UPDATE ...
// RETURNING, so each booking is cancelled (and notified) once. Tests call expireOverdueBookings
// directly with their clock.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { expireOverdueBookings } from './bookings.service';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'bookings.expire': Record<string, never>;
  }
}

export const EXPIRY_CRON = '* * * * *';

export const bookingExpiryJob = (ctx: AppContext): JobDefinition<'bookings.expire'> => ({
  name: 'bookings.expire',
  payload: NO_PAYLOAD,
  cron: EXPIRY_CRON,
  // The next minute's sweep catches up anyway: one quick retry, then the dead letter says it failed.
  retry: { limit: 1, delaySeconds: 10, maxDelaySeconds: 30 },
  timeoutSeconds: 5 * 60,
  pollSeconds: 5,
  run: async (job) => {
    const count = await expireOverdueBookings(ctx);
    if (count > 0) job.log.info({ expired: count }, 'bookings expired');
  },
});
