import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { carPage, makeCar } from '@/test/car-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const emptyDocuments = { id_document: null, driver_license: null, proof_of_address: null, bank_confirmation_letter: null };

function profileApi(user = makeUser(), extra: Parameters<typeof mockFetch>[0] = {}) {
  return mockFetch({
    'GET /api/user/me': ok(user),
    'GET /api/notifications': ok([]),
    [`GET /api/user/${user.username}/verification-status`]: ok({ verification_status: user.verification_status, documents: emptyDocuments, missing: [] }),
    ...extra,
  });
}

describe('ProfilePage', () => {
  it('shows the details with Required or Complete badges and the hint of each missing field', async () => {
    const user = makeUser({ verification_status: 'pending_upload', phone_number: null, address: 'Not provided', bank_account: { account_number: null, bank_code: '250655' } });
    signIn(user);
    profileApi(user);
    renderApp({ path: '/profile' });

    expect(screen.getByText('Loading profile...')).toBeInTheDocument();
    expect(await screen.findByText('@sipho')).toBeInTheDocument();
    expect(screen.getByText('Complete Your Registration')).toBeInTheDocument();
    expect(screen.getByText('Phone number is required for booking confirmations')).toBeInTheDocument();
    expect(screen.getByText('Address is required for identity verification')).toBeInTheDocument();
    expect(screen.getByText('Bank account number is required for payment processing')).toBeInTheDocument();
    expect(screen.getAllByText('Required')).toHaveLength(3);
    expect(screen.getAllByText('Complete')).toHaveLength(4);
    expect(screen.getByText('19 May 2025')).toBeInTheDocument();
  });

  it('shows Customer account stats and renter quick actions', async () => {
    signIn(makeUser());
    const fetchMock = profileApi(makeUser(), { 'GET /api/car/getCarList': carPage([], { total: 0, limit: 48 }) });
    renderApp({ path: '/profile' });

    const stats = within((await screen.findByRole('heading', { name: 'Account Stats' })).closest('section')!);
    expect(stats.getByText('Customer')).toBeInTheDocument();
    expect(stats.getByText('Cars Listed')).toBeInTheDocument();
    expect(await stats.findByText('0')).toBeInTheDocument();
    const carList = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.includes('/api/car/getCarList'));
    expect(new URL(carList!, 'http://localhost').searchParams.get('owner')).toBe('sipho');
    expect(new URL(carList!, 'http://localhost').searchParams.get('limit')).toBe('48');
    expect(stats.getByText('Active')).toBeInTheDocument();
    const aside = within(screen.getByRole('complementary', { name: 'Account summary' }));
    expect(aside.getByRole('link', { name: /Browse Cars/ })).toHaveAttribute('href', '/cars');
    expect(aside.getByRole('link', { name: /My Bookings/ })).toHaveAttribute('href', '/my-bookings');
    expect(aside.getByRole('link', { name: /Become a Host/ })).toHaveAttribute('href', '/become-host');
    expect(screen.queryByRole('heading', { name: 'My Cars' })).not.toBeInTheDocument();
  });

  it('shows a host the Cars Listed count and the My Cars grid with Rented or Available badges', async () => {
    const host = makeUser({ username: 'host_thabo', role: 'host' });
    signIn(host);
    const polo = makeCar({ car_username: 'vw-polo-200001', car_make: 'Volkswagen', car_model: 'Polo', car_color: 'Blue', car_plate_number: 'GP 55-66', car_rent_price: 450, isRented: true });
    const corolla = makeCar({ car_username: 'toyota-corolla-200002' });
    profileApi(host, { 'GET /api/car/getCarList': carPage([polo, corolla], { total: 3, limit: 48 }) });
    renderApp({ path: '/profile' });

    const grid = within((await screen.findByRole('heading', { name: 'My Cars' })).closest('section')!);
    const stats = within(screen.getByRole('heading', { name: 'Account Stats' }).closest('section')!);
    expect(stats.getByText('Cars Listed').nextElementSibling).toHaveTextContent('3');

    const poloCard = grid.getByRole('link', { name: /Volkswagen Polo/ });
    expect(poloCard).toHaveAttribute('href', '/cars/vw-polo-200001');
    expect(within(poloCard).getByText('Rented')).toBeInTheDocument();
    expect(within(poloCard).getByText('vw-polo-200001')).toBeInTheDocument();
    expect(within(poloCard).getByText('Blue')).toBeInTheDocument();
    expect(within(poloCard).getByText('GP 55-66')).toBeInTheDocument();
    expect(within(poloCard).getByText('Sedan')).toBeInTheDocument();
    expect(within(poloCard).getByText(/450/)).toBeInTheDocument();
    const corollaCard = grid.getByRole('link', { name: /Toyota Corolla/ });
    expect(corollaCard).toHaveAttribute('href', '/cars/toyota-corolla-200002');
    expect(within(corollaCard).getByText('Available')).toBeInTheDocument();
    expect(grid.getByRole('link', { name: /Manage Cars/ })).toHaveAttribute('href', '/host-dashboard');
  });

  it('gives hosts the host quick actions', async () => {
    const host = makeUser({ username: 'host_thabo', role: 'host' });
    signIn(host);
    profileApi(host);
    renderApp({ path: '/profile' });

    expect(await screen.findByRole('link', { name: /Add New Car/ })).toHaveAttribute('href', '/become-host');
    const aside = within(screen.getByRole('complementary', { name: 'Account summary' }));
    expect(aside.getByRole('link', { name: /Manage Cars/ })).toHaveAttribute('href', '/host-dashboard');
    expect(aside.getByRole('link', { name: /View Earnings/ })).toHaveAttribute('href', '/earnings');
  });

  it('validates the form, clears a field error on edit, and saves', async () => {
    const user = makeUser({ verification_status: 'pending_verification', phone_number: null });
    signIn(user);
    const fetchMock = profileApi(user, {
      'PUT /api/user/update/sipho': ok({ ...user, phone_number: '+27 82 123 4567' }, 'Profile updated successfully!'),
    });
    const { user: ui } = renderApp({ path: '/profile' });

    await ui.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Phone number is required')).toBeInTheDocument();

    await ui.type(screen.getByLabelText('Phone Number'), '+');
    expect(screen.queryByText('Phone number is required')).not.toBeInTheDocument();
    await ui.type(screen.getByLabelText('Phone Number'), '27 82 123 4567');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([url, init]) => url === '/api/user/update/sipho' && init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ phone_number: '+27 82 123 4567', full_name: 'Sipho Nkosi' });
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
    expect(screen.getByText('+27 82 123 4567')).toBeInTheDocument();
  });

  it('Cancel puts back the saved values', async () => {
    signIn(makeUser({ verification_status: 'pending_verification' }));
    profileApi(makeUser({ verification_status: 'pending_verification' }));
    const { user: ui } = renderApp({ path: '/profile' });

    await ui.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await ui.clear(screen.getByLabelText('Full Name'));
    await ui.type(screen.getByLabelText('Full Name'), 'Somebody Else');
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    await ui.click(screen.getByRole('button', { name: 'Edit Profile' }));

    expect(screen.getByLabelText('Full Name')).toHaveValue('Sipho Nkosi');
  });

  it('locks identity and bank fields once verified, and sends only the phone number', async () => {
    signIn(makeUser());
    const fetchMock = profileApi(makeUser(), { 'PUT /api/user/update/sipho': ok(makeUser({ phone_number: '+27 82 999 0000' })) });
    const { user: ui } = renderApp({ path: '/profile' });

    expect(await screen.findByText('Bank details cannot be changed for security and compliance reasons.')).toBeInTheDocument();
    await ui.click(screen.getByRole('button', { name: 'Edit Profile' }));
    for (const label of ['Full Name', 'Email', 'Address', 'ID Number', 'Account Number', 'Bank Code']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    }
    expect(screen.getByLabelText('Phone Number')).not.toHaveAttribute('readonly');
    expect(screen.getAllByText('Verified').length).toBeGreaterThanOrEqual(1);

    await ui.clear(screen.getByLabelText('Phone Number'));
    await ui.type(screen.getByLabelText('Phone Number'), '+27 82 999 0000');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));

    await screen.findByText('Profile updated successfully!');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ phone_number: '+27 82 999 0000' });
  });

  it('lets a verified member add the driving licence number they have not given yet, checked as the server checks it', async () => {
    signIn(makeUser());
    const fetchMock = profileApi(makeUser(), { 'PUT /api/user/update/sipho': ok(makeUser({ driver_licence_number: '10270001ABCD' })) });
    const { user: ui } = renderApp({ path: '/profile' });
    // The licence number and its first issue date, both optional.
    expect(await screen.findAllByText('Not given (optional)')).toHaveLength(2);
    await ui.click(screen.getByRole('button', { name: 'Edit Profile' }));
    const licence = screen.getByLabelText('Driving Licence Number');
    expect(licence).not.toHaveAttribute('readonly');
    await ui.type(licence, '1027');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Please enter a valid driving licence number (6 to 20 letters and digits)')).toBeInTheDocument();
    await ui.clear(licence);
    await ui.type(licence, '1027 0001 abcd');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ phone_number: makeUser().phone_number, driver_licence_number: '10270001ABCD' });
  });

  it('lets a verified member add the licence issue date once (instant booking may ask the years held)', async () => {
    signIn(makeUser());
    const fetchMock = profileApi(makeUser(), { 'PUT /api/user/update/sipho': ok(makeUser({ driver_licence_issued_on: '2019-04-01' })) });
    const { user: ui } = renderApp({ path: '/profile' });
    await ui.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    const issued = screen.getByLabelText('Licence First Issued');
    expect(issued).not.toHaveAttribute('readonly');
    await ui.type(issued, '2019-04-01');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByText('Profile updated successfully!');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ phone_number: makeUser().phone_number, driver_licence_issued_on: '2019-04-01' });
  });

  it('shows the field and the server message when the server refuses the change', async () => {
    const user = makeUser({ verification_status: 'pending_verification' });
    signIn(user);
    profileApi(user, {
      'PUT /api/user/update/sipho': fail(409, 'An account with this email already exists', { email: 'An account with this email already exists' }),
    });
    const { user: ui } = renderApp({ path: '/profile' });

    await ui.click(await screen.findByRole('button', { name: 'Edit Profile' }));
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Failed to update profile. Please try again.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getAllByText('An account with this email already exists').length).toBeGreaterThanOrEqual(1);
  });
});
