import type { Booking, BookingStats } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const stats: BookingStats = {
  total: 41,
  by_status: { pending: 3, confirmed: 5, active: 2, completed: 24, cancelled: 4, rejected: 3 },
  pending: 3,
  confirmed: 5,
  active: 2,
  completed: 24,
  cancelled: 4,
  rejected: 3,
  total_revenue: 0,
  total_earnings: 0,
  total_app_fee: 0,
  total_spent: 0,
};

const pending = makeBooking({ id: 'b-pending', booking_id: 'KRPENDING1', status: 'pending', total_price: 1250.5 });
// A charge of the wrong amount is refunded while the booking stays payable.
const confirmedUnpaid = makeBooking({
  id: 'b-unpaid',
  booking_id: 'KRUNPAID01',
  status: 'confirmed',
  payment_status: 'unpaid',
  renter: { username: 'lerato', full_name: 'Lerato Mokoena' },
  refunds: [{ id: 'refund-1', reference: 'KAROO-KRUNPAID01-000000000001', amount: 100, status: 'pending', reason: 'The amount paid does not match the booking total.', of: 'trip', requested_at: '2030-02-21T08:00:00.000Z', refunded_at: null }],
});
const active = makeBooking({
  id: 'b-active',
  booking_id: 'KRACTIVE01',
  status: 'active',
  payment_status: 'paid',
  is_hourly_booking: true,
  booking_type: 'hourly',
  duration_hours: 4,
  start_time: '09:00',
  end_time: '13:00',
  // Paid twice: the second charge went back to the renter.
  refunds: [{ id: 'refund-2', reference: 'KAROO-KRACTIVE01-000000000002', amount: 990, status: 'refunded', reason: 'This booking was already paid with another payment.', of: 'trip', requested_at: '2030-02-21T08:00:00.000Z', refunded_at: '2030-02-21T08:01:00.000Z' }],
});

function mockBookingsApi(options: { rejectFails?: boolean } = {}) {
  const urls: string[] = [];
  const bodies: { method: string; url: string; body: unknown }[] = [];
  const record = ({ url, method, init }: { url: string; method: string; init?: RequestInit }) =>
    bodies.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const fetch = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/booking/getStats': ok(stats),
    'GET /api/booking/getList': ({ url }) => {
      urls.push(url);
      const page = new URL(url, 'http://x').searchParams.get('page') ?? '1';
      const data: Booking[] = page === '1' ? [pending, confirmedUnpaid, active] : [makeBooking({ id: 'b-old', booking_id: 'KROLD00001', status: 'completed', payment_status: 'paid' })];
      return jsonResponse({ success: true, data, meta: { total: 27, page: Number(page), limit: 25 } });
    },
    'PATCH /api/booking/approve/b-pending': (request) => {
      record(request);
      return ok({ ...pending, status: 'confirmed' }, 'Booking Confirmed');
    },
    'PATCH /api/booking/reject/b-pending': (request) => {
      record(request);
      return options.rejectFails ? fail(409, 'This booking was already answered.') : ok({ ...pending, status: 'rejected' }, 'Booking Rejected');
    },
    'PATCH /api/booking/b-unpaid/status': (request) => {
      record(request);
      return ok({ ...confirmedUnpaid, status: 'cancelled' }, 'Booking Cancelled');
    },
  });
  return { urls, bodies, fetch };
}

describe('Bookings tab', () => {
  it('shows the counters, the warning and the table; pages, filters and searches on the server', async () => {
    signIn(adminUser);
    const { urls } = mockBookingsApi();
    const { user } = renderApp({ path: '/admin?tab=bookings' });

    const rows = await screen.findAllByTestId('booking-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('KRPENDING1')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Sipho Nkosi')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Volkswagen Polo')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Daily · 2 days')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Pending')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/R\s?1\s?250[,.]50/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Hourly · 4 h')).toBeInTheDocument();
    // A marker per refunded extra charge beside the amount, with its state.
    expect(within(rows[0]!).queryByText(/^Refund/)).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^Refund R\s?100 \(pending\)$/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/^Refund R\s?990 \(refunded\)$/)).toBeInTheDocument();

    // Actions follow the machine: approve/reject/cancel while pending, cancel while confirmed and unpaid, a paid trip's Cancel trip (with a refund) while active.
    expect(within(rows[0]!).getByRole('button', { name: 'Approve KRPENDING1' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Reject KRPENDING1' })).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Cancel KRPENDING1' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Approve|Reject/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Cancel KRUNPAID01' })).toBeInTheDocument();
    expect(within(rows[2]!).getAllByRole('button').map((button) => button.getAttribute('aria-label'))).toEqual(['Cancel trip KRACTIVE01', 'Read conversation KRACTIVE01']);

    const counters = screen.getByLabelText('Booking counters');
    await waitFor(() => expect(within(counters).getByText('Total').nextSibling).toHaveTextContent('41'));
    expect(within(counters).getByText('Pending').nextSibling).toHaveTextContent('3');
    expect(within(counters).getByText('Cancelled/Rejected').nextSibling).toHaveTextContent('7');
    expect(screen.getByText(/Access to booking details is for customer support, dispute resolution and oversight\./)).toBeInTheDocument();
    expect(screen.getByText('27 bookings · page 1 of 2')).toBeInTheDocument();
    expect(urls[0]).toContain('page=1');
    expect(urls[0]).toContain('limit=25');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('KROLD00001')).toBeInTheDocument());
    expect(urls.at(-1)).toContain('page=2');

    await user.selectOptions(screen.getByLabelText('Status'), 'pending');
    await waitFor(() => expect(urls.at(-1)).toContain('status=pending'));
    expect(urls.at(-1)).toContain('page=1');
    await user.type(screen.getByLabelText('Search bookings'), 'Sipho');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)).toContain('search=Sipho'));
  });

  it('keeps the search, the status and the page in the URL: a reload asks for the same page', async () => {
    signIn(adminUser);
    const { urls } = mockBookingsApi();
    const { user, router } = renderApp({ path: '/admin?tab=bookings&q=KRPENDING1&status=pending&page=2' });
    await screen.findAllByTestId('booking-row');
    const first = new URL(urls[0]!, 'http://x').searchParams;
    expect(Object.fromEntries(first)).toEqual({ page: '2', limit: '25', search: 'KRPENDING1', status: 'pending' });
    expect(screen.getByLabelText('Search bookings')).toHaveValue('KRPENDING1');
    expect(screen.getByLabelText('Status')).toHaveValue('pending');
    await user.selectOptions(screen.getByLabelText('Status'), 'confirmed');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=bookings&q=KRPENDING1&status=confirmed'));
  });

  it('approves a pending booking with an optional message', async () => {
    signIn(adminUser);
    const { bodies } = mockBookingsApi();
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    await user.click(await screen.findByRole('button', { name: 'Approve KRPENDING1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve booking' });
    await user.click(within(dialog).getByRole('button', { name: 'Approve booking' }));
    expect(await screen.findByText('Booking Confirmed')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'PATCH', body: {} });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('rejects with a reason sent as host_response, and requires it', async () => {
    signIn(adminUser);
    const { bodies } = mockBookingsApi();
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    await user.click(await screen.findByRole('button', { name: 'Reject KRPENDING1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject booking' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject booking' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason');
    expect(bodies).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'The car is in for repairs');
    await user.click(within(dialog).getByRole('button', { name: 'Reject booking' }));
    expect(await screen.findByText('Booking Rejected')).toBeInTheDocument();
    expect(bodies[0]!.body).toEqual({ host_response: 'The car is in for repairs' });
  });

  it("shows 'Reject Failed' with the server's message and keeps the dialog open", async () => {
    signIn(adminUser);
    mockBookingsApi({ rejectFails: true });
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    await user.click(await screen.findByRole('button', { name: 'Reject KRPENDING1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject booking' });
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'No');
    await user.click(within(dialog).getByRole('button', { name: 'Reject booking' }));
    expect(await screen.findByText('Reject Failed')).toBeInTheDocument();
    expect(screen.getByText('This booking was already answered.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Reject booking' })).toBeInTheDocument();
  });

  it('cancels a confirmed, unpaid booking with a reason', async () => {
    signIn(adminUser);
    const { bodies } = mockBookingsApi();
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    await user.click(await screen.findByRole('button', { name: 'Cancel KRUNPAID01' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel booking' });
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'Dispute resolved: refund the renter');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    expect(await screen.findByText('Booking Cancelled')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'PATCH', url: '/api/booking/b-unpaid/status', body: { status: 'cancelled', host_response: 'Dispute resolved: refund the renter' } });
  });
});
