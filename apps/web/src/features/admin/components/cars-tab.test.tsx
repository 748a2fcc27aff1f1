import { formatRand, type Car } from '@karoo/shared';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const pendingCar = makeCar({
  id: 'c-pending',
  car_username: 'polo-pending',
  car_make: 'Volkswagen',
  car_model: 'Polo',
  verification_status: 'pending_verification',
  car_rent_price: 450,
  registration_document: { url: '/uploads/doc.pdf', filename: 'doc.pdf', mime_type: 'application/pdf', uploaded_at: '2025-01-01T00:00:00Z', verified: null, verification_notes: null },
});
const rentedCar = makeCar({ id: 'c-rented', car_username: 'corolla-rented', status: 'rented', isRented: true, verification_status: 'verified', rating: 4.6, totalReviews: 9 });
const maintenanceCar = makeCar({ id: 'c-maint', car_username: 'hilux-maint', car_make: 'Toyota', car_model: 'Hilux', status: 'maintenance', verification_status: 'verified' });

const COUNTERS = { total_users: 80, total_bookings: 120, pending_user_verification: 3, total_cars: 57, available_cars: 40, rented_cars: 9, maintenance_cars: 8, pending_car_verification: 6 };
/** The admin overview: the Cars tab's counters are its aggregate (one request, not one per counter). */
const overviewResponse = () => ok({ counters: COUNTERS, recent_users: [], debug: {} });

function mockCarsApi() {
  const urls: string[] = [];
  const bodies: { method: string; url: string; body: unknown }[] = [];
  const record = ({ url, method, init }: { url: string; method: string; init?: RequestInit }) =>
    bodies.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const fetch = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/admin/overview': overviewResponse,
    'GET /api/admin/cars': ({ url }) => {
      urls.push(url);
      const data: Car[] = [pendingCar, rentedCar, maintenanceCar];
      return jsonResponse({ success: true, data, meta: { total: 57, page: 1, limit: 20 } });
    },
    'GET /api/review/getStats': ok({ average: 4.7, count: 128, by_rating: { 1: 1, 2: 2, 3: 10, 4: 30, 5: 85 } }),
    'GET /api/settings': ok({ minCarValue: 50000 }),
    'POST /api/car/newCar/admin': (request) => {
      record(request);
      const body = JSON.parse(String(request.init?.body)) as Partial<Car>;
      return jsonResponse({ success: true, data: makeCar({ ...body, id: 'c-new', car_username: body.car_username ?? 'toyota-fortuner-2-8-gd-6-123456', car_owner: 'admin' }) }, 201);
    },
    'PATCH /api/car/verifyCar/c-pending': (request) => {
      record(request);
      return ok({ ...pendingCar, verification_status: 'verified' });
    },
    'PATCH /api/car/forceReturn/corolla-rented': (request) => {
      record(request);
      return ok({ affected_bookings: 2, car: { ...rentedCar, status: 'available' } });
    },
    'DELETE /api/car/deleteCar/c-maint': (request) => {
      record(request);
      return ok(null);
    },
  });
  return { urls, bodies, fetch };
}

describe('Cars tab', () => {
  it('shows the server counters and the table, unverified cars included; filters and searches on the server', async () => {
    signIn(adminUser);
    const { urls, fetch } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });

    const rows = await screen.findAllByTestId('car-row');
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('2022 Volkswagen Polo')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('img', { name: '2022 Volkswagen Polo' })).toHaveAttribute('src', '/uploads/cars/a/side.svg');
    expect(within(rows[0]!).getByText('@host_thabo')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/R\s?450.*\/day/)).toBeInTheDocument();
    expect(within(rows[0]!).getByText('New')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Pending verification')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Awaiting review')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Verify document of polo-pending' })).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: /Force Return/ })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('4.6 (9)')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Force Return corolla-rented' })).toBeInTheDocument();
    expect(within(rows[2]!).queryByRole('button', { name: /^Maintenance/ })).not.toBeInTheDocument();
    expect(within(rows[2]!).getByRole('button', { name: 'Back to available hilux-maint' })).toBeInTheDocument();

    const counters = screen.getByLabelText('Car counters');
    await waitFor(() => expect(within(counters).getByText('Total').nextSibling).toHaveTextContent('57'));
    await waitFor(() => expect(within(counters).getByText('Rented').nextSibling).toHaveTextContent('9'));
    expect(within(counters).getByText('Available').nextSibling).toHaveTextContent('40');
    expect(within(counters).getByText('Maintenance').nextSibling).toHaveTextContent('8');
    expect(within(counters).getByText('Pending verification').nextSibling).toHaveTextContent('6');
    await waitFor(() => expect(within(counters).getByText('Avg Rating').nextSibling).toHaveTextContent('4.7'));
    expect(within(counters).getByText('128 reviews')).toBeInTheDocument();
    // The counters are one aggregate (the admin overview), and the list is the admin's own route,
    // never the public browse.
    const called = fetch.mock.calls.map(([input]) => String(input).replace(/\?.*$/, ''));
    expect(called.filter((url) => url === '/api/admin/overview')).toHaveLength(1);
    expect(called.filter((url) => url.includes('getCarList'))).toEqual([]);
    expect(urls[0]).toBe('/api/admin/cars?page=1&limit=20');

    await user.selectOptions(screen.getByLabelText('Status'), 'rented');
    await waitFor(() => expect(urls.at(-1)).toContain('status=rented'));
    await user.type(screen.getByLabelText('Search cars'), 'Polo');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)).toContain('search=Polo'));
  });

  it('keeps the search, the status and the pending-verification filter in the URL, and sends them to the server', async () => {
    signIn(adminUser);
    const { urls } = mockCarsApi();
    const { user, router } = renderApp({ path: '/admin?tab=cars&q=KR+42&verification=pending_verification' });

    await screen.findAllByTestId('car-row');
    const first = new URL(urls[0]!, 'http://x').searchParams;
    expect(first.get('search')).toBe('KR 42');
    expect(first.get('verification_status')).toBe('pending_verification');
    expect(screen.getByLabelText('Search cars')).toHaveValue('KR 42');
    expect(screen.getByLabelText('Verification')).toHaveValue('pending_verification');

    await user.selectOptions(screen.getByLabelText('Status'), 'maintenance');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&q=KR+42&verification=pending_verification&status=maintenance'));
    await waitFor(() => expect(urls.at(-1)).toContain('status=maintenance'));
    await user.selectOptions(screen.getByLabelText('Verification'), '');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&q=KR+42&status=maintenance'));
    expect(new URL(urls.at(-1)!, 'http://x').searchParams.has('verification_status')).toBe(false);

    // Another tab starts without the Cars tab's filters.
    await user.click(screen.getByRole('tab', { name: 'Users' }));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=users'));
  });

  it('sorts on the server by car or price from the Sort by menu, kept in the URL; newest listed first without it', async () => {
    signIn(adminUser);
    const { urls } = mockCarsApi();
    const { user, router } = renderApp({ path: '/admin?tab=cars&status=rented' });
    await screen.findAllByTestId('car-row');
    const menu = screen.getByLabelText('Sort by');
    expect([...(menu as HTMLSelectElement).options].map((option) => option.text)).toEqual(['Newest listed first', 'Car: A to Z', 'Car: Z to A', 'Price: low to high', 'Price: high to low']);
    expect(new URL(urls[0]!, 'http://x').searchParams.has('sort')).toBe(false);
    await user.selectOptions(menu, 'price:desc');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&status=rented&sort=price&order=desc'));
    await waitFor(() => expect(urls.at(-1)).toContain('sort=price&order=desc'));
    expect(screen.getByRole('columnheader', { name: /Pricing & Performance/ })).toHaveAttribute('aria-sort', 'descending');
    await user.selectOptions(menu, '');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&status=rented'));
    // From 1280 px the header sorts: cheapest first on the first click, though prices are numbers.
    await user.click(within(screen.getByRole('columnheader', { name: /Pricing & Performance/ })).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&status=rented&sort=price&order=asc'));
  });

  it('keeps both of two filter changes made before the page draws again (a search, then a status at once)', async () => {
    signIn(adminUser);
    mockCarsApi();
    const { user, router } = renderApp({ path: '/admin?tab=cars' });
    await screen.findAllByTestId('car-row');
    await user.type(screen.getByLabelText('Search cars'), 'Polo');
    act(() => {
      fireEvent.submit(screen.getByRole('search'));
      fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'rented' } });
    });
    await waitFor(() => expect(router.state.location.search).toBe('?tab=cars&q=Polo&status=rented'));
  });

  // What an admin can approve (issue 18; decision 033): the server's rule, mirrored.
  it('disables Verify while the registration document awaits review, with the reason beside it', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    const verify = await screen.findByRole('button', { name: 'Verify polo-pending' });
    expect(verify).toBeDisabled();
    const reason = 'Cannot verify: the registration document is awaiting review.';
    expect(verify).toHaveAccessibleDescription(reason);
    expect(within(screen.getAllByTestId('car-row')[0]!).getByText(reason)).toBeVisible();
    await user.click(verify);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodies).toHaveLength(0);
  });

  it('names every gap: no registration document, no photo, a value under the minimum', async () => {
    signIn(adminUser);
    const bare = makeCar({ id: 'c-bare', car_username: 'bare-car', verification_status: 'pending_verification', images: [], car_images: [], car_value: 20000, registration_document: null });
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/admin/overview': overviewResponse,
      'GET /api/admin/cars': jsonResponse({ success: true, data: [bare], meta: { total: 1, page: 1, limit: 20 } }),
      'GET /api/review/getStats': ok({ average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } }),
      'GET /api/settings': ok({ minCarValue: 50000 }),
    });
    renderApp({ path: '/admin?tab=cars' });
    const verify = await screen.findByRole('button', { name: 'Verify bare-car' });
    await waitFor(() =>
      expect(verify).toHaveAccessibleDescription(
        `Cannot verify: the registration document is not uploaded; the car has no photo (at least one is needed); the listing breaks a rule: Vehicle value must be at least ${formatRand(50000)} to list on Karoo.`,
      ),
    );
    expect(verify).toBeDisabled();
  });

  it('verifies a car with an approved registration document and photos, after confirmation', async () => {
    signIn(adminUser);
    const ready = makeCar({
      id: 'c-ready',
      car_username: 'fortuner-ready',
      verification_status: 'pending_verification',
      registration_document: { url: '/api/car/fortuner-ready/registration-document', filename: 'reg.pdf', mime_type: 'application/pdf', uploaded_at: '2025-01-01T00:00:00Z', verified: true, verification_notes: null },
    });
    const bodies: unknown[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/admin/overview': overviewResponse,
      'GET /api/admin/cars': jsonResponse({ success: true, data: [ready], meta: { total: 1, page: 1, limit: 20 } }),
      'GET /api/review/getStats': ok({ average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } }),
      'GET /api/settings': ok({ minCarValue: 50000 }),
      'PATCH /api/car/verifyCar/c-ready': ({ url, init }) => {
        bodies.push({ url, body: JSON.parse(String(init?.body)) });
        return ok({ ...ready, verification_status: 'verified' });
      },
    });
    const { user } = renderApp({ path: '/admin?tab=cars' });
    const verify = await screen.findByRole('button', { name: 'Verify fortuner-ready' });
    expect(verify).toBeEnabled();
    await user.click(verify);
    const dialog = await screen.findByRole('dialog', { name: 'Verify this car?' });
    expect(dialog).toHaveTextContent('is listed publicly');
    expect(bodies).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Verify car' }));
    expect(await screen.findByText('Car verified')).toBeInTheDocument();
    expect(bodies[0]).toEqual({ url: '/api/car/verifyCar/c-ready', body: { verification_status: 'verified' } });
  });

  it('rejects a car only with notes', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    await user.click(await screen.findByRole('button', { name: 'Reject polo-pending' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject car' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject car' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please add notes');
    expect(bodies).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Notes (required)'), 'Plate not visible');
    await user.click(within(dialog).getByRole('button', { name: 'Reject car' }));
    expect(await screen.findByText('Car rejected')).toBeInTheDocument();
    expect(bodies[0]!.body).toEqual({ verification_status: 'rejected', admin_notes: 'Plate not visible' });
  });

  it('force returns a rented car with a reason and tells how many bookings were affected', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    await user.click(await screen.findByRole('button', { name: 'Force Return corolla-rented' }));
    const dialog = await screen.findByRole('dialog', { name: 'Force return' });
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'Returned to the host');
    await user.click(within(dialog).getByRole('button', { name: 'Force return' }));
    expect(await screen.findByText(/2 bookings affected/)).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'PATCH', body: { admin_action: true, reason: 'Returned to the host' } });
  });

  it('deletes a car after confirmation', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    await user.click(await screen.findByRole('button', { name: 'Delete hilux-maint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this car?' });
    expect(bodies).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete car' }));
    expect(await screen.findByText('Car deleted')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'DELETE', url: '/api/car/deleteCar/c-maint' });
  });

  it('opens the gallery of a car from its photo', async () => {
    signIn(adminUser);
    mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    await user.click(await screen.findByRole('button', { name: /^2022 Volkswagen Polo.*open the (photo|gallery)$/ }));
    const dialog = await screen.findByRole('dialog', { name: '2022 Volkswagen Polo' });
    expect(within(dialog).getByRole('img', { name: /2022 Volkswagen Polo, photo 1 of/ })).toHaveAttribute('src', '/uploads/cars/a/side.svg');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('creates the Quick Test Car for the signed-in admin: an SUV at R450 a day, value R750 000', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    expect(screen.queryByRole('button', { name: 'Create Test Car' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Open Car Creator' }));
    expect(screen.getByLabelText('Owner username')).toHaveValue('admin');
    await user.click(screen.getByRole('button', { name: 'Create Test Car' }));
    expect(await screen.findByText('Car created')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({
      method: 'POST',
      url: '/api/car/newCar/admin',
      body: { car_type: 'SUV', car_rent_price: 450, car_value: 750000, specifications: { seats: 7, fuelType: 'Diesel' } },
    });
    expect((bodies[0]!.body as { car_plate_number: string }).car_plate_number).toMatch(/^TEST [A-Z0-9]{6}$/);
  });

  it('keeps Create Car disabled until Make, Model and Username are filled, and falls back on unreadable numbers', async () => {
    signIn(adminUser);
    const { bodies } = mockCarsApi();
    const { user } = renderApp({ path: '/admin?tab=cars' });
    await user.click(await screen.findByRole('button', { name: 'Open Car Creator' }));
    await user.click(screen.getByRole('button', { name: 'Custom Car' }));
    const form = screen.getByRole('form', { name: 'Custom Car' });
    const create = within(form).getByRole('button', { name: 'Create Car' });
    expect(create).toBeDisabled();
    expect(within(form).getByText('Please fill in all required fields (Make, Model, Username)')).toBeInTheDocument();
    expect(within(form).getByLabelText('Type')).toHaveValue('Sedan');
    expect(within(form).getByLabelText('Transmission')).toHaveValue('Automatic');
    expect(within(form).getByLabelText('Fuel')).toHaveValue('Petrol');

    await user.type(within(form).getByLabelText('Make *'), 'Volkswagen');
    await user.type(within(form).getByLabelText('Model *'), 'Polo Vivo');
    expect(create).toBeDisabled();
    await user.type(within(form).getByLabelText('Car Username *'), 'Bad Name!');
    expect(create).toBeEnabled();
    await user.click(create);
    expect(within(form).getByText(/lowercase letters, digits and single hyphens/)).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Car Username *'));
    await user.type(within(form).getByLabelText('Car Username *'), 'vw-polo-vivo-test');
    await user.clear(within(form).getByLabelText('Seats'));
    await user.clear(within(form).getByLabelText('Daily rate (R)'));
    await user.type(within(form).getByLabelText('Daily rate (R)'), 'abc');
    await user.click(create);
    // An unreadable price counts as 0, which the platform's listing rule refuses before any call.
    expect(await screen.findByText('Please fill in car make, model, type, and rental price.')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await user.clear(within(form).getByLabelText('Daily rate (R)'));
    await user.type(within(form).getByLabelText('Daily rate (R)'), '380');
    await user.click(within(form).getByLabelText('Bluetooth'));
    await user.click(create);
    expect(await screen.findByText('Car created')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({
      url: '/api/car/newCar/admin',
      body: {
        car_make: 'Volkswagen',
        car_model: 'Polo Vivo',
        car_username: 'vw-polo-vivo-test',
        car_rent_price: 380,
        features: ['Bluetooth'],
        specifications: { seats: 5, doors: 4, transmission: 'Automatic', fuelType: 'Petrol', fuelConsumption: '8.0L/100km', engine: '2.0L' },
      },
    });
  });
});
