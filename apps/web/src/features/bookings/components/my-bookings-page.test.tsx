import { formatRand } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

/** Matches an element whose whole text is the amount (formatRand's spaces are non-breaking). */
const money = (amount: number) => (_: string, el: Element | null) => el?.children.length === 0 && el.textContent === formatRand(amount);

const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });

describe('MyBookingsPage', () => {
  it('shows the renter their bookings with the summary, the privacy notice and the renter actions', async () => {
    signIn(makeUser());
    mockFetch({
      'GET /api/booking/getAll': ok([
        makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'pending' }),
        makeBooking({ id: 'b2', booking_id: 'KR000002AA', status: 'confirmed', car_name: 'Kia Sonet', expires_at: new Date(Date.now() + 3 * 3_600_000).toISOString() }),
        makeBooking({ id: 'b3', booking_id: 'KR000003AA', status: 'completed', payment_status: 'paid', car_name: 'Suzuki Swift' }),
      ]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
    });
    const { user } = renderApp({ path: '/my-bookings' });

    const pending = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(pending).getByText('Booking Request')).toBeInTheDocument();
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
    expect(within(summary).getByText('Total Bookings').nextSibling).toHaveTextContent('3');
    expect(within(summary).queryByText('Total Spent')).not.toBeInTheDocument();

    await user.click(within(pending).getByRole('button', { name: 'View details' }));
    expect(within(pending).getByText('Service fee (10%)')).toBeInTheDocument();
    expect(within(pending).queryByText('Your earnings')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Rejected/ }));
    expect(screen.getByText('No rejected bookings')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View All Bookings' }));
    expect(screen.getAllByRole('article')).toHaveLength(3);
  });

  it('shows the host Accept and Reject with the earnings breakdown, and confirms', async () => {
    signIn(host);
    let status: 'pending' | 'confirmed' = 'pending';
    const fetchMock = mockFetch({
      'GET /api/booking/getAll': () => ok([makeBooking({ id: 'b1', status, confirmed_at: null })]),
      'GET /api/review/getAll': ok([]),
      'GET /api/notifications': ok([]),
      'PATCH /api/booking/approve/b1': () => {
        status = 'confirmed';
        return ok(makeBooking({ id: 'b1', status }));
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR123456AB' });
    expect(within(card).getByText('Received Booking')).toBeInTheDocument();
    expect(screen.getByText('Total Spent')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'View details' }));
    expect(within(card).getByText('Platform fee (25%)')).toBeInTheDocument();
    expect(within(card).getByText(money(742.5))).toBeInTheDocument();

    await user.type(within(card).getByLabelText('Message to the renter (optional)'), 'Welcome!');
    await user.click(within(card).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Booking Confirmed')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/booking/approve/b1');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ host_response: 'Welcome!' });
    await waitFor(() => expect(within(screen.getByRole('article')).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument());
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
