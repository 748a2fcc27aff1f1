// The booking documents on My Bookings (decision 040): the renter downloads the receipt and the car
// owner the invoice of a booking money has moved for, fetched with the bearer token and saved from
// a blob; a booking never paid shows neither.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const STATS = { total: 0, by_status: {}, pending: 0, confirmed: 0, active: 0, completed: 0, cancelled: 0, rejected: 0, total_revenue: 0, total_earnings: 0, total_app_fee: 0, total_spent: 0 };
const PAID_AT = '2030-02-20T08:00:00.000Z';

const pdf = (filename: string) => () =>
  new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { status: 200, headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename="${filename}"` } });

const blobUrls = { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL };
let saved: { href: string; download: string }[];
beforeEach(() => {
  saved = [];
  // The test DOM saves no files: record what the page asked the browser to save.
  URL.createObjectURL = vi.fn(() => 'blob:karoo/pdf');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download });
  });
});
afterEach(() => {
  Object.assign(URL, blobUrls);
});

function mockMyBookings(bookings: ReturnType<typeof makeBooking>[], extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/booking/getAll': ok(bookings),
    'GET /api/booking/getStats': ok(STATS),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    ...extra,
  });
}

describe('Receipt and invoice downloads on My Bookings', () => {
  it('the renter downloads the receipt of a paid trip with the bearer token; an unpaid booking has none', async () => {
    signIn(makeUser());
    const fetchMock = mockMyBookings(
      [
        makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'completed', payment_status: 'paid', paid_at: PAID_AT }),
        makeBooking({ id: 'b2', booking_id: 'KR000002AA', status: 'confirmed' }),
      ],
      { 'GET /api/booking/b1/receipt.pdf': pdf('karoo-receipt-KR000001AA.pdf') },
    );
    const { user } = renderApp({ path: '/my-bookings' });

    const paid = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(paid).queryByRole('button', { name: 'Download invoice' })).not.toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Booking KR000002AA' })).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();

    await user.click(within(paid).getByRole('button', { name: 'Download receipt' }));
    await vi.waitFor(() => expect(saved).toEqual([{ href: 'blob:karoo/pdf', download: 'karoo-receipt-KR000001AA.pdf' }]));
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/booking/b1/receipt.pdf'));
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer test-token');
  });

  it('the car owner downloads the invoice, and a refusal is told in a toast', async () => {
    signIn(makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' }));
    mockMyBookings(
      [
        makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'active', payment_status: 'paid', paid_at: PAID_AT }),
        makeBooking({ id: 'b3', booking_id: 'KR000003AA', status: 'cancelled', payment_status: 'paid', paid_at: PAID_AT }),
      ],
      {
        'GET /api/booking/b1/invoice.pdf': pdf('karoo-invoice-KR000001AA.pdf'),
        'GET /api/booking/b3/invoice.pdf': fail(409, 'Booking KR000003AA has not been paid, so it has no invoice yet; the invoice is issued once the trip is paid.'),
      },
    );
    const { user } = renderApp({ path: '/my-bookings' });

    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    expect(within(card).queryByRole('button', { name: 'Download receipt' })).not.toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Download invoice' }));
    await vi.waitFor(() => expect(saved).toEqual([{ href: 'blob:karoo/pdf', download: 'karoo-invoice-KR000001AA.pdf' }]));

    await user.click(within(screen.getByRole('article', { name: 'Booking KR000003AA' })).getByRole('button', { name: 'Download invoice' }));
    expect(await screen.findByText(/has not been paid, so it has no invoice yet/)).toBeInTheDocument();
    expect(saved).toHaveLength(1);
  });
});
