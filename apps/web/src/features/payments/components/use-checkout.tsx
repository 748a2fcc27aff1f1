// Pay now: opens a payment session, then the sandbox checkout or Paystack's pop-up, and on success
// asks the server to verify the payment and activate the booking. The payment link of trip charges
// a saved card declined (decision 073) goes the same way: its own session of what is owed, then the
// server records the charges paid. Every outcome is a toast.
import { claimWindowClosesAt, depositLine, localInstant, PAYMENT_MESSAGES, type Booking, type PaymentSession } from '@karoo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { bookedTripPolicy, policyTripOf } from '@/lib/cancellation-policy';
import { useSettings } from '@/lib/queries/settings';
import { queryKeys } from '@/lib/query-keys';
import { activateBooking, createClaimPaymentSession, createPaymentSession, verifyClaimPayment } from '../api/payments';
import { loadPaystack, openPaystackPopup } from '../utils/paystack';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

export const PAYMENT_CANCELLED = 'Payment window closed. Booking not activated.';
export const CLAIM_PAYMENT_CANCELLED = 'Payment window closed. The trip charges are still owed.';

/** What is paid: a booking (its trip and deposit), or what a declined card left owed on one of its claims. */
type Checkout = { kind: 'trip'; booking: Booking; session: PaymentSession } | { kind: 'claim'; booking: Booking; claimId: string; session: PaymentSession };

/** Document 3 section 8: the server's message, a network notice, else the fallback. */
function errorMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.isNetworkError ? NETWORK_ERROR_MESSAGE : messageOf(error, fallback);
}

export function useCheckout(): {
  startCheckout: (booking: Booking) => Promise<void>;
  /** Pays what is still owed on a claim; pendingId is the claim's id meanwhile. */
  startClaimCheckout: (booking: Booking, claimId: string) => Promise<void>;
  pendingId: string | null;
  checkout: ReactNode;
} {
  const notify = useNotification();
  const queryClient = useQueryClient();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<Checkout | null>(null);
  const claimWindowHours = useSettings().data?.trip_charges.claim_window_hours ?? null;

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.claims.all }),
      ]),
    [queryClient],
  );

  const activate = useCallback(
    async (booking: Booking, reference: string) => {
      try {
        const message = await activateBooking(booking.id, reference);
        notify.success('Payment Successful', message.replace(/^Payment Successful:\s*/, '') || 'Booking activated!');
      } catch (error) {
        notify.error('Payment Error', errorMessage(error, PAYMENT_MESSAGES.couldNotActivate));
      } finally {
        setSandbox(null);
        setPendingId(null);
        await refresh();
      }
    },
    [notify, refresh],
  );

  const recordClaimPaid = useCallback(
    async (claimId: string, reference: string) => {
      try {
        await verifyClaimPayment(claimId, reference);
        notify.success('Trip Charges Paid', 'What was still owed is paid; the host has been told.');
      } catch (error) {
        notify.error('Payment Error', errorMessage(error, 'The payment could not be recorded. Please try again.'));
      } finally {
        setSandbox(null);
        setPendingId(null);
        await refresh();
      }
    },
    [notify, refresh],
  );

  const closed = useCallback(
    (message: string) => {
      setSandbox(null);
      setPendingId(null);
      notify.warning('Payment Cancelled', message);
    },
    [notify],
  );
  const cancelled = useCallback(() => closed(PAYMENT_CANCELLED), [closed]);

  /** The session's checkout: the sandbox's card form, or Paystack's pop-up (its script loaded on demand). */
  const open = useCallback(
    async (target: Checkout, onPaid: (reference: string) => void, onClose: () => void) => {
      const { session } = target;
      if (session.provider === 'sandbox') {
        setPendingId(null);
        setSandbox(target);
        return;
      }
      const loaded = await loadPaystack();
      if (!loaded || !session.public_key) {
        setPendingId(null);
        notify.error('Payment Error', 'Paystack script not loaded.');
        return;
      }
      openPaystackPopup({ key: session.public_key, email: session.email, amount: session.amount, reference: session.reference, accessCode: session.access_code, onSuccess: onPaid, onClose });
    },
    [notify],
  );

  const startClaimCheckout = useCallback(
    async (booking: Booking, claimId: string) => {
      setPendingId(claimId);
      let session: PaymentSession;
      try {
        session = await createClaimPaymentSession(claimId);
      } catch (error) {
        setPendingId(null);
        notify.error('Payment Error', errorMessage(error, 'The payment could not be started. Please try again.'));
        await refresh();
        return;
      }
      await open({ kind: 'claim', booking, claimId, session }, (reference) => void recordClaimPaid(claimId, reference), () => closed(CLAIM_PAYMENT_CANCELLED));
    },
    [closed, notify, open, recordClaimPaid, refresh],
  );

  const startCheckout = useCallback(
    async (booking: Booking) => {
      setPendingId(booking.id);
      let session: PaymentSession;
      try {
        session = await createPaymentSession(booking.id);
      } catch (error) {
        setPendingId(null);
        notify.error('Payment Error', errorMessage(error, PAYMENT_MESSAGES.couldNotActivate));
        return;
      }
      await open({ kind: 'trip', booking, session }, (reference) => void activate(booking, reference), cancelled);
    },
    [activate, cancelled, notify, open],
  );

  const checkout =
    sandbox?.kind === 'trip' ? (
      <SandboxCheckoutDialog
        session={sandbox.session}
        carName={sandbox.booking.car_name}
        policy={bookedTripPolicy(policyTripOf(sandbox.booking), new Date())}
        deposit={depositTermsOf(sandbox.booking, claimWindowHours)}
        onPaid={(reference) => activate(sandbox.booking, reference)}
        onCancel={cancelled}
      />
    ) : sandbox?.kind === 'claim' ? (
      <SandboxCheckoutDialog
        session={sandbox.session}
        carName={sandbox.booking.car_name}
        purpose={`What is still owed on the trip charges of booking ${sandbox.booking.booking_id}: the card on file was declined.`}
        onPaid={(reference) => recordClaimPaid(sandbox.claimId, reference)}
        onCancel={() => closed(CLAIM_PAYMENT_CANCELLED)}
      />
    ) : null;

  return { startCheckout, startClaimCheckout, pendingId, checkout };
}

/** The deposit the charge includes (decision 064) in the words of the car page: "R 3 500 deposit, back by Thu 28 Jan if nothing is claimed". */
function depositTermsOf(booking: Booking, claimWindowHours: number | null): { amount: number; line: string } | null {
  if (booking.deposit <= 0 || claimWindowHours === null) return null;
  const releaseBy = claimWindowClosesAt(localInstant(booking.end_date, booking.end_time || '00:00'), claimWindowHours);
  return { amount: booking.deposit, line: depositLine(Math.round(booking.deposit * 100), releaseBy) };
}
