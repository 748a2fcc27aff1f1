import { formatRand } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** Matches an element whose whole text is the amount (formatRand's spaces are non-breaking). */
const money = (amount: number) => (_: string, el: Element | null) => el?.children.length === 0 && el.textContent === formatRand(amount);

const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });
const STATS = { total: 0, by_status: {}, pending: 0, confirmed: 0, active: 0, completed: 0, cancelled: 0, rejected: 0, total_revenue: 0, total_earnings: 0, total_app_fee: 0, total_spent: 0 };

describe('MyBookingsPage', () => {
  it('shows the renter their bookings with the summary, the privacy notice and the renter actions', async () => {
    signIn(makeUser());
    mockFetch({
      'GET /api/booking/getAll': ok([
        makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'pending' }),
        makeBooking({ id: 'b2', booking_id: 'KR000002AA', status: 'confirmed', car_name: 'Kia Sonet', expires_at: new Date(Date.now() + 3 * 3_600_000).toISOString() }),
        makeBooking({ id: 'b3', booking_id: 'KR000003AA', status: 'completed', payment_status: 'paid', car_name: 'Suzuki Swift' }),
      ]),
      // The tiles are the server's aggregates, not sums of the (capped) list.
      'GET /api/booking/getStats': ok({ ...STATS, total: 703, pending: 1, completed: 700, total_spent: 1234.5 }),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
    });
    const { user } = renderApp({ path: '/my-bookings' });

    const pending = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(pending).getByText("Awaiting host's answer")).toBeInTheDocument();
    expect(within(pending).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(within(pending).queryByRole('button', { name: 'Pay now' })).not.toBeInTheDocument();
    expect(within(pending).getByText(money(990))).toBeInTheDocument();

    const confirmed = screen.getByRole('article', { name: 'Booking KR000002AA' });
    expect(within(confirmed).getByRole('button', { name: 'Pay now' })).toBeInTheDocument();
    expect(within(confirmed).getByText(/^Expires in 2 h/)).toBeInTheDocument();

    const completed = screen.getByRole('article', { name: 'Booking KR000003AA' });
    expect(within(completed).getByRole('button', { name: 'Leave a review' })).toBeInTheDocument();

    expect(screen.getByText(/visible only to the renter, the car owner and administrators/)).toBeInTheDocument();
    const summary = screen.getByRole('region', { name: 'Booking summary' });
    expect(within(summary).getByText('Total Bookings').nextSibling).toHaveTextContent('703');
    expect(within(summary).getByText('Completed').nextSibling).toHaveTextContent('700');
    // A renter's own spending on paid or completed trips; a host's tile says what it is (revenue).
    expect(within(summary).getByText('Total Spent').nextSibling).toHaveTextContent(/R\s?1\s?234,50/);
    expect(within(summary).queryByText('Revenue Received')).not.toBeInTheDocument();

    await user.click(within(pending).getByRole('button', { name: 'View details' }));
    expect(within(pending).getByText('Service fee (10%)')).toBeInTheDocument();
    expect(within(pending).queryByText('Your earnings')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Declined/ }));
    expect(screen.getByText('No declined bookings')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View All Bookings' }));
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('shows the host Accept and Reject with the earnings breakdown, and confirms', async () => {
    signIn(host);
    let status: 'pending' | 'confirmed' = 'pending';
    const fetchMock = mockFetch({
      'GET /api/booking/getAll': () => ok([makeBooking({ id: 'b1', status, confirmed_at: null })]),
      'GET /api/booking/getStats': ok({ ...STATS, total: 1, pending: 1, total_revenue: 5000 }),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'PATCH /api/booking/approve/b1': () => {
        status = 'confirmed';
        return ok(makeBooking({ id: 'b1', status }));
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR123456AB' });
    expect(within(card).getByText(/^New request/)).toBeInTheDocument();
    expect(await screen.findByText('Revenue Received')).toBeInTheDocument();
    expect(screen.getByText('Revenue Received').nextSibling).toHaveTextContent(/R\s?5\s?000/);
    expect(screen.queryByText('Total Spent')).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'View details' }));
    // The fee is 25% of the rental (R 900), not of the renter's total with the service fee.
    expect(within(card).getByText('Rental').nextSibling).toHaveTextContent(/R\s?900/);
    expect(within(card).getByText('Host fee (25% of rental)').nextSibling).toHaveTextContent(/-R\s?225/);
    expect(within(card).getByText(money(675))).toBeInTheDocument();

    await user.type(within(card).getByLabelText('Message to the renter (optional)'), 'Welcome!');
    await user.click(within(card).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Booking Confirmed')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/booking/approve/b1');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ host_response: 'Welcome!' });
    await waitFor(() => expect(within(screen.getByRole('article')).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument());
  });

  it('says where each trip stands and what comes next, in Johannesburg days, with no "Active" or "Booking Request"', async () => {
    // Thursday 26 November 2026, 14:00 in Johannesburg.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00.000Z'));
    try {
      signIn(makeUser());
      const trip = (id: string, overrides: Parameters<typeof makeBooking>[0]) => makeBooking({ id, booking_id: `KR00000${id}AA`, ...overrides });
      mockFetch({
        'GET /api/booking/getAll': ok([
          trip('1', { status: 'active', payment_status: 'paid', start_date: '2026-12-08', end_date: '2026-12-11' }),
          trip('2', { status: 'pending', expires_at: '2026-11-28T08:00:00.000Z' }),
          trip('3', { status: 'confirmed', expires_at: '2026-11-27T12:00:00.000Z' }),
          trip('4', { status: 'active', payment_status: 'paid', start_date: '2026-11-24', end_date: '2026-11-28' }),
          trip('5', { status: 'completed', payment_status: 'paid', start_date: '2026-10-01', end_date: '2026-10-03' }),
          trip('6', { status: 'cancelled' }),
          trip('7', { status: 'rejected' }),
          trip('8', { status: 'active', payment_status: 'paid', start_date: '2026-11-26', end_date: '2026-11-26', is_hourly_booking: true, start_time: '09:00', end_time: '15:00' }),
        ]),
        'GET /api/booking/getStats': ok(STATS),
        'GET /api/review/getAll': ok([]),
        'GET /api/notifications': ok([]),
      });
      renderApp({ path: '/my-bookings' });
      const badgeOf = async (id: string, text: string) => expect(within(await screen.findByRole('article', { name: `Booking KR00000${id}AA` })).getByText(text)).toBeInTheDocument();
      await badgeOf('1', 'Paid · starts Tue 8 Dec');
      await badgeOf('2', "Awaiting host's answer");
      await badgeOf('3', 'Accepted · pay by Fri 27 Nov, 14:00');
      await badgeOf('4', 'On trip · return Sat 28 Nov');
      await badgeOf('5', 'Completed');
      await badgeOf('6', 'Cancelled');
      await badgeOf('7', 'Declined by the host');
      await badgeOf('8', 'On trip · return Thu 26 Nov, 15:00');
      expect(screen.queryByText('Booking Request')).not.toBeInTheDocument();
      expect(screen.queryByText('Active')).not.toBeInTheDocument();
      // The status filters speak the same words: a paid trip is "Paid", never "Active".
      expect(screen.getByRole('button', { name: /^Paid/ })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /^Active/ })).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells the host what each request needs from them', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:30.000Z'));
    try {
      signIn(host);
      mockFetch({
        'GET /api/booking/getAll': ok([
          makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'pending', expires_at: '2026-11-28T08:00:00.000Z' }),
          makeBooking({ id: 'b2', booking_id: 'KR000002AA', status: 'confirmed', expires_at: '2026-11-27T12:00:00.000Z' }),
          makeBooking({ id: 'b3', booking_id: 'KR000003AA', status: 'active', payment_status: 'paid', start_date: '2026-11-20', end_date: '2026-11-25' }),
        ]),
        'GET /api/booking/getStats': ok(STATS),
        'GET /api/review/getAll': ok([]),
        'GET /api/notifications': ok([]),
      });
      renderApp({ path: '/my-bookings' });
      expect(within(await screen.findByRole('article', { name: 'Booking KR000001AA' })).getByText('New request · answer by Sat 28 Nov, 10:00')).toBeInTheDocument();
      expect(within(screen.getByRole('article', { name: 'Booking KR000002AA' })).getByText('Accepted · renter pays by Fri 27 Nov, 14:00')).toBeInTheDocument();
      // Due Wed 25 Nov 17:00, now Thu 26 Nov 14:00:30: the 22nd hour late has begun.
      expect(within(screen.getByRole('article', { name: 'Booking KR000003AA' })).getByText('Not returned · 22 h late (due Wed 25 Nov, 17:00)')).toBeInTheDocument();
      expect(screen.queryByText('Received Booking')).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows Accept Failed with the server message', async () => {
    signIn(host);
    mockFetch({
      'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'PATCH /api/booking/approve/b1': fail(409, 'This booking can no longer be accepted.'),
    });
    const { user } = renderApp({ path: '/my-bookings' });
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Accept Failed')).toBeInTheDocument();
    expect(screen.getByText('This booking can no longer be accepted.')).toBeInTheDocument();
  });

  it('shows the load error with a reload button', async () => {
    signIn(makeUser());
    mockFetch({ 'GET /api/booking/getAll': fail(500, 'Boom'), 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]) });
    renderApp({ path: '/my-bookings' });
    expect(await screen.findByText('Unable to Load Bookings', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('There was an error loading your booking history. Please try again later.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it('shows the empty state linking to the cars', async () => {
    signIn(makeUser());
    mockFetch({ 'GET /api/booking/getAll': ok([]), 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]) });
    renderApp({ path: '/my-bookings' });
    expect(await screen.findByText('No bookings yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Cars' })).toHaveAttribute('href', '/cars');
  });
});

describe('MyBookingsPage accept errors', () => {
  it('says Booking Not Found when the booking is gone', async () => {
    signIn(host);
    mockFetch({
      'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'PATCH /api/booking/approve/b1': fail(404, 'Booking not found'),
    });
    const { user } = renderApp({ path: '/my-bookings' });
    await user.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Booking Not Found')).toBeInTheDocument();
    expect(screen.getByText('Could not find the booking to accept.')).toBeInTheDocument();
  });
});

describe('MyBookingsPage confirmations and the server\u2019s messages', () => {
  const base = { 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]) };

  it('Cancel Booking asks first: Keep Booking changes nothing, confirming cancels', async () => {
    signIn(makeUser());
    const fetchMock = mockFetch({
      ...base,
      'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]),
      'PATCH /api/booking/b1/cancel': ok(makeBooking({ id: 'b1', status: 'cancelled' })),
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const cancelCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/booking/b1/cancel').length;

    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    expect(cancelCalls()).toBe(0);
    let dialog = screen.getByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep Booking' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(cancelCalls()).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Cancel Booking' }));
    dialog = screen.getByRole('dialog', { name: 'Cancel this booking?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Booking Cancelled')).toBeInTheDocument();
    expect(cancelCalls()).toBe(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it.each([
    [409, 'This booking can no longer be cancelled: it is already paid.'],
    [503, 'Karoo is under maintenance. Please try again later.'],
    [429, 'Too many requests. Try again at 14:05.'],
  ])('a refused cancel (%i) shows the server\u2019s message and the dialog stays open', async (status, message) => {
    signIn(makeUser());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ ...base, 'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]), 'PATCH /api/booking/b1/cancel': fail(status, message) });
    const { user } = renderApp({ path: '/my-bookings' });

    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Cancel Failed')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByText('Failed to cancel the booking. Please try again.')).not.toBeInTheDocument();
    expect(within(screen.getByRole('dialog', { name: 'Cancel this booking?' })).getByRole('button', { name: 'Cancel Booking' })).toBeEnabled();
  });

  it('a cancel that fails without a reason shows document 3\u2019s text', async () => {
    signIn(makeUser());
    vi.spyOn(console, 'error').mockImplementation(() => {});
    mockFetch({ ...base, 'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]), 'PATCH /api/booking/b1/cancel': fail(500, 'Something went wrong on our side. Please try again.') });
    const { user } = renderApp({ path: '/my-bookings' });
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel Booking' }));
    expect(await screen.findByText('Failed to cancel the booking. Please try again.')).toBeInTheDocument();
  });

  it('Reject asks first, looks different from Accept, and shows the server\u2019s reason when refused', async () => {
    signIn(host);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchMock = mockFetch({
      ...base,
      'GET /api/booking/getAll': ok([makeBooking({ id: 'b1' })]),
      'PATCH /api/booking/reject/b1': fail(409, 'This booking was already cancelled by the renter.'),
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR123456AB' });
    const accept = within(card).getByRole('button', { name: 'Accept' });
    const reject = within(card).getByRole('button', { name: 'Reject' });
    expect(accept.className).toContain('bg-emerald-700');
    expect(reject.className).toContain('text-red-700');
    expect(reject.className).not.toContain('bg-emerald-700');

    await user.click(reject);
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/booking/reject/b1')).toBe(false);
    const dialog = screen.getByRole('dialog', { name: 'Reject this booking request?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject Booking' }));
    expect(await screen.findByText('Reject Failed')).toBeInTheDocument();
    expect(screen.getByText('This booking was already cancelled by the renter.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reject this booking request?' })).toBeInTheDocument();
  });
});

describe('MyBookingsPage for an admin', () => {
  const admin = makeUser({ id: 'admin-1', username: 'admin', full_name: 'Karoo Admin', role: 'admin' });

  it('asks for the admin\u2019s own bookings (scope=mine) and offers no renter actions on other people\u2019s trips', async () => {
    signIn(admin);
    const fetchMock = mockFetch({
      // An older server might still answer with everyone's bookings: only the admin's own are shown.
      'GET /api/booking/getAll': ok([
        makeBooking({ id: 'b1', booking_id: 'KR000001AA', user_username: 'sipho', car_owner: 'host_thabo' }),
        makeBooking({ id: 'b2', booking_id: 'KR000002AA', user_username: 'admin', car_owner: 'host_thabo', car_name: 'Kia Sonet' }),
      ]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/my-bookings' });

    const own = await screen.findByRole('article', { name: 'Booking KR000002AA' });
    expect(within(own).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Booking KR000001AA' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(1);
    expect(screen.getByText('Your trips, past and upcoming.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).startsWith('/api/booking/getAll'));
    expect(new URL(String(call![0]), 'http://x').searchParams.get('scope')).toBe('mine');
  });
});
