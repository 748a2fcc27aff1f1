// The admin Bookings tab's Cancel trip on a paid trip (issue 20): the three refund choices, the live
// amounts each side gets (equal to the shared cancellationOutcome()'s, and worked out by hand), the
// required reason for an amount, and the body the API is sent.
import { cancellationOutcome, formatRand, type AdminRefund, type Booking, type BookingStats } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { paidTripOf } from '@/lib/cancellation';
import { makeBooking } from '@/test/booking-fixtures';
import { quoteFor } from '@/test/cancellation-fixtures';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { refundAmountCents } from './cancel-trip-dialog';

// Monday 25 February 2030, 10:00 in Johannesburg.
const NOW = new Date('2030-02-25T08:00:00.000Z');
const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const stats: BookingStats = {
  total: 1,
  by_status: { active: 1 },
  pending: 0,
  confirmed: 0,
  active: 1,
  completed: 0,
  cancelled: 0,
  rejected: 0,
  total_revenue: 0,
  total_earnings: 0,
  total_app_fee: 0,
  total_spent: 0,
};

// Starts today at 20:00, ten hours from now: by the policy the renter would pay the late fee.
const trip: Booking = makeBooking({
  id: 'b-paid',
  booking_id: 'KRPAID0001',
  status: 'active',
  payment_status: 'paid',
  paid_at: '2030-02-20T08:00:00.000Z',
  start_date: '2030-02-25',
  start_time: '20:00',
  end_date: '2030-02-27',
});

function refundOfUrl(url: URL): AdminRefund {
  const kind = url.searchParams.get('refund') ?? 'full';
  if (kind === 'amount') return { kind: 'amount', amountCents: Math.round(Number(url.searchParams.get('refund_amount')) * 100), reason: 'quote' };
  return { kind: kind as 'full' | 'policy' };
}

function mockTab() {
  const patches: unknown[] = [];
  mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/booking/getStats': ok(stats),
    'GET /api/booking/getList': jsonResponse({ success: true, data: [trip], meta: { total: 1, page: 1, limit: 25 } }),
    'GET /api/booking/b-paid/cancellation': ({ url }) => ok(quoteFor(trip, 'admin', { now: new Date(), adminRefund: refundOfUrl(new URL(url, 'http://x')) })),
    'PATCH /api/booking/b-paid/cancel': ({ init }) => {
      patches.push(JSON.parse(String(init?.body ?? '{}')));
      return ok({ ...trip, status: 'cancelled' }, 'Booking cancelled');
    },
  });
  return patches;
}

/** Each row's amount, by test id. */
function figures(dialog: HTMLElement) {
  const amount = (id: string) => within(dialog).getByTestId(id).querySelector('dd')?.textContent;
  return { refund: amount('admin-cancel-refund'), fee: amount('admin-cancel-fee'), host: amount('admin-cancel-host-share'), karoo: amount('admin-cancel-platform-share') };
}

function expected(adminRefund: AdminRefund) {
  const o = cancellationOutcome({ trip: paidTripOf(trip), actor: 'admin', now: NOW, adminRefund });
  const rand = (cents: number) => formatRand(cents / 100);
  return { refund: rand(o.refundCents), fee: rand(o.feeCents), host: rand(o.hostShareCents), karoo: rand(o.platformShareCents) };
}

async function openDialog() {
  signIn(adminUser);
  const patches = mockTab();
  const { user } = renderApp({ path: '/admin?tab=bookings' });
  await user.click(await screen.findByRole('button', { name: 'Cancel trip KRPAID0001' }));
  const dialog = await screen.findByRole('dialog', { name: 'Cancel paid trip' });
  await within(dialog).findByTestId('admin-cancel-refund');
  return { user, dialog, patches };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'], shouldAdvanceTime: true });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Admin: Cancel trip on a paid trip', () => {
  it('shows live what the renter gets back and what the host earns for each refund choice', async () => {
    const { user, dialog } = await openDialog();
    const choices = within(dialog).getByRole('group', { name: 'Refund to the renter' });

    // Full: everything back, nothing kept.
    expect(within(choices).getByRole('radio', { name: /Full refund/ })).toBeChecked();
    expect(figures(dialog)).toEqual(expected({ kind: 'full' }));
    expect(figures(dialog).refund).toBe(formatRand(990));

    // By the policy now (late): half a day's rental of R 450 is kept; the host earns 75% of R 225, rounded to R 169.
    await user.click(within(choices).getByRole('radio', { name: /By the cancellation policy/ }));
    expect(figures(dialog)).toEqual(expected({ kind: 'policy' }));
    expect(figures(dialog)).toEqual({ refund: formatRand(765), fee: formatRand(225), host: formatRand(169), karoo: formatRand(56) });

    // An amount: R 500 back, R 490 kept, the host's 75% of it is R 367.50, rounded half up to R 368.
    await user.click(within(choices).getByRole('radio', { name: /An amount/ }));
    await user.type(within(dialog).getByLabelText('Amount to refund (R)'), '500');
    expect(figures(dialog)).toEqual(expected({ kind: 'amount', amountCents: 50_000, reason: '' }));
    expect(figures(dialog)).toEqual({ refund: formatRand(500), fee: formatRand(490), host: formatRand(368), karoo: formatRand(122) });
  });

  it('asks for a reason with an amount, then cancels with the choice, the amount in rand and the reason', async () => {
    const { user, dialog, patches } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: /An amount/ }));
    await user.type(within(dialog).getByLabelText('Amount to refund (R)'), '500');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    expect(await within(dialog).findByText('Give a reason for this amount: the renter and the host are told it.')).toBeInTheDocument();
    expect(patches).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason (required)'), 'The car broke down; the renter used it for half a day.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    await waitFor(() => expect(patches).toEqual([{ refund: 'amount', refund_amount: 500, reason: 'The car broke down; the renter used it for half a day.', expected_refund: 500 }]));
    expect(await screen.findByText('Trip Cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancel paid trip' })).not.toBeInTheDocument());
  });

  it('refuses an amount above what was paid', async () => {
    const { user, dialog, patches } = await openDialog();
    await user.click(within(dialog).getByRole('radio', { name: /An amount/ }));
    await user.type(within(dialog).getByLabelText('Amount to refund (R)'), '1000');
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'Goodwill');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    expect(await within(dialog).findByText(/^Enter an amount from R\s0 to R\s990/)).toBeInTheDocument();
    expect(patches).toHaveLength(0);
  });

  it('sends the full refund as the default choice', async () => {
    const { user, dialog, patches } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel trip' }));
    await waitFor(() => expect(patches).toEqual([{ refund: 'full', expected_refund: 990 }]));
  });
});

describe('refundAmountCents', () => {
  it.each([
    ['500', 50_000],
    ['500.5', 50_050],
    ['500,25', 50_025],
    ['0', 0],
    ['990', 99_000],
    ['990.01', null],
    ['-1', null],
    ['5.555', null],
    ['abc', null],
    ['', null],
  ] as const)('%j of R 990 paid: %j', (text, cents) => {
    expect(refundAmountCents(text, 99_000)).toBe(cents);
  });
});
