// The background sweep of decisions.md section 5: every minute, overdue pending and unpaid
// bookings are cancelled. Safe with several API instances: the sweep is one UPDATE ... RETURNING,
// so each booking is cancelled (and notified) by exactly one instance. Tests call
// expireOverdueBookings directly with their clock; server.ts alone starts the timer.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { startIntervalJob, type IntervalJob } from '../../jobs/interval-job';
import { expireOverdueBookings } from './bookings.service';

export const EXPIRY_INTERVAL_MS = 60_000;

export function startBookingExpiryJob(ctx: AppContext, log: FastifyBaseLogger, intervalMs = EXPIRY_INTERVAL_MS): IntervalJob {
  return startIntervalJob({
    name: 'booking-expiry',
    intervalMs,
    log,
    runtime: ctx.runtime,
    run: async () => {
      const count = await expireOverdueBookings(ctx);
      if (count > 0) log.info({ expired: count }, 'bookings expired');
    },
  });
}
