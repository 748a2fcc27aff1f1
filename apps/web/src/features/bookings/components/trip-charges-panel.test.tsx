// Trip charges the saved card declined (issue 34; decision 073): the renter's claim says what is
// still owed with a "Pay R X" button that opens the checkout of exactly that amount (the server's
// session), and once paid the claim shows it; the host reads what the renter still owes, without a
// button.
import { formatRand } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import type { BookingClaims, TripClaim } from '../api/trip-charges';

const renter = makeUser({ id: 'user-1', username: 'sipho', full_name: 'Sipho Nkosi' });
const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Host', role: 'host', user_type: 'host' });
const trip = makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'completed', payment_status: 'paid', deposit: 3500 });

const declined: TripClaim = {
  id: 'c1',
  status: 'settled',
  claimed: 5000,
  host_statement: 'The quote for the bumper is attached.',
  answer_due_at: '2030-05-14T15:00:00.000Z',
  renter_answer: 'accepted',
  renter_statement: null,
  decided: null,
  decision_reason: null,
  settled: 5000,
  from_deposit: 3500,
  from_card: 0,
  owed: 1500,
  payment_state: 'card_declined',
  payment_error: 'Declined by the bank: insufficient funds.',
  items: [{ kind: 'damage', label: 'Damage', amount: 5000, detail: '', note: '' }],
  evidence: [],
};
const claimsWith = (claim: TripClaim): BookingClaims => ({ claims: [claim], deposit: { taken: 3500, held: 0, released: 0, applied: 3500 }, window: { closes_at: null, open: false, refusal: null }, computed: [], missing: {} });
const common = { 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]), 'GET /api/booking/b1/fines': ok([]) };

describe('trip charges the card declined', () => {
  it('the renter pays what is still owed through the checkout, and the claim then shows it paid', async () => {
    signIn(renter);
    let claim = declined;
    const fetchMock = mockFetch({
      ...common,
      'GET /api/booking/getAll': ok([trip]),
      'GET /api/booking/b1/claims': () => ok(claimsWith(claim)),
      'POST /api/claims/c1/payment': ok({ provider: 'sandbox', reference: 'KAROO-KR000001AA-CLAIM-ABC', amount: 150_000, currency: 'ZAR', email: 'sipho@example.co.za' }),
      'POST /api/payments/sandbox/charge': ok({ status: 'success', message: 'Payment approved.' }),
      'POST /api/claims/c1/payment/verify': () => {
        claim = { ...declined, from_card: 1500, owed: 0, payment_state: 'paid', payment_error: null };
        return ok(claim, 'Trip charges paid');
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });

    const panel = await screen.findByTestId('trip-claim');
    expect(within(panel).getByTestId('claim-outcome').textContent).toContain(`The card was declined (Declined by the bank: insufficient funds): ${formatRand(1500)} is still owed.`);
    await user.click(within(panel).getByRole('button', { name: `Pay ${formatRand(1500)}` }));

    const dialog = await screen.findByRole('dialog', { name: 'Secure checkout' });
    expect(within(dialog).getByTestId('checkout-amount').textContent).toBe(formatRand(1500));
    expect(within(dialog).getByTestId('checkout-purpose').textContent).toMatch(/still owed on the trip charges of booking KR000001AA/);
    await user.type(within(dialog).getByLabelText('Card number'), '4084084084084081');
    await user.type(within(dialog).getByLabelText('Expiry (MM/YY)'), '1239');
    await user.type(within(dialog).getByLabelText('CVV'), '123');
    await user.click(within(dialog).getByRole('button', { name: `Pay ${formatRand(1500)}` }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Secure checkout' })).not.toBeInTheDocument());
    const charge = fetchMock.mock.calls.find(([url]) => url === '/api/payments/sandbox/charge');
    expect(JSON.parse(String(charge![1]?.body))).toMatchObject({ reference: 'KAROO-KR000001AA-CLAIM-ABC', card_number: '4084084084084081' });
    const verify = fetchMock.mock.calls.find(([url]) => url === '/api/claims/c1/payment/verify');
    expect(JSON.parse(String(verify![1]?.body))).toEqual({ reference: 'KAROO-KR000001AA-CLAIM-ABC' });
    expect(await screen.findByText('Trip Charges Paid')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('claim-outcome').textContent).toContain(`and ${formatRand(1500)} from the card.`));
    expect(screen.getByTestId('claim-outcome').textContent).not.toContain('still owed');
    expect(screen.queryByRole('button', { name: /^Pay R/ })).not.toBeInTheDocument();
  });

  it("with Paystack, opens its pop-up on the link's reference and amount, and has the server verify the reference it returns", async () => {
    signIn(renter);
    let claim = declined;
    let options: Record<string, unknown> | undefined;
    window.PaystackPop = { setup: (o) => ((options = o), { openIframe: () => undefined }) };
    try {
      const fetchMock = mockFetch({
        ...common,
        'GET /api/booking/getAll': ok([trip]),
        'GET /api/booking/b1/claims': () => ok(claimsWith(claim)),
        'POST /api/claims/c1/payment': ok({ provider: 'paystack', public_key: 'pk_test_karoo', reference: 'KAROO-KR000001AA-CLAIM-DEF', amount: 150_000, currency: 'ZAR', email: 'sipho@example.co.za', access_code: 'AC_1' }),
        'POST /api/claims/c1/payment/verify': () => {
          claim = { ...declined, from_card: 1500, owed: 0, payment_state: 'paid', payment_error: null };
          return ok(claim, 'Trip charges paid');
        },
      });
      const { user } = renderApp({ path: '/my-bookings' });
      await user.click(within(await screen.findByTestId('trip-claim')).getByRole('button', { name: `Pay ${formatRand(1500)}` }));
      await waitFor(() => expect(options).toMatchObject({ key: 'pk_test_karoo', amount: 150_000, ref: 'KAROO-KR000001AA-CLAIM-DEF', access_code: 'AC_1', currency: 'ZAR' }));
      (options!.callback as (r: { reference: string }) => void)({ reference: 'KAROO-KR000001AA-CLAIM-DEF' });
      expect(await screen.findByText('Trip Charges Paid')).toBeInTheDocument();
      const verify = fetchMock.mock.calls.find(([url]) => url === '/api/claims/c1/payment/verify');
      expect(JSON.parse(String(verify![1]?.body))).toEqual({ reference: 'KAROO-KR000001AA-CLAIM-DEF' });
      await waitFor(() => expect(screen.getByTestId('claim-outcome').textContent).toContain(`and ${formatRand(1500)} from the card.`));
    } finally {
      delete window.PaystackPop;
    }
  });

  it('the host reads what the renter still owes, with nothing to pay', async () => {
    signIn(host);
    mockFetch({ ...common, 'GET /api/booking/getAll': ok([{ ...trip, car_owner: 'host_thabo' }]), 'GET /api/booking/b1/claims': ok(claimsWith(declined)) });
    renderApp({ path: '/my-bookings' });
    const panel = await screen.findByTestId('trip-claim');
    expect(within(panel).getByTestId('claim-outcome').textContent).toContain(`${formatRand(1500)} still owed by the renter.`);
    expect(within(panel).queryByRole('button', { name: /^Pay R/ })).not.toBeInTheDocument();
  });
});
