// The host's "Trip rules and discounts" tab (decision 048): the shared schema refuses crossed
// limits in the form, with the server's words; a valid set is sent whole to PATCH
// /car/updateTripRules/{id}, and the answer becomes the form's values.
import { DEFAULT_TRIP_RULES, type Car } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bodyOf, hostApi, makeCar } from '../test-fixtures';

async function openRules(car: Car, extra: Parameters<typeof hostApi>[1] = {}) {
  const fetchMock = hostApi([car], extra);
  const view = renderApp({ path: '/host-dashboard' });
  const card = within(await screen.findByTestId(`fleet-car-${car.car_username}`));
  await view.user.click(card.getByRole('button', { name: 'Manage Details' }));
  const dialog = within(await screen.findByRole('dialog'));
  await view.user.click(dialog.getByRole('tab', { name: 'Trip Rules and Discounts' }));
  return { fetchMock, dialog, ...view };
}

describe('Trip rules and discounts', () => {
  it('refuses a maximum under the minimum and a monthly discount under the weekly one, in the server’s words', async () => {
    const car = makeCar({ car_rent_price: 500, trip_rules: DEFAULT_TRIP_RULES });
    const { dialog, user, fetchMock } = await openRules(car);
    await user.clear(dialog.getByLabelText('Minimum (days)'));
    await user.type(dialog.getByLabelText('Minimum (days)'), '5');
    await user.type(dialog.getByLabelText('Maximum (days)'), '3');
    await user.clear(dialog.getByLabelText('Weekly, 7+ days (%)'));
    await user.type(dialog.getByLabelText('Weekly, 7+ days (%)'), '20');
    await user.clear(dialog.getByLabelText('Monthly, 28+ days (%)'));
    await user.type(dialog.getByLabelText('Monthly, 28+ days (%)'), '10');
    await user.click(dialog.getByRole('button', { name: 'Save trip rules' }));
    expect(await dialog.findByText('The maximum trip cannot be shorter than the minimum.')).toBeInTheDocument();
    expect(dialog.getByText('The monthly discount cannot be smaller than the weekly one.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PATCH', '/updateTripRules/')).toBeUndefined();
  });

  it('sends the whole set and shows what a week and a month cost with the discounts', async () => {
    const car = makeCar({ car_rent_price: 500, trip_rules: DEFAULT_TRIP_RULES });
    const saved = { ...DEFAULT_TRIP_RULES, min_days: 2, advance_notice_hours: 24, weekly_discount_percent: 10 };
    const { dialog, user, fetchMock } = await openRules(car, { [`PATCH /api/car/updateTripRules/${car.id}`]: ok({ ...car, trip_rules: saved }) });
    await user.clear(dialog.getByLabelText('Minimum (days)'));
    await user.type(dialog.getByLabelText('Minimum (days)'), '2');
    await user.selectOptions(dialog.getByLabelText('Advance notice'), '24');
    await user.clear(dialog.getByLabelText('Weekly, 7+ days (%)'));
    await user.type(dialog.getByLabelText('Weekly, 7+ days (%)'), '10');
    expect(dialog.getByTestId('discount-preview')).toHaveTextContent(/7 days: R\s?3\s?150 \(10% off R\s?3\s?500\)/);
    await user.click(dialog.getByRole('button', { name: 'Save trip rules' }));
    await waitFor(() => expect(bodyOf(fetchMock, 'PATCH', '/updateTripRules/')).toEqual(saved));
    expect(await screen.findByText('Trip Rules Saved')).toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Save trip rules' })).toBeDisabled();
  });
});
