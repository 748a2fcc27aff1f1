// The host's Earnings (decision 040): each completed booking's invoice downloads as a PDF, by its
// booking number, with the bearer token.
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptySummary, makeEarning } from '@/test/booking-fixtures';
import { makeCar } from '@/test/car-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });
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

describe('Download invoice on Earnings', () => {
  it("saves the booking's PDF invoice from the API", async () => {
    signIn(host);
    const fetchMock = mockFetch({
      'GET /api/earnings/earning/getSummary': ok({ ...emptySummary, bookings: 1 }),
      'GET /api/earnings/earning/getCarOwnerProfit/host_thabo': ok([makeEarning({ booking_id: 'KR000001AA' })]),
      'GET /api/car/getCarList': () => new Response(JSON.stringify({ success: true, data: [makeCar({ car_owner: 'host_thabo' })], meta: { total: 1, page: 1, limit: 48 } })),
      'GET /api/notifications': ok([]),
      'GET /api/booking/KR000001AA/invoice.pdf': () =>
        new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), { headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="karoo-invoice-KR000001AA.pdf"' } }),
    });
    const { user } = renderApp({ path: '/earnings' });

    const [row] = await screen.findAllByTestId('earning-row');
    await user.click(within(row!).getByRole('button', { name: 'Download invoice for booking KR000001AA' }));
    await vi.waitFor(() => expect(saved).toEqual([{ href: 'blob:karoo/pdf', download: 'karoo-invoice-KR000001AA.pdf' }]));
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/booking/KR000001AA/invoice.pdf'));
    expect(new Headers(call?.[1]?.headers).get('authorization')).toBe('Bearer test-token');
  });
});
