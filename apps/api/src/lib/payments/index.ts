// Picks the payment provider from the environment: Paystack when PAYSTACK_SECRET_KEY is set,
// otherwise the sandbox. One provider per app context (app-context.ts).
import type { Db } from '../../db/connection';
import type { Env } from '../../env';
import type { PaymentProvider } from './payment-provider';
import { PaystackProvider } from './paystack';
import { SandboxProvider } from './sandbox';

export * from './payment-provider';
export { SANDBOX_AUTH_PREFIX, SANDBOX_NOFUNDS_PREFIX } from './sandbox';

export function createPaymentProvider(env: Pick<Env, 'PAYSTACK_SECRET_KEY' | 'PAYSTACK_PUBLIC_KEY' | 'PAYSTACK_BASE_URL'>, db: Db): PaymentProvider {
  const { PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL } = env;
  return PAYSTACK_SECRET_KEY ? new PaystackProvider(PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL) : new SandboxProvider(db);
}
