// The sandbox card checkout: looks like a hosted card form, charges a test card through the API
// and, on success, hands the reference back so the booking can be activated. The cancellation
// policy of the trip being paid for shows above the card form.
import { formatRand, type PaymentSession } from '@karoo/shared';
import { CreditCard, FlaskConical, Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { CancellationPolicyNote } from '@/components/cancellation-policy-note';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { isApiError, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { chargeSandboxCard } from '../api/payments';
import { formatCardNumber, formatExpiry, validateCard, type CardErrors } from '../utils/card';

export interface SandboxCheckoutDialogProps {
  session: PaymentSession;
  carName: string;
  /** The trip's cancellation policy, in words, read as paid now. */
  policy?: string | null;
  /** The charge succeeded: activate the booking with this reference. */
  onPaid: (reference: string) => Promise<void> | void;
  /** The deposit included in the amount (decision 064): its rand and when it comes back. */
  deposit?: { amount: number; line: string } | null;
  /** The window was closed without paying. */
  onCancel: () => void;
  /** What the amount is for, when it is not the trip itself (a claim's payment link, decision 073). */
  purpose?: string | null;
}

export function SandboxCheckoutDialog({ session, carName, policy, deposit, purpose, onPaid, onCancel }: SandboxCheckoutDialogProps) {
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [errors, setErrors] = useState<CardErrors>({});
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const amount = formatRand(session.amount / 100);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateCard({ cardNumber, expiry, cvv });
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setDeclined(null);
    try {
      const result = await chargeSandboxCard({ reference: session.reference, card_number: cardNumber.replace(/\s/g, ''), expiry, cvv });
      if (result.status === 'success') {
        await onPaid(session.reference);
        return;
      }
      setDeclined(result.message);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.errors).length > 0) {
        setErrors({ cardNumber: error.errors.card_number, expiry: error.errors.expiry, cvv: error.errors.cvv });
      }
      setDeclined(isApiError(error) && !error.isNetworkError ? error.message : NETWORK_ERROR_MESSAGE);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open onClose={busy ? () => undefined : onCancel} title="Secure checkout" description={`${carName} · ${session.email}`}>
      <div className="-mt-1 mb-4 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
        <FlaskConical className="size-4 shrink-0" aria-hidden="true" />
        <span>Karoo sandbox · Test mode — no real money moves</span>
      </div>
      <div className="mb-4 flex items-baseline justify-between rounded-xl bg-stone-50 px-4 py-3">
        <span className="text-sm text-stone-600">Amount due</span>
        <span className="text-2xl font-bold text-stone-900" data-testid="checkout-amount">
          {amount}
        </span>
      </div>
      {purpose ? (
        <p className="-mt-2 mb-4 px-1 text-sm text-stone-600" data-testid="checkout-purpose">
          {purpose}
        </p>
      ) : null}
      {deposit ? (
        <p className="-mt-2 mb-4 px-1 text-sm text-stone-600" data-testid="checkout-deposit">
          Includes the {deposit.line}.
        </p>
      ) : null}
      {policy ? <CancellationPolicyNote text={policy} className="mb-4" /> : null}
      <form onSubmit={submit} noValidate className="space-y-3" aria-label="Card details">
        <Input
          label="Card number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 5678 9012 3456"
          leading={<CreditCard className="size-4" aria-hidden="true" />}
          value={cardNumber}
          error={errors.cardNumber}
          onChange={(e) => setCardNumber(formatCardNumber(e.target.value))}
        />
        <div className="grid grid-cols-2 gap-3">
          <Input
            label="Expiry (MM/YY)"
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM/YY"
            value={expiry}
            error={errors.expiry}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
          />
          <Input
            label="CVV"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            value={cvv}
            error={errors.cvv}
            onChange={(e) => setCvv(e.target.value.replace(/\D/g, '').slice(0, 4))}
          />
        </div>
        {declined ? (
          <Alert tone="danger" title="Payment declined" role="alert">
            {declined}
          </Alert>
        ) : null}
        <Button type="submit" block size="lg" loading={busy} icon={<Lock className="size-4" aria-hidden="true" />}>
          Pay {amount}
        </Button>
        <div className="rounded-lg border border-dashed border-stone-300 px-3 py-2 text-xs text-stone-600">
          <p className="font-semibold text-stone-700">Test cards</p>
          <p>
            <span className="font-mono">4084 0840 8408 4081</span> succeeds · <span className="font-mono">4000 0000 0000 0002</span> is declined. Any
            future expiry and any CVV.
          </p>
        </div>
      </form>
    </Dialog>
  );
}
