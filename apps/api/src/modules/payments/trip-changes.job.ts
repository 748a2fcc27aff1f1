// The sweep of unanswered trip changes (decision 081): each minute, requests past their deadline
// lapse and both sides are told; one conditional UPDATE per request, so each lapses once.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { lapseOverdueChanges } from './trip-changes';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'trip-changes.lapse': Record<string, never>;
  }
}

export const tripChangeLapseJob = (ctx: AppContext): JobDefinition<'trip-changes.lapse'> => ({
  name: 'trip-changes.lapse',
  payload: NO_PAYLOAD,
  cron: '* * * * *',
  retry: { limit: 1, delaySeconds: 10, maxDelaySeconds: 30 },
  timeoutSeconds: 5 * 60,
  pollSeconds: 5,
  run: async (job) => {
    const count = await lapseOverdueChanges(ctx);
    if (count > 0) job.log.info({ lapsed: count }, 'trip changes lapsed');
  },
});
