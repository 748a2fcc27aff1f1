import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
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
    profileApi();
    renderApp({ path: '/profile' });

    const stats = within((await screen.findByRole('heading', { name: 'Account Stats' })).closest('section')!);
    expect(stats.getByText('Customer')).toBeInTheDocument();
    expect(stats.getByText('Active')).toBeInTheDocument();
    const aside = within(screen.getByRole('complementary', { name: 'Account summary' }));
    expect(aside.getByRole('link', { name: /Browse Cars/ })).toHaveAttribute('href', '/cars');
    expect(aside.getByRole('link', { name: /My Bookings/ })).toHaveAttribute('href', '/my-bookings');
    expect(aside.getByRole('link', { name: /Become a Host/ })).toHaveAttribute('href', '/become-host');
    expect(screen.queryByText('Cars Listed')).not.toBeInTheDocument();
  });

  it('gives hosts the host quick actions', async () => {
    const host = makeUser({ username: 'host_thabo', role: 'host' });
    signIn(host);
    profileApi(host);
    renderApp({ path: '/profile' });

    expect(await screen.findByRole('link', { name: /Add New Car/ })).toHaveAttribute('href', '/become-host');
    expect(screen.getByRole('link', { name: /Manage Cars/ })).toHaveAttribute('href', '/host-dashboard');
    expect(screen.getByRole('link', { name: /View Earnings/ })).toHaveAttribute('href', '/earnings');
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
