// The host's "Instant booking" tab (decision 078): on or off and the requirements, sent whole to
// PATCH /car/updateInstantBooking/{id}; the preview says who books instantly in the car page's
// words; while the admin has paused instant booking the tab says so.
import { DEFAULT_INSTANT_BOOKING, DEFAULT_SETTINGS, type Car } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bodyOf, hostApi, makeCar } from '../test-fixtures';

async function openInstant(car: Car, allowed: boolean, extra: Parameters<typeof hostApi>[1] = {}) {
  const settings = { ...DEFAULT_SETTINGS, business_rules: { ...DEFAULT_SETTINGS.business_rules, instant_booking_enabled: allowed, require_host_approval: !allowed } };
  const fetchMock = hostApi([car], { 'GET /api/settings': ok(settings), ...extra });
  const view = renderApp({ path: '/host-dashboard' });
  const card = within(await screen.findByTestId(`fleet-car-${car.car_username}`));
  await view.user.click(card.getByRole('button', { name: 'Manage Details' }));
  const dialog = within(await screen.findByRole('dialog'));
  await view.user.click(dialog.getByRole('tab', { name: 'Instant Booking' }));
  return { fetchMock, dialog, ...view };
}

describe('Instant booking', () => {
  it('turns it on with requirements, previews who books instantly, and sends the whole set', async () => {
    const car = makeCar({ instant_booking: DEFAULT_INSTANT_BOOKING });
    const saved = { enabled: true, min_trips: 3, min_rating: 4.5, min_licence_years: 2 };
    const { dialog, user, fetchMock } = await openInstant(car, true, { [`PATCH /api/car/updateInstantBooking/${car.id}`]: ok({ ...car, instant_booking: saved }) });
    expect(dialog.queryByText('Instant booking is paused across Karoo')).not.toBeInTheDocument();
    expect(dialog.getByTestId('instant-preview')).toHaveTextContent('Instant booking is off: you answer every request for this car.');
    expect(dialog.getByLabelText('Completed trips on Karoo')).toBeDisabled();
    await user.click(dialog.getByLabelText('Confirm requests at once'));
    await user.selectOptions(dialog.getByLabelText('Completed trips on Karoo'), '3');
    await user.selectOptions(dialog.getByLabelText('Rating from hosts'), '4.5');
    await user.selectOptions(dialog.getByLabelText('Licence held'), '2');
    expect(dialog.getByTestId('instant-preview')).toHaveTextContent('Booked instantly by: Verified renters with at least 3 completed trips, a rating of 4.5 or more and a licence held 2 years or more.');
    await user.click(dialog.getByRole('button', { name: 'Save instant booking' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'PATCH', '/updateInstantBooking/')).toEqual(saved));
    expect(await screen.findByText('Instant Booking Saved')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Save instant booking' })).toBeDisabled();
  });

  it('says plainly when the admin has paused instant booking across Karoo, and keeps the choice', async () => {
    const car = makeCar({ instant_booking: { enabled: true, min_trips: 0, min_rating: null, min_licence_years: null } });
    const { dialog } = await openInstant(car, false);
    expect(await dialog.findByText('Instant booking is paused across Karoo')).toBeInTheDocument();
    expect(dialog.getByLabelText('Confirm requests at once')).toBeChecked();
  });
});
