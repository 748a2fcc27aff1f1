// The fines' clock (decision 066): each morning, the host of an open (or disputed) fine whose
// nomination deadline is a week away or less is reminded once. Safe if two ran at once: the
// reminder is marked by a conditional UPDATE, so each fine is reminded once. Tests call the function.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { remindFineDeadlines } from './traffic-fines.service';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'traffic-fines.remind': Record<string, never>;
  }
}

/** 06:15 UTC is 08:15 in Johannesburg: the host reads it at the start of the day. */
export const TRAFFIC_FINES_CRON = '15 6 * * *';

export const trafficFinesRemindJob = (ctx: AppContext): JobDefinition<'traffic-fines.remind'> => ({
  name: 'traffic-fines.remind',
  payload: NO_PAYLOAD,
  cron: TRAFFIC_FINES_CRON,
  retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 10 * 60 },
  timeoutSeconds: 10 * 60,
  pollSeconds: 60,
  run: async (job) => {
    const reminded = await remindFineDeadlines(ctx);
    if (reminded > 0) job.log.info({ reminded }, 'traffic fine deadlines reminded');
  },
});
