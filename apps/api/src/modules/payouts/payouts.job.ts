// The payout jobs on the one queue (decision 038; decision 068): payouts.run sends what each host
// is owed on their run day (hourly: the first run of the day makes it, the later ones find its run
// key taken; two instances at once make one transfer), payouts.sync reads the outcome of transfers
// still open (a missed webhook, a bank's reversal days later). Tests call runPayouts and
// syncTransfers themselves, or runDue after enqueuing.
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { runPayouts, syncTransfers } from './payouts.service';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'payouts.run': Record<string, never>;
    'payouts.sync': Record<string, never>;
  }
}

export const payoutRunJob = (ctx: AppContext): JobDefinition<'payouts.run'> => ({
  name: 'payouts.run',
  payload: NO_PAYLOAD,
  cron: '20 * * * *',
  retry: { limit: 2, delaySeconds: 120, maxDelaySeconds: 20 * 60 },
  timeoutSeconds: 20 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const result = await runPayouts(ctx);
    if (result.sent > 0 || result.held > 0) job.log.info(result, 'payouts run');
  },
});

export const payoutSyncJob = (ctx: AppContext): JobDefinition<'payouts.sync'> => ({
  name: 'payouts.sync',
  payload: NO_PAYLOAD,
  cron: '*/10 * * * *',
  retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 10 * 60 },
  timeoutSeconds: 10 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const changed = await syncTransfers(ctx);
    if (changed > 0) job.log.info({ changed }, 'payout transfers updated');
  },
});
