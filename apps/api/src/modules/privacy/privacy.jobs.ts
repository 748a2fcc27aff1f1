// The privacy module's jobs on the one queue (decision 038): building a data export, and deleting
// the files of exports past their 24 hours.
import { z } from 'zod';
import type { AppContext } from '../../context';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import './privacy.events';
import { buildExport, expireExports } from './privacy.service';

export const privacyExportJob = (ctx: AppContext): JobDefinition<'privacy.export'> => ({
  name: 'privacy.export',
  payload: z.object({ exportId: z.uuid() }),
  retry: { limit: 4, delaySeconds: 60, maxDelaySeconds: 30 * 60 },
  // A large account's files are read and zipped in one go.
  timeoutSeconds: 15 * 60,
  pollSeconds: 5,
  run: (job) => buildExport(ctx, job.data.exportId, job.isLastAttempt),
});

export const EXPORTS_EXPIRE_CRON = '20 * * * *';

export const privacyExportsExpireJob = (ctx: AppContext): JobDefinition<'privacy.exports.expire'> => ({
  name: 'privacy.exports.expire',
  payload: NO_PAYLOAD,
  cron: EXPORTS_EXPIRE_CRON,
  retry: { limit: 2, delaySeconds: 60, maxDelaySeconds: 10 * 60 },
  timeoutSeconds: 10 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const count = await expireExports(ctx);
    if (count > 0) job.log.info({ expired: count }, 'data exports expired');
  },
});
