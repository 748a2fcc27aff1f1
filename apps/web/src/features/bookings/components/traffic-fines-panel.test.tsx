// Traffic fines on the booking card (issue 34; decision 066): the host sees a fine's state and the
// days left to nominate, downloads the AARTO 07 nomination, and enters a new fine (told when no trip
// had the car, with the nearest trips); the renter sees the fine of their trip and says they paid it.
import type { TrafficFine } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { deadlineWords } from './traffic-fines-panel';

const renter = makeUser({ id: 'user-1', username: 'sipho', full_name: 'Sipho Nkosi' });
const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Host', role: 'host', user_type: 'host' });
const trip = makeBooking({ id: 'b1', booking_id: 'KR000001AA', status: 'completed', payment_status: 'paid', start_date: '2020-01-01', end_date: '2020-01-03' });

const fine: TrafficFine = {
  id: 'f1',
  car: { id: 'c1', name: 'Volkswagen Polo', plate: 'CA 123-456' },
  plate: 'CA123456',
  occurred_at: '2020-01-02T12:00:00.000Z',
  place: 'N1 near Kraaifontein',
  amount: 500,
  notice_number: 'AARTO-000001',
  served_on: '2020-01-10',
  nominate_by: '2020-02-11',
  days_left: 5,
  status: 'open',
  status_label: 'Open: nominate the driver',
  status_note: null,
  trip: { booking_id: 'b1', booking_number: 'KR000001AA', from: '2020-01-01T07:00:00.000Z', to: '2020-01-03T15:00:00.000Z' },
  nearest: { before: null, after: null },
  nomination_url: '/api/fines/f1/nomination.pdf',
  notice_url: '/api/fines/f1/notice',
  created_at: '2020-01-12T08:00:00.000Z',
};

const common = { 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]) };

describe('deadlineWords', () => {
  it('counts the days left, says the last day, and says when the time has passed', () => {
    expect(deadlineWords({ days_left: 5, nominate_by: '2020-02-11' })).toMatch(/^5 days left to nominate the driver \(by .*11.*\)\.$/);
    expect(deadlineWords({ days_left: 1, nominate_by: '2020-02-11' })).toMatch(/^1 day left/);
    expect(deadlineWords({ days_left: 0, nominate_by: '2020-02-11' })).toMatch(/^Today \(.*\) is the last day/);
    expect(deadlineWords({ days_left: -2, nominate_by: '2020-02-11' })).toMatch(/^The 32 days to nominate ended on/);
  });
});

describe("the host's traffic fines on a trip", () => {
  it('shows the state, the deadline and the nomination; a new fine outside every trip names the nearest ones', async () => {
    signIn(host);
    let sent: FormData | undefined;
    mockFetch({
      ...common,
      'GET /api/booking/getAll': ok([{ ...trip, car_owner: 'host_thabo' }]),
      'GET /api/booking/b1/fines': ok([fine]),
      'POST /api/fines': ({ init }) => {
        sent = init?.body as FormData;
        return ok({ ...fine, id: 'f2', trip: null, nomination_url: null, nearest: { before: fine.trip, after: null } }, 'Fine entered: no trip had the car at that moment');
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    const panel = await within(card).findByRole('region', { name: 'Traffic fines' });
    expect(within(panel).getByTestId('fine-status')).toHaveTextContent('Open: nominate the driver');
    expect(within(panel).getByTestId('fine-deadline')).toHaveTextContent(/5 days left to nominate the driver/);
    expect(within(panel).getByRole('button', { name: 'Download AARTO 07 nomination' })).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Enter a traffic fine' }));
    const form = within(panel).getByRole('form', { name: 'Enter a traffic fine' });
    await user.clear(within(form).getByLabelText('Plate'));
    await user.type(within(form).getByLabelText('Plate'), 'CA 123-456');
    await user.type(within(form).getByLabelText('Notice number'), 'AARTO-000002');
    await user.type(within(form).getByLabelText('Time'), '20:30');
    await user.type(within(form).getByLabelText('Place'), 'Voortrekker Rd');
    await user.type(within(form).getByLabelText('Amount (R)'), '750');
    await user.type(within(form).getByLabelText('Date the notice was served'), '2020-01-20');
    await user.upload(within(form).getByLabelText('Photo or PDF of the notice'), new File(['%PDF-1.4'], 'notice.pdf', { type: 'application/pdf' }));
    await user.click(within(form).getByRole('button', { name: 'Enter fine' }));

    await waitFor(() => expect(sent).toBeDefined());
    expect(JSON.parse(sent!.get('fine') as string)).toMatchObject({ notice_number: 'AARTO-000002', time: '20:30', place: 'Voortrekker Rd', amount: 750, served_on: '2020-01-20', date: '2020-01-01' });
    expect((sent!.get('notice') as File).name).toBe('notice.pdf');
    const outcome = await within(form).findByTestId('fine-outcome');
    expect(outcome).toHaveTextContent('No trip had the car at that moment.');
    expect(outcome).toHaveTextContent(/The trip before: KR000001AA/);
    expect(outcome).toHaveTextContent('No trip after it.');
  });
});

describe("the renter's traffic fine", () => {
  it('shows the fine without the nomination and records that the renter paid it', async () => {
    signIn(renter);
    let patched: unknown;
    mockFetch({
      ...common,
      'GET /api/booking/getAll': ok([trip]),
      'GET /api/booking/b1/fines': ok([{ ...fine, nomination_url: null }]),
      'PATCH /api/fines/f1/status': ({ init }) => {
        patched = JSON.parse(String(init?.body));
        return ok({ ...fine, status: 'paid_by_renter', status_label: 'Paid by the renter' });
      },
    });
    const { user } = renderApp({ path: '/my-bookings' });
    const card = await screen.findByRole('article', { name: 'Booking KR000001AA' });
    const panel = await within(card).findByRole('region', { name: 'Traffic fines' });
    expect(within(panel).queryByRole('button', { name: 'Download AARTO 07 nomination' })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Enter a traffic fine' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'I paid it' }));
    await waitFor(() => expect(patched).toEqual({ status: 'paid_by_renter', note: '' }));
  });
});
