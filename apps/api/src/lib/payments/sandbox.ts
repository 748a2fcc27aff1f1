// The sandbox provider (decisions.md section 6): the default without Paystack keys. The browser
// shows a local test-card checkout (POST /payments/sandbox/charge records the outcome in the
// payments table), and verification reads that record: the server trusts only its own books. A
// refund, whole or partial, is a row of sandbox_refunds, once per refund id: asked again, it answers
// the same, and the refunds of a charge never add up to more than it.
import type { Db } from '../../db/connection';
import { PaymentProviderError, type AcceptedRefund, type AuthorizationCharge, type AuthorizationChargeInput, type PaymentProvider, type RefundInput, type RefundStatus, type VerifiedPayment } from './payment-provider';

/** The sandbox's authorisations: one that charges again, one declined when charged again. */
export const SANDBOX_AUTH_PREFIX = 'AUTH_sandbox_ok_';
export const SANDBOX_NOFUNDS_PREFIX = 'AUTH_sandbox_nofunds_';

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
      ...(row.authorization_code ? { authorizationCode: row.authorization_code } : {}),
    };
  }

  /** Records the refund in the sandbox's own books (sandbox_refunds), once per refund id; never more than was charged. */
  async refund(input: RefundInput): Promise<AcceptedRefund> {
    const id = `SANDBOX-REFUND-${input.refundId}`;
    return this.db.transaction().execute(async (trx) => {
      const charge = await trx
        .selectFrom('payments')
        .select(['amount_cents'])
        .where('reference', '=', input.reference)
        .where('provider', '=', 'sandbox')
        .where('status', '=', 'success')
        .forUpdate()
        .executeTakeFirst();
      if (!charge) throw new PaymentProviderError('The sandbox has no successful charge with this reference to refund.');
      const known = await trx.selectFrom('sandbox_refunds').select('id').where('id', '=', id).executeTakeFirst();
      if (known) return { id, status: 'processed' as const };
      const refunded = await trx
        .selectFrom('sandbox_refunds')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('amount_cents'), eb.val('0')).as('cents'))
        .where('reference', '=', input.reference)
        .executeTakeFirstOrThrow();
      if (Number(refunded.cents) + input.amountCents > charge.amount_cents) {
        throw new PaymentProviderError('The sandbox refuses a refund of more than what is left of the charge.');
      }
      await trx.insertInto('sandbox_refunds').values({ id, reference: input.reference, amount_cents: input.amountCents, created_at: new Date() }).execute();
      return { id, status: 'processed' as const };
    });
  }

  /** The sandbox pays a refund out the moment it takes it. */
  async refundStatus(input: { providerRefundId: string }): Promise<RefundStatus> {
    const row = await this.db.selectFrom('sandbox_refunds').select('id').where('id', '=', input.providerRefundId).executeTakeFirst();
    if (!row) throw new PaymentProviderError('The sandbox has no refund with this id.');
    return 'processed';
  }

  /**
   * A saved card charged again: the sandbox card that pays later too succeeds; the card that pays
   * at checkout and is declined later (SANDBOX_DECLINES_LATER_CARD, its authorisation marked
   * 'nofunds') is declined, as a bank answers "Insufficient funds".
   */
  async chargeAuthorization(input: AuthorizationChargeInput): Promise<AuthorizationCharge> {
    if (!input.authorizationCode.startsWith('AUTH_sandbox_')) throw new PaymentProviderError('The sandbox does not know this card authorisation.');
    if (input.authorizationCode.startsWith(SANDBOX_NOFUNDS_PREFIX)) return { status: 'failed', reference: input.reference, message: 'Declined by the bank: insufficient funds.' };
    return { status: 'success', reference: input.reference, message: 'Approved.' };
  }

  isSignedWebhook(): boolean {
    return false;
  }
}
