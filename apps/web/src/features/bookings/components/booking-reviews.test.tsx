// Reviews both ways on My Bookings (decision 043): the host sees the renter's record on a request
// before deciding, reviews the renter after the trip, and each side reads that their review appears
// when the other reviews or on the window's last day; once shown, both reviews are on the card.
import type { BookingReviews, RenterRecord, Review } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { renterRecordSummary } from './renter-record';

const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });
const renter = makeUser({ id: 'user-1', username: 'sipho', full_name: 'Sipho Nkosi' });
const STATS = { total: 1, pending: 0, confirmed: 0, active: 0, completed: 1, cancelled: 0, rejected: 0, total_spent: 0, total_revenue: 0 };

function record(overrides: Partial<RenterRecord> = {}): RenterRecord {
  return { username: 'sipho', rating: 4.8, review_count: 5, completed_trips: 12, reviews: [], ...overrides };
}

function review(overrides: Partial<Review> = {}): Review {
  return {
    id: 'r1', rating: 4, comment: 'Returned it clean', created_at: '2030-03-04T10:00:00Z', reviewer: { username: 'host_thabo', avatar: null },
    car_username: 'volkswagen-polo-123456', user_username: 'host_thabo', booking_id: 'b1', direction: 'renter', subject_username: 'sipho', ...overrides,
  };
}

function view(overrides: Partial<BookingReviews> = {}): BookingReviews {
  return { side: 'host', mine: null, theirs: null, can_review: true, window_ends_at: '2030-03-17T12:00:00.000Z', revealed: false, other_name: 'Sipho Nkosi', ...overrides };
}

function render(handlers: Parameters<typeof mockFetch>[0], status: 'pending' | 'completed') {
  const fetchMock = mockFetch({
    'GET /api/booking/getAll': ok([makeBooking({ id: 'b1', status, confirmed_at: null })]),
    'GET /api/booking/getStats': ok(STATS),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    ...handlers,
  });
  return { ...renderApp({ path: '/my-bookings' }), fetchMock };
}

describe('the renter\u2019s record on a request', () => {
  it('reads "★ 4.8 · 12 trips", or "New renter", or trips without reviews', () => {
    expect(renterRecordSummary(record())).toBe('★ 4.8 · 12 trips');
    expect(renterRecordSummary(record({ rating: null, review_count: 0, completed_trips: 0 }))).toBe('New renter');
    expect(renterRecordSummary(record({ rating: null, review_count: 0, completed_trips: 1 }))).toBe('1 trip · no reviews yet');
    expect(renterRecordSummary(record({ rating: 5, completed_trips: 1 }))).toBe('★ 5.0 · 1 trip');
  });

  it('is on the host\u2019s request card before Accept, with what hosts said', async () => {
    signIn(host);
    const { user } = render({ 'GET /api/review/renter/sipho': ok(record({ reviews: [review()] })) }, 'pending');
    const card = await screen.findByRole('article', { name: 'Booking KR123456AB' });
    expect(await within(card).findByText('★ 4.8 · 12 trips')).toBeInTheDocument();
    expect(within(card).getByText('Renter rated 4.8 out of 5 by 5 hosts, 12 trips completed')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    await user.click(within(card).getByText('What hosts said (1)'));
    expect(within(card).getByText(/Returned it clean/)).toBeVisible();
  });

  it('says "New renter" for a renter with no trips', async () => {
    signIn(host);
    render({ 'GET /api/review/renter/sipho': ok(record({ rating: null, review_count: 0, completed_trips: 0 })) }, 'pending');
    expect(await screen.findByText('New renter')).toBeInTheDocument();
  });
});

describe('reviews on a completed trip', () => {
  it('the host reviews the renter; the card then says the review appears when the renter reviews, or on the last day', async () => {
    signIn(host);
    let current = view();
    const { user, fetchMock } = render(
      {
        'GET /api/review/booking/b1': () => ok(current),
        'POST /api/review/renter': () => {
          current = view({ mine: review({ rating: 3, comment: 'Fine' }), can_review: false });
          return ok(current.mine, 'Review Submitted');
        },
      },
      'completed',
    );
    const card = await screen.findByRole('article', { name: 'Booking KR123456AB' });
    await user.click(await within(card).findByRole('button', { name: 'Review the renter' }));
    const dialog = screen.getByRole('dialog', { name: 'Review the renter' });
    expect(within(dialog).getByText('How was Sipho Nkosi as a renter?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /^3 stars/ }));
    await user.type(within(dialog).getByLabelText('Your review'), '  Fine  ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Review Submitted')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/review/renter');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ booking_id: 'b1', rating: 3, comment: 'Fine' });
    expect(await within(card).findByText('Your review will appear when Sipho Nkosi reviews you, or on 17 March 2030.')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: 'Review the renter' })).not.toBeInTheDocument();
  });

  it('once both are in, the renter reads both reviews together', async () => {
    signIn(renter);
    const mine = review({ id: 'r2', direction: 'car', rating: 5, comment: 'Spotless Polo', user_username: 'sipho', reviewer: { username: 'sipho', avatar: null } });
    render(
      {
        'GET /api/review/getAll': ok([mine]),
        'GET /api/review/booking/b1': ok(view({ side: 'renter', other_name: 'Thabo Mokoena', mine, theirs: review(), can_review: false, revealed: true })),
      },
      'completed',
    );
    const reviews = await screen.findByRole('region', { name: 'Reviews' });
    expect(within(reviews).getByText('Your review')).toBeInTheDocument();
    expect(within(reviews).getByText(/Spotless Polo/)).toBeInTheDocument();
    expect(within(reviews).getByText('Thabo Mokoena’s review of you')).toBeInTheDocument();
    expect(within(reviews).getByText(/Returned it clean/)).toBeInTheDocument();
    expect(within(reviews).queryByText(/will appear/)).not.toBeInTheDocument();
  });
});
