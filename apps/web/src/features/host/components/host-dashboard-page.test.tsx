import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { bodyOf, hostApi, makeCar } from '../test-fixtures';

async function card(carUsername: string) {
  return within(await screen.findByTestId(`fleet-car-${carUsername}`));
}

describe('HostDashboardPage', () => {
  it("lists only the host's cars with their facts, status and verification badges", async () => {
    const cars = [
      makeCar({ car_username: 'vw-polo-111111', car_make: 'Volkswagen', car_model: 'Polo', car_year: 2021, car_plate_number: 'CA 123-456', rating: 4.7, totalReviews: 3 }),
      makeCar({ car_username: 'kia-rio-222222', car_make: 'Kia', car_model: 'Rio', verification_status: 'pending_verification', status: 'available' }),
      makeCar({ car_username: 'bmw-x3-333333', car_make: 'BMW', car_model: 'X3', verification_status: 'rejected', admin_notes: 'The plate in the photos does not match.' }),
      makeCar({ car_username: 'ford-ranger-444444', car_owner: 'host_lerato', car_make: 'Ford', car_model: 'Ranger' }),
    ];
    const fetchMock = hostApi(cars);
    renderApp({ path: '/host-dashboard' });

    const polo = await card('vw-polo-111111');
    expect(polo.getByRole('heading', { name: '2021 Volkswagen Polo' })).toBeInTheDocument();
    expect(polo.getAllByText('Available')[0]).toBeInTheDocument();
    expect(polo.getByText('Johannesburg')).toBeInTheDocument();
    expect(polo.getByText('5 seats')).toBeInTheDocument();
    expect(polo.getByText('Petrol')).toBeInTheDocument();
    expect(polo.getByText('Automatic')).toBeInTheDocument();
    expect(polo.getByText('CA 123-456')).toBeInTheDocument();
    expect(polo.getByText('4.7')).toBeInTheDocument();
    expect(polo.getByLabelText('Daily rate')).toHaveValue(650);
    expect(polo.queryByText('Pending verification')).not.toBeInTheDocument();

    expect((await card('kia-rio-222222')).getByText('Pending verification')).toBeInTheDocument();
    const bmw = await card('bmw-x3-333333');
    expect(bmw.getByText('Rejected')).toBeInTheDocument();
    expect(bmw.getByText('The plate in the photos does not match.')).toBeInTheDocument();
    expect(screen.queryByTestId('fleet-car-ford-ranger-444444')).not.toBeInTheDocument();

    const getCarList = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/car/getCarList'));
    expect(String(getCarList?.[0])).toContain('owner=host_thabo');
    expect(screen.getByRole('link', { name: 'Add Car' })).toHaveAttribute('href', '/become-host');
  });

  it('says on each car what renters see, true to its verification and its switch', async () => {
    hostApi([
      makeCar({ car_username: 'listed-1', verification_status: 'verified', status: 'available' }),
      makeCar({ car_username: 'pending-on', verification_status: 'pending_verification', status: 'available' }),
      makeCar({ car_username: 'pending-off', verification_status: 'pending_verification', status: 'offline' }),
      makeCar({ car_username: 'rejected-on', verification_status: 'rejected', status: 'available', admin_notes: 'Blurry plate.' }),
      makeCar({ car_username: 'hidden-1', verification_status: 'verified', status: 'offline' }),
    ]);
    renderApp({ path: '/host-dashboard' });

    expect((await card('listed-1')).getByText('Listed: renters can find and book it')).toBeInTheDocument();
    const pendingOn = await card('pending-on');
    expect(pendingOn.getByText(/Renters will see it once it is verified/)).toBeInTheDocument();
    expect(pendingOn.getByText('Renters can book it once it is verified')).toBeInTheDocument();
    const pendingOff = await card('pending-off');
    expect(pendingOff.getByText(/Switch on Available for rent to list it once it is verified/)).toBeInTheDocument();
    expect(pendingOff.getByText('Stays hidden from renters after it is verified')).toBeInTheDocument();
    expect((await card('rejected-on')).getByText('Hidden from renters until the car is approved')).toBeInTheDocument();
    expect((await card('hidden-1')).getByText('Hidden from renters')).toBeInTheDocument();
    // Only a verified car that is switched on tells the host renters can find it.
    expect(screen.getAllByText(/renters can find and book it/i)).toHaveLength(1);
  });

  it('shows the car and rental counters, and hides the booking counters while the bookings list is not available', async () => {
    hostApi([makeCar(), makeCar({ status: 'rented', isRented: true })]);
    renderApp({ path: '/host-dashboard' });

    const cars = await screen.findByText('Total Cars');
    await waitFor(() => expect(cars.nextElementSibling).toHaveTextContent('2'));
    expect(screen.getByText('Currently Rented').nextElementSibling).toHaveTextContent('1');
    await waitFor(() => expect(screen.queryByText('Pending Requests')).not.toBeInTheDocument());
    expect(screen.queryByText('Confirmed Bookings')).not.toBeInTheDocument();
    expect(screen.queryByText('Total Earnings')).not.toBeInTheDocument();
  });

  it('shows the server\'s counters of bookings on the host\'s cars and a banner to /my-bookings', async () => {
    // The counts and the earnings come from GET /booking/getStats?as=owner (the server's aggregates
    // over every booking, by its one rule of which bookings earn): never a list summed here.
    const stats = { total: 640, by_status: {}, pending: 2, confirmed: 1, active: 3, completed: 634, cancelled: 0, rejected: 0, total_revenue: 0, total_earnings: 401350, total_app_fee: 0, total_spent: 0 };
    const fetchMock = hostApi([makeCar()], { 'GET /api/booking/getStats': ok(stats) });
    renderApp({ path: '/host-dashboard' });

    expect((await screen.findByText('Pending Requests')).nextElementSibling).toHaveTextContent('2');
    expect(screen.getByText('Confirmed Bookings').nextElementSibling).toHaveTextContent('1');
    expect(screen.getByText('Total Earnings').nextElementSibling).toHaveTextContent(/R\s?401\s?350/);
    expect(screen.getByText(/You have 2 pending booking requests/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Review requests' })).toHaveAttribute('href', '/my-bookings');
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/api/booking/getStats'));
    expect(String(call?.[0])).toContain('as=owner');
  });

  it('sets a car offline and says so', async () => {
    const car = makeCar({ car_username: 'vw-polo-111111' });
    const fetchMock = hostApi([car], { [`PUT /api/car/updateCar/${car.id}`]: ok({ ...car, status: 'offline' }, 'Car is now set to offline.') });
    const { user } = renderApp({ path: '/host-dashboard' });

    const toggle = (await card('vw-polo-111111')).getByRole('switch', { name: 'Available for rent' });
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    await user.click(toggle);

    expect(await screen.findByText('Car Status Updated')).toBeInTheDocument();
    expect(screen.getByText('Car is now set to offline.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT', '/api/car/updateCar/')).toEqual({ status: 'offline' });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
  });

  it('reports a failed status change', async () => {
    const car = makeCar({ car_username: 'vw-polo-111111', status: 'offline' });
    const fetchMock = hostApi([car], { [`PUT /api/car/updateCar/${car.id}`]: fail(500, 'Database unavailable') });
    const { user } = renderApp({ path: '/host-dashboard' });

    await user.click((await card('vw-polo-111111')).getByRole('switch', { name: 'Available for rent' }));

    expect(await screen.findByText('Status Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Could not update car status. Please try again.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'PUT', '/api/car/updateCar/')).toEqual({ status: 'available' });
  });

  it('disables the toggle and offers Mark as Returned only while a car is rented', async () => {
    hostApi([makeCar({ car_username: 'rented-111111', status: 'rented', isRented: true }), makeCar({ car_username: 'free-222222' })]);
    renderApp({ path: '/host-dashboard' });

    const rented = await card('rented-111111');
    expect(rented.getByRole('switch', { name: 'Available for rent' })).toBeDisabled();
    expect(rented.getByText('Locked while the car is on a rental')).toBeInTheDocument();
    expect(rented.getByRole('button', { name: 'Mark as Returned' })).toBeInTheDocument();

    const free = await card('free-222222');
    expect(free.getByRole('switch', { name: 'Available for rent' })).toBeEnabled();
    expect(free.queryByRole('button', { name: 'Mark as Returned' })).not.toBeInTheDocument();
  });

  it('updates the daily rate only when the new price is above 0', async () => {
    const car = makeCar({ car_username: 'vw-polo-111111', car_rent_price: 650 });
    const fetchMock = hostApi([car], { [`POST /api/rent/updateCarRentPrice/${car.id}`]: ok({ ...car, car_rent_price: 900 }, 'Price Updated') });
    const { user } = renderApp({ path: '/host-dashboard' });

    const polo = await card('vw-polo-111111');
    const input = polo.getByLabelText('Daily rate');
    expect(input).toHaveAttribute('min', '1');
    expect(input).toHaveAttribute('step', '50');
    const update = polo.getByRole('button', { name: 'Update' });
    expect(update).toBeDisabled();

    await user.clear(input);
    await user.type(input, '0');
    expect(update).toBeDisabled();
    await user.tab();
    expect(input).toHaveValue(650);

    await user.clear(input);
    await user.type(input, '900');
    await user.click(update);

    expect(await screen.findByText('Price Updated')).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/api/rent/updateCarRentPrice/')).toEqual({ car_rent_price: 900 });
    await waitFor(() => expect(polo.getByLabelText('Daily rate')).toHaveValue(900));
  });

  it('reports a failed price update', async () => {
    const car = makeCar({ car_username: 'vw-polo-111111' });
    hostApi([car], { [`POST /api/rent/updateCarRentPrice/${car.id}`]: fail(500, 'Nope') });
    const { user } = renderApp({ path: '/host-dashboard' });

    const polo = await card('vw-polo-111111');
    await user.clear(polo.getByLabelText('Daily rate'));
    await user.type(polo.getByLabelText('Daily rate'), '700{Enter}');

    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to update car price. Please try again.')).toBeInTheDocument();
  });

  it('returns a rented car with the odometer and notes of the confirm-return modal', async () => {
    const car = makeCar({ car_username: 'rented-111111', status: 'rented', isRented: true, car_odometer: 27802 });
    const fleet = [car];
    const fetchMock = hostApi(fleet, {
      [`PATCH /api/car/returnCar/${car.id}`]: () => {
        fleet[0] = { ...car, status: 'available', isRented: false, car_odometer: 28100 };
        return ok(fleet[0]);
      },
    });
    const { user } = renderApp({ path: '/host-dashboard' });

    await user.click((await card('rented-111111')).getByRole('button', { name: 'Mark as Returned' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Confirm Car Return' }));
    expect(dialog.getByLabelText('Odometer reading (km)')).toHaveValue(27802);
    expect(dialog.getByLabelText(/Condition notes/)).toHaveValue('Returned via host dashboard');

    await user.clear(dialog.getByLabelText('Odometer reading (km)'));
    await user.type(dialog.getByLabelText('Odometer reading (km)'), '28100');
    await user.click(dialog.getByRole('button', { name: 'Confirm Return' }));

    expect(await screen.findByText('Car Successfully Returned')).toBeInTheDocument();
    const body = bodyOf(fetchMock, 'PATCH', '/api/car/returnCar/') as Record<string, unknown>;
    expect(body).toMatchObject({ odometer_reading: 28100, condition_notes: 'Returned via host dashboard' });
    expect(Number.isNaN(Date.parse(String(body.actual_return_date)))).toBe(false);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect((await card('rented-111111')).queryByRole('button', { name: 'Mark as Returned' })).not.toBeInTheDocument();
  });

  it('keeps the return modal open when the return fails', async () => {
    const car = makeCar({ car_username: 'rented-111111', status: 'rented', isRented: true });
    hostApi([car], { [`PATCH /api/car/returnCar/${car.id}`]: fail(409, 'No active rental') });
    const { user } = renderApp({ path: '/host-dashboard' });

    await user.click((await card('rented-111111')).getByRole('button', { name: 'Mark as Returned' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm Return' }));

    expect(await screen.findByText('Return Failed')).toBeInTheDocument();
    // The server's reason, not a generic text (docs/decisions/014).
    expect(screen.getByText('No active rental')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm Car Return' })).toBeInTheDocument();
  });

  it('invites a host without cars to list the first one', async () => {
    hostApi([]);
    renderApp({ path: '/host-dashboard' });

    expect(await screen.findByText('No cars listed yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'List Your First Car' })).toHaveAttribute('href', '/become-host');
  });
});
