// The payment calls: open a session for a confirmed booking (or for what a declined card left owed
// on trip charges, decision 073), charge the sandbox card, and have the server verify the payment
// and activate the booking (or record the charges paid).
import { PAYMENT_MESSAGES, type PaymentSession } from '@karoo/shared';
import { apiClient } from '@/lib/api-client';

export function createPaymentSession(bookingId: string): Promise<PaymentSession> {
  return apiClient.post<PaymentSession>(`/booking/${bookingId}/payment-session`).then((r) => r.data);
}

/** The payment link of settled trip charges the saved card declined: a checkout of exactly what is owed (the server's amount). */
export function createClaimPaymentSession(claimId: string): Promise<PaymentSession> {
  return apiClient.post<PaymentSession>(`/claims/${claimId}/payment`).then((r) => r.data);
}

export async function verifyClaimPayment(claimId: string, reference: string): Promise<string> {
  const result = await apiClient.post<unknown>(`/claims/${claimId}/payment/verify`, { reference });
  return result.message ?? 'Trip charges paid';
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
