// Developer tools (decisions.md section 10). The API Connection Test page runs two login tests;
// their accounts come from here, and only when this server was started with demo data and the
// demo accounts still sign in with the demo password. A production start (SEED_DEMO=false) or a
// demo account whose password was changed answers "not available", and the page skips the tests.
import type { LoginTests } from '@karoo/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import type { JobDefinition } from '../../jobs/queue';
import { DEMO_PASSWORD, DEMO_USERS } from '../../db/seed';
import { verifyPassword } from '../../lib/passwords';
import { payoutRunJob, payoutSyncJob } from '../payouts';
import { tripChargesSweepJob } from '../trips';
import { findUser } from '../users';

/** A host and a customer of the demo data: the two sides of the marketplace. */
const LOGIN_TEST_ACCOUNTS = [
  { label: 'Host login', username: 'host_thabo' },
  { label: 'Customer login', username: 'sipho' },
] as const;

export const NO_DEMO_DATA = 'This server runs without demo data (SEED_DEMO=false).';
export const NO_DEMO_ACCOUNTS = 'The demo accounts are not on this server, or their passwords were changed.';

export async function findLoginTestAccounts(ctx: AppContext): Promise<LoginTests> {
  if (!ctx.env.SEED_DEMO) return { available: false, reason: NO_DEMO_DATA };
  for (const { username } of LOGIN_TEST_ACCOUNTS) {
    if (!DEMO_USERS.some((demo) => demo.username === username)) return { available: false, reason: NO_DEMO_ACCOUNTS };
    const user = await findUser(ctx, username);
    if (!user || !(await verifyPassword(user.password_hash, DEMO_PASSWORD))) return { available: false, reason: NO_DEMO_ACCOUNTS };
  }
  return { available: true, accounts: LOGIN_TEST_ACCOUNTS.map((account) => ({ ...account, password: DEMO_PASSWORD })) };
}

/**
 * The scheduled jobs an end-to-end journey may run at once (decision 070), rather than wait for
 * their cron: the same definition the queue runs, so the journey sees the job's own work.
 */
export const TEST_JOBS = ['trip-charges.sweep', 'payouts.run', 'payouts.sync'] as const;
export type TestJob = (typeof TEST_JOBS)[number];

const TEST_JOB_DEFINITIONS = { 'trip-charges.sweep': tripChargesSweepJob, 'payouts.run': payoutRunJob, 'payouts.sync': payoutSyncJob } as const;

export async function runJobNow(ctx: AppContext, name: TestJob, log: FastifyBaseLogger): Promise<void> {
  const definition = TEST_JOB_DEFINITIONS[name](ctx) as JobDefinition<TestJob>;
  await definition.run({ id: `devtools-${name}`, name, data: {}, attempt: 1, isLastAttempt: true, log });
}
