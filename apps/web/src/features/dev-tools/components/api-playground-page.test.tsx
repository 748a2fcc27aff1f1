import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const admin = makeUser({ id: 'admin-1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as Record<string, unknown>;

async function openTab(name: string) {
  const view = renderApp({ path: '/api-playground' });
  await view.user.click(await screen.findByRole('tab', { name }));
  return view;
}

describe('ApiPlaygroundPage', () => {
  it('creates a user with the admin token and shows the success banner, the message and the JSON answer', async () => {
    signIn(admin, 'admin-token');
    const fetch = mockFetch({
      'GET /api/notifications': ok([]),
      'POST /api/user/create': ({ init }) => ok({ id: 'u-9', ...bodyOf(init), password: undefined }, 'User created'),
    });
    const { user } = await openTab('Users');
    await user.type(screen.getByLabelText('Username'), 'thandi');
    await user.type(screen.getByLabelText('Email'), 'thandi@example.co.za');
    await user.type(screen.getByLabelText('Full name'), 'Thandi Zulu');
    await user.type(screen.getByLabelText('Password'), 'Karoo-pass-1');
    await user.click(screen.getByRole('button', { name: 'Create User' }));

    const banner = await screen.findByRole('status');
    expect(banner).toHaveTextContent('Operation completed successfully!');
    expect(banner).toHaveTextContent('Create User: User created');
    expect(screen.getByLabelText('Server response')).toHaveTextContent('"username": "thandi"');

    const [, init] = fetch.mock.calls.find(([url]) => String(url) === '/api/user/create')!;
    expect(bodyOf(init)).toEqual({ username: 'thandi', email: 'thandi@example.co.za', name: 'Thandi Zulu', password: 'Karoo-pass-1' });
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer admin-token');
  });

  it("shows the failure banner with the server's message and its field messages", async () => {
    signIn(admin);
    mockFetch({
      'GET /api/notifications': ok([]),
      'POST /api/user/create': fail(409, 'This username is already taken', { username: 'This username is already taken' }),
    });
    const { user } = await openTab('Users');
    await user.type(screen.getByLabelText('Username'), 'sipho');
    await user.click(screen.getByRole('button', { name: 'Create User' }));

    const banner = await screen.findByText('Operation failed. Please try again.');
    expect(banner.closest('[role="alert"]')).toHaveTextContent('Create User: This username is already taken');
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('This username is already taken');
    expect(screen.getByLabelText('Server response')).toHaveTextContent('"status": 409');
  });

  it('names the missing car username and location before calling the API', async () => {
    signIn(admin);
    const fetch = mockFetch({ 'GET /api/notifications': ok([]) });
    const { user } = renderApp({ path: '/api-playground' });
    await user.click(await screen.findByRole('button', { name: 'Update Location' }));
    expect(screen.getByLabelText('Car username')).toHaveAccessibleDescription('Update Location needs a car username');
    expect(screen.getByLabelText('New pickup location')).toHaveAccessibleDescription('Update Location needs a location');

    await user.click(screen.getByRole('button', { name: 'Update Status' }));
    expect(screen.getByLabelText('Car username')).toHaveAccessibleDescription('Update Status needs a car username');
    await user.click(screen.getByRole('button', { name: 'Update Price' }));
    expect(screen.getByLabelText('Car username')).toHaveAccessibleDescription('Update Price needs a car username');
    await user.click(screen.getByRole('button', { name: 'Delete Car' }));
    expect(screen.getByLabelText('Car username')).toHaveAccessibleDescription('Delete Car needs a car username');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => String(url).includes('/car/'))).toHaveLength(0);
  });

  it('updates a price through the rent route and asks before deleting a car', async () => {
    signIn(admin);
    const fetch = mockFetch({
      'GET /api/notifications': ok([]),
      'POST /api/rent/updateCarRentPrice/toyota-fortuner-1': ok({ car_username: 'toyota-fortuner-1', car_rent_price: 500 }, 'Price updated'),
      'DELETE /api/car/deleteCar/toyota-fortuner-1': ok(null, 'Car deleted'),
    });
    const { user } = renderApp({ path: '/api-playground' });
    await user.type(await screen.findByLabelText('Car username'), 'toyota-fortuner-1');
    await user.click(screen.getByRole('button', { name: 'Update Price' }));
    expect(await screen.findByText('Operation completed successfully!')).toBeInTheDocument();
    const priceCall = fetch.mock.calls.find(([url]) => String(url).includes('updateCarRentPrice'))!;
    expect(bodyOf(priceCall[1])).toEqual({ car_rent_price: 500 });

    await user.click(screen.getByRole('button', { name: 'Delete Car' }));
    const dialog = await screen.findByRole('dialog');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete Car' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Operation completed successfully!Delete Car: Car deleted'));
    expect(fetch.mock.calls.some(([url, init]) => init?.method === 'DELETE' && String(url) === '/api/car/deleteCar/toyota-fortuner-1')).toBe(true);
  });

  it('needs a username to delete a user, and car and user usernames for a review', async () => {
    signIn(admin);
    mockFetch({ 'GET /api/notifications': ok([]) });
    const { user } = await openTab('Users');
    await user.click(screen.getByRole('button', { name: 'Delete User' }));
    expect(screen.getByLabelText('Username to delete')).toHaveAccessibleDescription('Delete User needs a username');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Bookings' }));
    await user.click(screen.getByRole('button', { name: 'Create Review' }));
    expect(await screen.findByText('Create Review needs a car username')).toBeInTheDocument();
    expect(screen.getByText('Create Review needs a user username')).toBeInTheDocument();
  });

  it('lists active rents from the Finance tab', async () => {
    signIn(admin);
    const fetch = mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/booking/getList': ok([{ booking_id: 'KR1', status: 'active' }]) });
    const { user } = await openTab('Finance');
    await user.click(screen.getByRole('button', { name: 'List Active Rents' }));
    expect(await screen.findByText('Operation completed successfully!')).toBeInTheDocument();
    expect(screen.getByLabelText('Server response')).toHaveTextContent('"booking_id": "KR1"');
    expect(fetch.mock.calls.some(([url]) => String(url) === '/api/booking/getList?status=active')).toBe(true);
  });

  it('moves between the four tabs with the arrow keys', async () => {
    signIn(admin);
    mockFetch({ 'GET /api/notifications': ok([]) });
    const { user } = renderApp({ path: '/api-playground' });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Cars', 'Users', 'Bookings', 'Finance']);
    expect(tabs[0]).toHaveAttribute('aria-selected', 'true');
    tabs[0]!.focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Finance' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Finance' })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Cars' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Cars');
  });

  it('shows the denied text to an admin the username reading does not admit', async () => {
    signIn(makeUser({ username: 'ops_lead', role: 'admin', user_type: 'admin' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    renderApp({ path: '/api-playground' });
    expect(await screen.findByText("You don't have permission to access the API playground.")).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
