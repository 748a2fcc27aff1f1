// The sandbox provider (decisions.md section 6): the default without Paystack keys. The browser
// shows a local test-card checkout (POST /payments/sandbox/charge records the outcome in the
// payments table), and verification reads that record: the server trusts only its own books. A
// refund is recorded on the same record (refund_provider_id), once: asked again, it answers the same.
import type { Db } from '../../db/connection';
import { PaymentProviderError, type AcceptedRefund, type PaymentProvider, type VerifiedPayment } from './payment-provider';

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

  async refund(input: { reference: string }): Promise<AcceptedRefund> {
    const id = `SANDBOX-REFUND-${input.reference}`;
    const row = await this.db
      .updateTable('payments')
      .set({ refund_provider_id: id })
      .where('reference', '=', input.reference)
      .where('provider', '=', 'sandbox')
      .where('status', '=', 'success')
      .returning('refund_provider_id')
      .executeTakeFirst();
    if (!row) throw new PaymentProviderError('The sandbox has no successful charge with this reference to refund.');
    return { id };
  }

  isSignedWebhook(): boolean {
    return false;
  }
}
