import { screen, waitFor, within } from '@testing-library/react';
import { CPA_WAIVER_POLICY, formatRand } from '@karoo/shared';
import { describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const session = { provider: 'sandbox', reference: 'KRP-1', amount: 99050, currency: 'ZAR', email: 'sipho@example.co.za' };

function setup(handlers: Parameters<typeof mockFetch>[0] = {}) {
  signIn(makeUser());
  let booking = makeBooking({ id: 'b1', status: 'confirmed', total_price: 990.5 });
  const fetchMock = mockFetch({
    'GET /api/booking/getAll': () => ok([booking]),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    'POST /api/booking/b1/payment-session': ok(session),
    'POST /api/booking/pay/b1': () => {
      booking = { ...booking, status: 'active', payment_status: 'paid' };
      return ok(booking, 'Payment Successful: Booking activated!');
    },
    ...handlers,
  });
  return { ...renderApp({ path: '/my-bookings' }), fetchMock };
}

async function openCheckout(user: ReturnType<typeof setup>['user']) {
  await user.click(await screen.findByRole('button', { name: 'Pay now' }));
  return screen.findByRole('dialog', { name: 'Secure checkout' });
}

describe('sandbox checkout', () => {
  it('shows the test-mode banner, the amount in rand and the test cards; checks the fields before charging', async () => {
    const { user, fetchMock } = setup();
    const dialog = await openCheckout(user);
    expect(within(dialog).getByText(/Test mode — no real money moves/)).toBeInTheDocument();
    expect(within(dialog).getByTestId('checkout-amount').textContent).toMatch(/^R\s?990,50$/);
    expect(within(dialog).getByText('sipho@example.co.za', { exact: false })).toBeInTheDocument();
    expect(within(dialog).getByText('4084 0840 8408 4081')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: /^Pay R/ }));
    expect(within(dialog).getByText('Card number is required')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/payments/sandbox/charge')).toBe(false);
  });

  it("shows the trip's cancellation policy, read as paid now, before the card form", async () => {
    // Monday 25 February 2030, 10:00 in Johannesburg; the trip starts Fri 1 Mar, 09:00, 2 days at R 450.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-02-25T08:00:00Z'));
    try {
      const { user } = setup();
      const dialog = await openCheckout(user);
      expect(within(dialog).getByRole('region', { name: 'Cancellation policy' }).textContent).toBe(
        `Cancellation policyFree cancellation until Thu 28 Feb, 09:00. After that, cancelling costs ${formatRand(225)}; the rest is refunded.${CPA_WAIVER_POLICY}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('says the amount includes the deposit and the day it comes back (the trip ends Sun 3 Mar: back by Wed 6 Mar)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-02-25T08:00:00Z'));
    try {
      signIn(makeUser());
      const booking = makeBooking({ id: 'b1', status: 'confirmed', total_price: 990.5, deposit: 3500, end_date: '2030-03-03', end_time: '09:00' });
      mockFetch({
        'GET /api/booking/getAll': ok([booking]),
        'GET /api/review/getAll': ok([]),
        'GET /api/notifications': ok([]),
        'GET /api/settings': ok({}),
        'POST /api/booking/b1/payment-session': ok({ ...session, amount: 449050 }),
      });
      const { user } = renderApp({ path: '/my-bookings' });
      const dialog = await openCheckout(user);
      expect(within(dialog).getByTestId('checkout-amount').textContent).toBe(formatRand(4490.5));
      expect((await within(dialog).findByTestId('checkout-deposit')).textContent).toBe(`Includes the ${formatRand(3500)} deposit, back by Wed 6 Mar if nothing is claimed.`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a decline inline, lets the renter retry, then activates the booking', async () => {
    let attempts = 0;
    const { user, fetchMock } = setup({
      'POST /api/payments/sandbox/charge': () => {
        attempts += 1;
        return attempts === 1 ? ok({ status: 'failed', message: 'Your card was declined.' }) : ok({ status: 'success', message: 'Payment approved.' });
      },
    });
    const dialog = await openCheckout(user);
    await user.type(within(dialog).getByLabelText('Card number'), '4000000000000002');
    expect(within(dialog).getByLabelText('Card number')).toHaveValue('4000 0000 0000 0002');
    await user.type(within(dialog).getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(within(dialog).getByLabelText('CVV'), '123');
    await user.click(within(dialog).getByRole('button', { name: /^Pay R/ }));
    expect(await within(dialog).findByText('Your card was declined.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/booking/pay/b1')).toBe(false);

    await user.clear(within(dialog).getByLabelText('Card number'));
    await user.type(within(dialog).getByLabelText('Card number'), '4084084084084081');
    await user.click(within(dialog).getByRole('button', { name: /^Pay R/ }));
    expect(await screen.findByText('Payment Successful')).toBeInTheDocument();
    expect(screen.getByText('Booking activated!')).toBeInTheDocument();
    const charge = fetchMock.mock.calls.filter(([url]) => url === '/api/payments/sandbox/charge').at(-1);
    expect(JSON.parse(String(charge?.[1]?.body))).toEqual({ reference: 'KRP-1', card_number: '4084084084084081', expiry: '12/30', cvv: '123' });
    const pay = fetchMock.mock.calls.find(([url]) => url === '/api/booking/pay/b1');
    expect(JSON.parse(String(pay?.[1]?.body))).toEqual({ paystack_reference: 'KRP-1' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument());
  });

  it('closing the window cancels the payment', async () => {
    const { user } = setup();
    const dialog = await openCheckout(user);
    await user.click(within(dialog).getByRole('button', { name: 'Close dialog' }));
    expect(await screen.findByText('Payment Cancelled')).toBeInTheDocument();
    expect(screen.getByText('Payment window closed. Booking not activated.')).toBeInTheDocument();
  });

  it('shows Payment Error with the server message when activation fails', async () => {
    const { user } = setup({
      'POST /api/payments/sandbox/charge': ok({ status: 'success', message: 'Payment approved.' }),
      'POST /api/booking/pay/b1': fail(402, 'The payment could not be verified.'),
    });
    const dialog = await openCheckout(user);
    await user.type(within(dialog).getByLabelText('Card number'), '4084084084084081');
    await user.type(within(dialog).getByLabelText('Expiry (MM/YY)'), '1230');
    await user.type(within(dialog).getByLabelText('CVV'), '123');
    await user.click(within(dialog).getByRole('button', { name: /^Pay R/ }));
    expect(await screen.findByText('Payment Error')).toBeInTheDocument();
    expect(screen.getByText('The payment could not be verified.')).toBeInTheDocument();
  });

  it('with Paystack, says so when its script cannot be loaded', async () => {
    const { user } = setup({ 'POST /api/booking/b1/payment-session': ok({ ...session, provider: 'paystack', public_key: 'pk_test_x' }) });
    const appendChild = document.head.appendChild.bind(document.head);
    document.head.appendChild = <T extends Node>(node: T): T => {
      // The script is never added (jsdom does not load scripts): it fails at once.
      if (!(node instanceof HTMLScriptElement)) return appendChild(node);
      queueMicrotask(() => node.onerror?.(new Event('error')));
      return node;
    };
    try {
      await user.click(await screen.findByRole('button', { name: 'Pay now' }));
      expect(await screen.findByText('Paystack script not loaded.')).toBeInTheDocument();
    } finally {
      document.head.appendChild = appendChild;
    }
  });
});
