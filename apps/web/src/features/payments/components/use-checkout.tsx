// Pay now: opens a payment session, then the sandbox checkout or Paystack's pop-up, and on success
// asks the server to verify the payment and activate the booking. Every outcome is a toast.
import { claimWindowClosesAt, depositLine, localInstant, PAYMENT_MESSAGES, type Booking, type PaymentSession } from '@karoo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { bookedTripPolicy, policyTripOf } from '@/lib/cancellation-policy';
import { useSettings } from '@/lib/queries/settings';
import { queryKeys } from '@/lib/query-keys';
import { activateBooking, createPaymentSession } from '../api/payments';
import { loadPaystack, openPaystackPopup } from '../utils/paystack';
import { SandboxCheckoutDialog } from './sandbox-checkout-dialog';

export const PAYMENT_CANCELLED = 'Payment window closed. Booking not activated.';

/** Document 3 section 8: the server's message, a network notice, else the fallback. */
function errorMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.isNetworkError ? NETWORK_ERROR_MESSAGE : messageOf(error, fallback);
}

export function useCheckout(): { startCheckout: (booking: Booking) => Promise<void>; pendingId: string | null; checkout: ReactNode } {
  const notify = useNotification();
  const queryClient = useQueryClient();
  const [pendingId, setPendingId] = useState<string | null>(null);
  const [sandbox, setSandbox] = useState<{ booking: Booking; session: PaymentSession } | null>(null);
  const claimWindowHours = useSettings().data?.trip_charges.claim_window_hours ?? null;

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
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

  const cancelled = useCallback(() => {
    setSandbox(null);
    setPendingId(null);
    notify.warning('Payment Cancelled', PAYMENT_CANCELLED);
  }, [notify]);

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
      if (session.provider === 'sandbox') {
        setPendingId(null);
        setSandbox({ booking, session });
        return;
      }
      const loaded = await loadPaystack();
      if (!loaded || !session.public_key) {
        setPendingId(null);
        notify.error('Payment Error', 'Paystack script not loaded.');
        return;
      }
      openPaystackPopup({
        key: session.public_key,
        email: session.email,
        amount: session.amount,
        reference: session.reference,
        accessCode: session.access_code,
        onSuccess: (reference) => void activate(booking, reference),
        onClose: cancelled,
      });
    },
    [activate, cancelled, notify],
  );

  const checkout = sandbox ? (
    <SandboxCheckoutDialog
      session={sandbox.session}
      carName={sandbox.booking.car_name}
      policy={bookedTripPolicy(policyTripOf(sandbox.booking), new Date())}
      deposit={depositTermsOf(sandbox.booking, claimWindowHours)}
      onPaid={(reference) => activate(sandbox.booking, reference)}
      onCancel={cancelled}
    />
  ) : null;

  return { startCheckout, pendingId, checkout };
}

/** The deposit the charge includes (decision 064) in the words of the car page: "R 3 500 deposit, back by Thu 28 Jan if nothing is claimed". */
function depositTermsOf(booking: Booking, claimWindowHours: number | null): { amount: number; line: string } | null {
  if (booking.deposit <= 0 || claimWindowHours === null) return null;
  const releaseBy = claimWindowClosesAt(localInstant(booking.end_date, booking.end_time || '00:00'), claimWindowHours);
  return { amount: booking.deposit, line: depositLine(Math.round(booking.deposit * 100), releaseBy) };
}
