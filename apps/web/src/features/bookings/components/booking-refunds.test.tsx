import type { BookingRefund } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const pendingRefund: BookingRefund = {
  id: 'refund-1',
  reference: 'KAROO-KR000002AA-1A2B3C4D5E6F',
  amount: 2860,
  status: 'pending',
  reason: 'This booking had expired before the payment arrived.',
  of: 'trip',
  requested_at: '2030-03-12T08:00:00.000Z',
  refunded_at: null,
};
const doneRefund: BookingRefund = {
  id: 'refund-2',
  reference: 'KAROO-KR000001AA-AABBCCDDEEFF',
  amount: 2860,
  status: 'refunded',
  reason: 'This booking was already paid with another payment.',
  of: 'trip',
  requested_at: '2030-03-12T08:00:00.000Z',
  // 23:30 UTC: already 13 March in Johannesburg.
  refunded_at: '2030-03-12T23:30:00.000Z',
};

function mockMyBookings(bookings: ReturnType<typeof makeBooking>[]) {
  mockFetch({
    'GET /api/booking/getAll': ok(bookings),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
  });
}

describe('Refunds on the booking card', () => {
  it('shows the renter a pending refund on its way and a done one, each with its reason and reference', async () => {
    signIn(makeUser());
    mockMyBookings([
      makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', total_price: 2860, refunds: [doneRefund] }),
      makeBooking({ id: 'b2', booking_id: 'KR000002AA', status: 'cancelled', host_response: 'Expired: the booking was not paid within 24 hours of being accepted.', refunds: [pendingRefund] }),
      makeBooking({ id: 'b3', booking_id: 'KR000003AA', status: 'completed', payment_status: 'paid' }),
    ]);
    renderApp({ path: '/my-bookings' });

    const paid = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    const done = within(within(paid).getByRole('list', { name: 'Refunds' })).getByRole('listitem');
    expect(within(done).getByText(/^Refunded R\s?2\s?860 on 13 Mar 2030$/)).toBeInTheDocument();
    expect(done).toHaveTextContent('This booking was already paid with another payment.');
    expect(done).toHaveTextContent('Payment reference KAROO-KR000001AA-AABBCCDDEEFF');
    expect(done).not.toHaveTextContent(/on its way/);

    const expired = screen.getByRole('article', { name: 'Booking KR000002AA' });
    const pending = within(within(expired).getByRole('list', { name: 'Refunds' })).getByRole('listitem');
    expect(within(pending).getByText(/^Refund on its way: R\s?2\s?860 to your card \(requested 12 Mar 2030\)$/)).toBeInTheDocument();
    expect(pending).toHaveTextContent('This booking had expired before the payment arrived.');

    // A booking without refunds shows no refund list.
    expect(within(screen.getByRole('article', { name: 'Booking KR000003AA' })).queryByRole('list', { name: 'Refunds' })).not.toBeInTheDocument();
  });

  it('lists every refund of a booking charged more than twice', async () => {
    signIn(makeUser());
    mockMyBookings([makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', refunds: [doneRefund, { ...pendingRefund, id: 'refund-3', reference: 'KAROO-KR000001AA-FFEEDDCCBBAA' }] })]);
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    const items = within(within(card).getByRole('list', { name: 'Refunds' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('p')?.textContent?.split(' ')[0])).toEqual(['Refunded', 'Refund']);
  });

  it('names the deposit’s return apart from the trip’s refund', async () => {
    signIn(makeUser());
    const deposit: BookingRefund = { ...doneRefund, id: 'refund-4', amount: 5000, of: 'deposit', reason: 'Your deposit, back after the claim window.' };
    mockMyBookings([makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'cancelled', payment_status: 'paid', refunds: [{ ...doneRefund, amount: 805 }, deposit] })]);
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).getByTestId('booking-refund')).toHaveTextContent('Refunded R 805 on 13 Mar');
    expect(within(card).getByTestId('booking-deposit-refund')).toHaveTextContent('Deposit of R 5 000 returned on 13 Mar');
  });

  it('is the renter’s: the car owner’s card shows no refund line', async () => {
    signIn(makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' }));
    // Only an admin who owns the car could receive refunds on a booking they host; the card still shows none.
    mockMyBookings([makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', refunds: [doneRefund] })]);
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).getByText(/^Paid · starts/)).toBeInTheDocument();
    expect(within(card).queryByRole('list', { name: 'Refunds' })).not.toBeInTheDocument();
    expect(within(card).queryByText(/Refund/)).not.toBeInTheDocument();
  });
});
