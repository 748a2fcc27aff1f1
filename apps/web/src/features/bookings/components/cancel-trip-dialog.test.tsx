// Cancelling a paid trip from My Bookings (issue 20): before confirming, the renter and the host see
// what each side gets back or pays, and the amounts are the shared cancellationOutcome()'s (worked
// out by hand below as well, so a wrong function would not pass by agreeing with itself).
import { cancellationOutcome, formatPolicyMoment, formatRand, freeCancellationUntil, type Booking } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { quoteFor, type QuoteOptions } from '@/test/cancellation-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { paidTripOf } from '@/lib/cancellation';

// Monday 25 February 2030, 10:00 in Johannesburg.
const NOW = new Date('2030-02-25T08:00:00.000Z');
const renter = makeUser();
const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });

/** A paid trip of the fixture (2 days, rental R 900, total R 990, host fee 25%), paid on 20 February. */
function paidTrip(overrides: Partial<Booking> = {}): Booking {
  return makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', paid_at: '2030-02-20T08:00:00.000Z', ...overrides });
}

function amountIn(dialog: HTMLElement, testId: string): string | null {
  return within(dialog).getByTestId(testId).querySelector('dd')?.textContent ?? null;
}

const rand = (cents: number) => formatRand(cents / 100);
/** toHaveTextContent collapses white space, the rand formatter's non-breaking one included. */
const spaced = (text: string) => text.replace(/\s+/g, ' ');

function mockMyBookings(booking: Booking, quote: (url: URL) => ReturnType<typeof quoteFor>) {
  const patches: unknown[] = [];
  mockFetch({
    'GET /api/booking/getAll': ok([booking]),
    'GET /api/booking/getStats': ok({ total: 1, by_status: {}, pending: 0, confirmed: 0, active: 1, completed: 0, cancelled: 0, rejected: 0, total_revenue: 0, total_earnings: 0, total_app_fee: 0, total_spent: 0 }),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    [`GET /api/booking/${booking.id}/cancellation`]: ({ url }) => ok(quote(new URL(url, 'http://x'))),
    [`PATCH /api/booking/${booking.id}/cancel`]: ({ init }) => {
      patches.push(JSON.parse(String(init?.body ?? '{}')));
      return ok({ ...booking, status: 'cancelled' }, 'Booking cancelled');
    },
  });
  return patches;
}

function serverQuote(booking: Booking, actor: 'renter' | 'host', options: Omit<QuoteOptions, 'now'> = {}) {
  return (url: URL) => quoteFor(booking, actor, { now: new Date(), noShow: url.searchParams.get('no_show') === 'true', ...options });
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'], shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Cancel trip, the renter', () => {
  it('inside the free window: the policy, "Free cancellation until", everything back, no fee; confirming cancels it', async () => {
    signIn(renter);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00' });
    const patches = mockMyBookings(booking, serverQuote(booking, 'renter'));
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    await user.click(within(card).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel your trip\?/ });
    await within(dialog).findByTestId('cancel-refund');

    // 24 hours before Fri 1 March 09:00.
    expect(formatPolicyMoment(freeCancellationUntil(paidTripOf(booking)))).toBe('Thu 28 Feb, 09:00');
    expect(within(dialog).getByTestId('free-window')).toHaveTextContent('Free cancellation until Thu 28 Feb, 09:00');
    const expected = cancellationOutcome({ trip: paidTripOf(booking), actor: 'renter', now: NOW });
    expect(expected.refundCents).toBe(99_000);
    expect(amountIn(dialog, 'cancel-refund')).toBe(rand(expected.refundCents));
    expect(within(dialog).queryByTestId('cancel-fee')).not.toBeInTheDocument();
    expect(dialog).toHaveTextContent(spaced(`Cancellation policy: Free cancellation until Thu 28 Feb, 09:00. After that, cancelling costs ${formatRand(225)}; the rest is refunded.`));

    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Cancel your trip\?/ })).not.toBeInTheDocument());
    // The refund shown goes with the request: the server refuses if its amounts moved meanwhile.
    expect(patches).toEqual([{ expected_refund: expected.refundCents / 100 }]);
    expect(await screen.findByText('Trip Cancelled')).toBeInTheDocument();
  });

  it('late: the fee before confirming (half a day of a 2-day trip: R 225), R 765 back, "Free cancellation ended"', async () => {
    signIn(renter);
    // Starts today at 20:00, ten hours from now: the free window ended yesterday at 20:00.
    const booking = paidTrip({ start_date: '2030-02-25', start_time: '20:00', end_date: '2030-02-27' });
    mockMyBookings(booking, serverQuote(booking, 'renter'));
    const { user } = renderApp({ path: '/my-bookings' });

    await user.click(within(await screen.findByRole('article', { name: 'Booking KR000001AA' })).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel your trip\?/ });
    await within(dialog).findByTestId('cancel-fee');

    const expected = cancellationOutcome({ trip: paidTripOf(booking), actor: 'renter', now: NOW });
    expect([expected.feeCents, expected.refundCents]).toEqual([22_500, 76_500]);
    expect(amountIn(dialog, 'cancel-fee')).toBe(`-${rand(expected.feeCents)}`);
    expect(amountIn(dialog, 'cancel-refund')).toBe(rand(expected.refundCents));
    expect(within(dialog).getByTestId('free-window')).toHaveTextContent(/^Free cancellation ended \w{3} 24 Feb, 20:00$/);
  });

  it('shows the server’s reason and cannot confirm when the server says no', async () => {
    signIn(renter);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00' });
    mockMyBookings(booking, serverQuote(booking, 'renter', { blocked: 'Your trip has started. To end it, return the car to the host.' }));
    const { user } = renderApp({ path: '/my-bookings' });
    await user.click(within(await screen.findByRole('article', { name: 'Booking KR000001AA' })).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel your trip\?/ });
    expect(await within(dialog).findByText('Your trip has started. To end it, return the car to the host.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel trip' })).toBeDisabled();
  });

  it('shows the server’s amounts when its quote disagrees (a clock a moment later), and says so', async () => {
    signIn(renter);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00' });
    // The "server" is already past the free window.
    mockMyBookings(booking, () => quoteFor(booking, 'renter', { now: new Date('2030-02-28T08:00:00.000Z') }));
    const { user } = renderApp({ path: '/my-bookings' });
    await user.click(within(await screen.findByRole('article', { name: 'Booking KR000001AA' })).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel your trip\?/ });
    expect(await within(dialog).findByText(/these are the amounts that apply/)).toBeInTheDocument();
    expect(amountIn(dialog, 'cancel-fee')).toBe(`-${rand(22_500)}`);
    expect(amountIn(dialog, 'cancel-refund')).toBe(rand(76_500));
  });
});

describe('Cancel trip, the host', () => {
  it('before the start: the renter’s full refund and the penalty from the settings, "deducted from your next payout"', async () => {
    signIn(host);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00' });
    // Settings other than the defaults: the dialog takes the penalties in force from the server.
    const patches = mockMyBookings(booking, serverQuote(booking, 'host', { penalties: { early: 300, late: 600 } }));
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).queryByRole('button', { name: 'Report a no-show' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel this trip\?/ });
    await within(dialog).findByTestId('cancel-penalty');

    const expected = cancellationOutcome({ trip: paidTripOf(booking), actor: 'host', now: NOW, penalties: { hostPenaltyEarlyCents: 30_000, hostPenaltyLateCents: 60_000 } });
    expect([expected.refundCents, expected.hostPenaltyCents]).toEqual([99_000, 30_000]);
    expect(amountIn(dialog, 'cancel-refund')).toBe(rand(expected.refundCents));
    expect(amountIn(dialog, 'cancel-penalty')).toBe(rand(expected.hostPenaltyCents));
    expect(within(dialog).getByTestId('penalty-note')).toHaveTextContent(spaced(`${rand(30_000)} will be deducted from your next payout.`));

    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    await waitFor(() => expect(patches).toEqual([{ expected_refund: expected.refundCents / 100 }]));
  });

  it('after the start: Report a no-show, with the renter’s fee and the host’s share of it (R 225, R 169 after the 25% host fee)', async () => {
    signIn(host);
    // Started at 09:00 today, an hour ago.
    const booking = paidTrip({ start_date: '2030-02-25', start_time: '09:00', end_date: '2030-02-27' });
    const patches = mockMyBookings(booking, serverQuote(booking, 'host'));
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).queryByRole('button', { name: 'Cancel trip' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Report a no-show' }));
    const dialog = await screen.findByRole('dialog', { name: /Report a no-show\?/ });
    await within(dialog).findByTestId('cancel-host-share');

    const expected = cancellationOutcome({ trip: paidTripOf(booking), actor: 'host', now: NOW, noShow: true });
    expect([expected.feeCents, expected.hostShareCents, expected.refundCents]).toEqual([22_500, 16_900, 76_500]);
    expect(amountIn(dialog, 'cancel-fee')).toBe(rand(expected.feeCents));
    expect(amountIn(dialog, 'cancel-host-share')).toBe(rand(expected.hostShareCents));
    expect(amountIn(dialog, 'cancel-refund')).toBe(rand(expected.refundCents));

    await user.click(within(dialog).getByRole('button', { name: 'Report no-show' }));
    await waitFor(() => expect(patches).toEqual([{ no_show: true, expected_refund: expected.refundCents / 100 }]));
  });
});

describe('A cancelled paid trip on My Bookings', () => {
  const cancelled = (overrides: Partial<Booking>) =>
    paidTrip({ status: 'cancelled', cancelled_at: '2030-02-25T08:00:00.000Z', ...overrides });

  it('shows the renter who cancelled, the fee kept and the refund with its state', async () => {
    signIn(renter);
    mockMyBookings(
      cancelled({
        cancel_cause: 'renter',
        money: { charged: 990, refunded: 0, refund_pending: 765, cancellation_fee: 225, host_share: null, host_penalty: null },
        refunds: [{ id: 'r1', reference: 'KAROO-KR000001AA-1', amount: 765, status: 'pending', reason: 'Refund of your cancelled trip, less the R 225 cancellation fee.', of: 'trip', requested_at: NOW.toISOString(), refunded_at: null }],
      }),
      () => {
        throw new Error('no quote for a cancelled trip');
      },
    );
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).getByTestId('trip-cancellation')).toHaveTextContent(spaced(`You cancelled this trip${`You paid ${formatRand(990)}; the cancellation fee of ${formatRand(225)} is kept.`}`));
    expect(within(card).getByText(/^Refund on its way: R\s?765 to your card/)).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Cancel trip' })).not.toBeInTheDocument();
  });

  it('shows the host their penalty, or their share of a renter’s fee, and not the trip’s earnings', async () => {
    signIn(host);
    mockMyBookings(
      cancelled({ cancel_cause: 'host', money: { charged: null, refunded: null, refund_pending: null, cancellation_fee: 0, host_share: 0, host_penalty: 250 } }),
      () => {
        throw new Error('no quote');
      },
    );
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).getByTestId('trip-cancellation')).toHaveTextContent(spaced(`You cancelled this tripA ${formatRand(250)} cancellation penalty will be deducted from your next payout.`));
    await user.click(within(card).getByRole('button', { name: 'View details' }));
    expect(within(card).queryByText('Your earnings')).not.toBeInTheDocument();
  });

  it('shows the host their share of a late renter’s fee', async () => {
    signIn(host);
    mockMyBookings(
      cancelled({ cancel_cause: 'renter', money: { charged: null, refunded: null, refund_pending: null, cancellation_fee: 225, host_share: 169, host_penalty: 0 } }),
      () => {
        throw new Error('no quote');
      },
    );
    renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).getByTestId('trip-cancellation')).toHaveTextContent(spaced(`Sipho Nkosi cancelled this tripYou earn ${formatRand(169)} of the ${formatRand(225)} cancellation fee.`));
  });
});

describe('The dialog and the card name the trip and the other party', () => {
  it('the renter reads the start and the end, dates and times, and the host by full name', async () => {
    signIn(renter);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00', end_date: '2030-03-03', end_time: '17:30' });
    mockMyBookings(booking, serverQuote(booking, 'renter'));
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(card).toHaveTextContent('01 Mar 2030 09:00 – 03 Mar 2030 17:30');
    expect(card).toHaveTextContent('Host Thabo Mokoena');
    expect(card).not.toHaveTextContent('Host host_thabo');
    await user.click(within(card).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel your trip\?/ });
    expect(dialog).toHaveTextContent('01 Mar 2030 09:00 – 03 Mar 2030 17:30');
  });

  it('the host reads the same span and the renter by full name', async () => {
    signIn(host);
    const booking = paidTrip({ start_date: '2030-03-01', start_time: '09:00', end_date: '2030-03-03', end_time: '17:30' });
    mockMyBookings(booking, serverQuote(booking, 'host'));
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(card).toHaveTextContent('Renter Sipho Nkosi');
    await user.click(within(card).getByRole('button', { name: 'Cancel trip' }));
    const dialog = await screen.findByRole('dialog', { name: /Cancel this trip\?/ });
    expect(dialog).toHaveTextContent("Sipho Nkosi's paid trip in your Volkswagen Polo, 01 Mar 2030 09:00 – 03 Mar 2030 17:30.");
  });
});
