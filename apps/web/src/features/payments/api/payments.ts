// The payment calls: open a session for a confirmed booking, charge the sandbox card, and have the
// server verify the payment and activate the booking.
import { PAYMENT_MESSAGES, type PaymentSession } from '@karoo/shared';
import { apiClient } from '@/lib/api-client';

export function createPaymentSession(bookingId: string): Promise<PaymentSession> {
  return apiClient.post<PaymentSession>(`/booking/${bookingId}/payment-session`).then((r) => r.data);
}

export interface SandboxChargeInput {
  reference: string;
  card_number: string;
  expiry: string;
  cvv: string;
}

export interface SandboxChargeResult {
  status: 'success' | 'failed';
  message: string;
}

/** A decline is an answer ({status: 'failed'}), not an error; a refused request throws ApiError. */
export async function chargeSandboxCard(input: SandboxChargeInput): Promise<SandboxChargeResult> {
  return (await apiClient.post<SandboxChargeResult>('/payments/sandbox/charge', input)).data;
}

export async function activateBooking(bookingId: string, reference: string): Promise<string> {
  const result = await apiClient.post<unknown>(`/booking/pay/${bookingId}`, { paystack_reference: reference });
  return result.message ?? PAYMENT_MESSAGES.activated;
}
