// The host's calendar (decision 047): a month of trips and blocks, tap two days to block them with
// a private note (POST /car/{id}/blocks), Unblock from a chosen day, the buffer saved with PATCH.
import type { CarCalendar } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bodyOf, hostApi, makeCar } from '../test-fixtures';

// Wednesday 4 March 2026, 10:00 in Johannesburg.
const NOW = new Date('2026-03-04T08:00:00Z');

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

const calendarOf = (car: { car_username: string }): CarCalendar => ({
  car_username: car.car_username,
  buffer_minutes: 60,
  holds: [
    {
      id: 'trip-1',
      kind: 'booking',
      status: 'confirmed',
      from: '2026-03-10T07:00:00.000Z',
      to: '2026-03-10T11:00:00.000Z',
      start_date: '2026-03-10',
      end_date: '2026-03-10',
      all_day: false,
      note: null,
      booking: { id: 'b1', booking_number: 'KR1', renter_name: 'Sipho Nkosi', start_date: '2026-03-10', end_date: '2026-03-10', start_time: '09:00', end_time: '12:00', is_hourly_booking: true, buffer_minutes: 60 },
    },
    {
      id: 'block-1',
      kind: 'block',
      status: 'blocked',
      from: '2026-03-13T22:00:00.000Z',
      to: '2026-03-15T22:00:00.000Z',
      start_date: '2026-03-14',
      end_date: '2026-03-15',
      all_day: true,
      note: 'Family weekend',
      booking: null,
    },
  ],
});

async function openCalendar() {
  const car = makeCar({ buffer_minutes: 60 });
  const fetchMock = hostApi([car], {
    [`GET /api/car/${car.car_username}/calendar`]: ok(calendarOf(car)),
    [`POST /api/car/${car.car_username}/blocks`]: ok(calendarOf(car).holds[1]),
    [`DELETE /api/car/${car.car_username}/blocks/block-1`]: ok(null),
    [`PATCH /api/car/${car.car_username}/buffer`]: ok({ buffer_minutes: 120 }),
  });
  const view = renderApp({ path: '/host-dashboard' });
  const card = within(await screen.findByTestId(`fleet-car-${car.car_username}`));
  await view.user.click(card.getByRole('button', { name: 'Manage Details' }));
  const dialog = within(await screen.findByRole('dialog'));
  await view.user.click(dialog.getByRole('tab', { name: /Calendar/ }));
  const grid = await dialog.findByTestId('host-calendar');
  return { car, fetchMock, dialog, grid, ...view };
}

describe('the host calendar', () => {
  it('shows trips with their hours and renter, blocks with their note, and blocks two tapped days with a note', async () => {
    const { fetchMock, dialog, grid, user } = await openCalendar();
    const day = (date: string) => grid.querySelector(`[data-date="${date}"]`) as HTMLElement;
    await waitFor(() => expect(day('2026-03-14')).toHaveAttribute('data-blocked', 'day'));
    expect(day('2026-03-10')).toHaveAccessibleName(/^10 ?, Tuesday, 10 March 2026: Trip 09:00–13:00, Sipho Nkosi/);
    expect(day('2026-03-15')).toHaveAccessibleName(/^15 ?, Sunday, 15 March 2026: Blocked all day: Family weekend/);
    expect(day('2026-03-03')).toHaveAttribute('aria-disabled', 'true');
    // South Africa's public holidays are marked (issue 36): 21 March 2026 is Human Rights Day.
    expect(day('2026-03-21')).toHaveAccessibleName(/^21 ?, Saturday, 21 March 2026, Human Rights Day, free$/);
    expect(day('2026-03-21').querySelector('[data-holiday]')).toHaveTextContent('Human Rights Day');
    expect(day('2026-03-20').querySelector('[data-holiday]')).toBeNull();

    await user.click(day('2026-03-21'));
    await user.click(day('2026-03-22'));
    const selection = within(dialog.getByRole('region', { name: 'Sat, 21 Mar to Sun, 22 Mar' }));
    await user.type(selection.getByLabelText('Private note (optional)'), 'Service');
    await user.click(selection.getByRole('button', { name: 'Block these days' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'POST', '/blocks')).toEqual({ start_date: '2026-03-21', end_date: '2026-03-22', start_time: null, end_time: null, note: 'Service' }));
  });

  it('blocks some hours of one day, unblocks a block, and saves the buffer', async () => {
    const { fetchMock, dialog, grid, user } = await openCalendar();
    const day = (date: string) => grid.querySelector(`[data-date="${date}"]`) as HTMLElement;
    await waitFor(() => expect(day('2026-03-14')).toHaveAttribute('data-blocked', 'day'));
    // Keyboard: Enter twice on a day chooses that day.
    day('2026-03-12').focus();
    await user.keyboard('{Enter}{Enter}');
    let selection = within(dialog.getByRole('region', { name: 'Thursday, 12 March 2026' }));
    await user.click(selection.getByLabelText('Some hours'));
    await user.selectOptions(selection.getByLabelText('From'), '13:00');
    await user.selectOptions(selection.getByLabelText('Until'), '16:30');
    await user.click(selection.getByRole('button', { name: 'Block 13:00–16:30' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'POST', '/blocks')).toEqual({ start_date: '2026-03-12', end_date: '2026-03-12', start_time: '13:00', end_time: '16:30', note: null }));

    await user.click(day('2026-03-15'));
    await user.click(day('2026-03-15'));
    selection = within(dialog.getByRole('region', { name: 'Sunday, 15 March 2026' }));
    expect(selection.getByText('Family weekend')).toBeInTheDocument();
    await user.click(selection.getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => String(url).endsWith('/blocks/block-1') && init?.method === 'DELETE')).toBe(true));

    await user.selectOptions(dialog.getByLabelText('Buffer after each trip'), '120');
    await user.click(dialog.getByRole('button', { name: 'Save buffer' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'PATCH', '/buffer')).toEqual({ buffer_minutes: 120 }));
  });
});
