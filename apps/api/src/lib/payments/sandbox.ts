// The sandbox provider (decisions.md section 6): the default without Paystack keys. The browser
// shows a local test-card checkout (POST /payments/sandbox/charge records the outcome in the
// payments table), and verification reads that record: the server trusts only its own books.
import type { Db } from '../../db/connection';
import type { PaymentProvider, VerifiedPayment } from './payment-provider';

export class SandboxProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;
  readonly publicKey = undefined;

  constructor(private readonly db: Db) {}

  async initialize(): Promise<{ accessCode?: string }> {
    return {};
  }

  async verify(reference: string): Promise<VerifiedPayment> {
    const row = await this.db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirst();
    if (!row || row.provider !== 'sandbox') return { status: 'not_found', reference, amountCents: 0, currency: '' };
    return {
      status: row.status === 'success' ? 'success' : row.status === 'failed' ? 'failed' : 'pending',
      reference: row.reference,
      amountCents: row.amount_cents,
      currency: row.currency,
      ...(row.message ? { message: row.message } : {}),
    };
  }

  isSignedWebhook(): boolean {
    return false;
  }
}
