// Picks the payment provider from the environment: Paystack when PAYSTACK_SECRET_KEY is set,
// otherwise the sandbox. One provider per app context.
import type { AppContext } from '../../context';
import type { PaymentProvider } from './payment-provider';
import { PaystackProvider } from './paystack';
import { SandboxProvider } from './sandbox';

export * from './payment-provider';

const providers = new WeakMap<AppContext, PaymentProvider>();

export function paymentProvider(ctx: AppContext): PaymentProvider {
  let provider = providers.get(ctx);
  if (!provider) {
    const { PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL } = ctx.env;
    provider = PAYSTACK_SECRET_KEY
      ? new PaystackProvider(PAYSTACK_SECRET_KEY, PAYSTACK_PUBLIC_KEY, PAYSTACK_BASE_URL)
      : new SandboxProvider(ctx.db);
    providers.set(ctx, provider);
  }
  return provider;
}
