// Picks the payment and payout providers from the environment: Paystack when PAYSTACK_SECRET_KEY is
// set, otherwise the sandboxes. One of each per app context (app-context.ts).
import type { Clock } from '../../context';
import type { Db } from '../../db/connection';
import type { Env } from '../../env';
import type { PaymentProvider } from './payment-provider';
import type { PayoutProvider } from './payout-provider';
import { PaystackProvider } from './paystack';
import { PaystackTransfers } from './paystack-transfers';
import { SandboxProvider } from './sandbox';
import { SandboxTransfers } from './sandbox-transfers';

export * from './payment-provider';
export { SANDBOX_AUTH_PREFIX, SANDBOX_NOFUNDS_PREFIX } from './sandbox';
export * from './payout-provider';

export function createPaymentProvider(env: Pick<Env, 'PAYSTACK_SECRET_KEY' | 'PAYSTACK_PUBLIC_KEY' | 'PAYSTACK_BASE_URL'>, db: Db): PaymentProvider {
  const { PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL } = env;
  return PAYSTACK_SECRET_KEY ? new PaystackProvider(PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL) : new SandboxProvider(db);
}

export function createPayoutProvider(env: Pick<Env, 'PAYSTACK_SECRET_KEY' | 'PAYSTACK_BASE_URL' | 'PAYOUT_SANDBOX_OTP'>, db: Db, clock: Clock): PayoutProvider {
  return env.PAYSTACK_SECRET_KEY ? new PaystackTransfers(env.PAYSTACK_SECRET_KEY, env.PAYSTACK_BASE_URL) : new SandboxTransfers(db, clock, env.PAYOUT_SANDBOX_OTP);
}
