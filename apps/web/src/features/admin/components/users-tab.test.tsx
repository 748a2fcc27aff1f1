import type { AdminUserCounts, UserWithDocuments } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const noDocs = { id_document: null, driver_license: null, proof_of_address: null, bank_confirmation_letter: null };
const doc = (name: string) => ({ url: `/api/user/x/documents/${name}`, originalName: `${name}.pdf`, mime_type: 'application/pdf', size: 1000, uploaded_at: '2030-03-01T08:00:00.000Z' });
const requiredDocs = { ...noDocs, id_document: doc('id_document'), driver_license: doc('driver_license'), bank_confirmation_letter: doc('bank_confirmation_letter') };
const counts: AdminUserCounts = { total: 30, pending_verification: 4, verified: 20, rejected: 1, pending_upload: 5, admins: 1, hosts: 9, customers: 20 };

const row = (overrides: Partial<UserWithDocuments>): UserWithDocuments => ({
  ...makeUser({ id: crypto.randomUUID(), ...overrides }),
  documents: noDocs,
  ...overrides,
});

const naledi = row({ username: 'naledi', full_name: 'Naledi Dlamini', email: 'naledi@example.co.za', verification_status: 'pending_verification', total_trips: 3, rating: 4.5 });
const thabo = row({ username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host', verification_status: 'verified' });
const boss = row({ username: 'admin', full_name: 'Karoo Admin', role: 'admin', verification_status: 'verified' });
// Pending, with every required document in: the one Verify is offered to.
const sizwe = row({ username: 'sizwe', full_name: 'Sizwe Zulu', verification_status: 'pending_verification', documents: requiredDocs });

function mockUsersApi() {
  const urls: string[] = [];
  const bodies: { method: string; url: string; body: unknown }[] = [];
  const record = ({ url, method, init }: { url: string; method: string; init?: RequestInit }) =>
    bodies.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
  const fetch = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/user/getList': ({ url }) => {
      urls.push(url);
      const page = new URL(url, 'http://x').searchParams.get('page') ?? '1';
      const data = page === '1' ? [naledi, thabo, boss, sizwe] : [row({ username: 'zanele', full_name: 'Zanele Khumalo' })];
      return jsonResponse({ success: true, data, meta: { total: 28, page: Number(page), limit: 25, counts } });
    },
    'PUT /api/user/sizwe/verification': (request) => {
      record(request);
      return ok({ ...sizwe, verification_status: 'verified' }, 'User verified');
    },
    'PUT /api/user/naledi/verification': (request) => {
      record(request);
      return ok({ ...naledi, verification_status: 'rejected' }, 'User rejected');
    },
    [`DELETE /api/user/delete/${thabo.id}`]: (request) => {
      record(request);
      return ok(null, 'User deleted');
    },
    'PUT /api/user/update/host_thabo': (request) => {
      record(request);
      return jsonResponse({ success: false, message: 'An account with this email already exists', errors: { email: 'An account with this email already exists' } }, 409);
    },
    'POST /api/user/create': (request) => {
      record(request);
      return jsonResponse({ success: true, data: makeUser({ username: 'lerato', verification_status: 'pending_upload' }) }, 201);
    },
  });
  return { urls, bodies, fetch };
}

describe('Users tab', () => {
  it('lists users with counters, pages, searches and filters on the server', async () => {
    signIn(adminUser);
    const { urls } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });

    const rows = await screen.findAllByTestId('user-row');
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByText('Naledi Dlamini')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Pending verification')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: 'Verify naledi' })).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Verify/ })).not.toBeInTheDocument();
    // Admins cannot be deleted.
    expect(within(rows[1]!).getByRole('button', { name: 'Delete host_thabo' })).toBeInTheDocument();
    expect(within(rows[2]!).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    const counters = screen.getByLabelText('User counters');
    expect(within(counters).getByText('30')).toBeInTheDocument();
    expect(within(counters).getByText('Hosts').nextSibling).toHaveTextContent('9');
    expect(screen.getByText('28 users · page 1 of 2')).toBeInTheDocument();
    expect(urls[0]).toContain('page=1');
    expect(urls[0]).toContain('limit=25');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Zanele Khumalo')).toBeInTheDocument());
    expect(urls.at(-1)).toContain('page=2');

    await user.selectOptions(screen.getByLabelText('Status'), 'pending_verification');
    await waitFor(() => expect(urls.at(-1)).toContain('status=pending_verification'));
    expect(urls.at(-1)).toContain('page=1');
    await user.selectOptions(screen.getByLabelText('Role'), 'host');
    await waitFor(() => expect(urls.at(-1)).toContain('role=host'));
    await user.type(screen.getByLabelText('Search users'), 'NALEDI');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)).toContain('search=NALEDI'));
  });

  it('keeps the search, the filters and the page in the URL, so a reload shows the same users', async () => {
    signIn(adminUser);
    const { urls } = mockUsersApi();
    const first = renderApp({ path: '/admin?tab=users' });
    await screen.findAllByTestId('user-row');
    await first.user.selectOptions(screen.getByLabelText('Role'), 'customer');
    await first.user.type(screen.getByLabelText('Search users'), 'naledi');
    await first.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?tab=users&role=customer&q=naledi'));
    await first.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(first.router.state.location.search).toBe('?tab=users&role=customer&q=naledi&page=2'));
    const url = `/admin${first.router.state.location.search}`;
    first.unmount();

    // A reload at that address: the same request, and the controls show it.
    urls.length = 0;
    renderApp({ path: url });
    await screen.findAllByTestId('user-row');
    expect(Object.fromEntries(new URL(urls[0]!, 'http://x').searchParams)).toEqual({ page: '2', limit: '25', search: 'naledi', role: 'customer' });
    expect(screen.getByLabelText('Search users')).toHaveValue('naledi');
    expect(screen.getByLabelText('Role')).toHaveValue('customer');
    expect(screen.getByLabelText('Status')).toHaveValue('');
    expect(screen.getByText('28 users · page 2 of 2')).toBeInTheDocument();
  });

  it('verifies a pending user with the required documents, after confirmation', async () => {
    signIn(adminUser);
    const { bodies, urls } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Verify sizwe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Verify this user?' });
    expect(dialog).toHaveTextContent('Sizwe Zulu (@sizwe) gets full access');
    expect(bodies).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Verify user' }));
    expect(await screen.findByText('User verified')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'PUT', url: '/api/user/sizwe/verification', body: { verification_status: 'verified' } });
    await waitFor(() => expect(urls.length).toBeGreaterThan(1));
  });

  it('disables Verify for a user without the required documents, naming them beside it (decision 033)', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    const verify = await screen.findByRole('button', { name: 'Verify naledi' });
    expect(verify).toBeDisabled();
    const reason = "Cannot verify: missing ID Document, Driver's License and Bank Confirmation Letter.";
    expect(verify).toHaveAccessibleDescription(reason);
    const nalediRow = screen.getAllByTestId('user-row')[0]!;
    expect(within(nalediRow).getByText(reason)).toBeVisible();
    await user.click(verify);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(bodies).toHaveLength(0);
  });

  it('rejects with a reason the user is told, and requires it', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Reject naledi' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject verification' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject user' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give a reason');
    expect(bodies).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Reason (required)'), 'The ID photo is blurry');
    await user.click(within(dialog).getByRole('button', { name: 'Reject user' }));
    expect(await screen.findByText('User rejected')).toBeInTheDocument();
    expect(bodies[0]!.body).toEqual({ verification_status: 'rejected', notes: 'The ID photo is blurry' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the server message when verification fails', async () => {
    signIn(adminUser);
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/user/getList': jsonResponse({ success: true, data: [sizwe], meta: { total: 1, page: 1, limit: 25, counts } }),
      'PUT /api/user/sizwe/verification': jsonResponse({ success: false, message: 'Only pending users can be verified or rejected' }, 409),
    });
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Verify sizwe' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Verify this user?' })).getByRole('button', { name: 'Verify user' }));
    expect(await screen.findByText('Verification Failed')).toBeInTheDocument();
    expect(screen.getByText('Only pending users can be verified or rejected')).toBeInTheDocument();
  });

  it('deletes a non-admin after confirmation', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Delete host_thabo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this user?' });
    expect(bodies).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete user' }));
    expect(await screen.findByText('User deleted')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'DELETE' });
  });

  it('adds a user, who starts with documents needed', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Add User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add User' });
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('Username is required')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Username'), 'lerato');
    await user.type(within(dialog).getByLabelText('Email'), 'lerato@example.co.za');
    await user.type(within(dialog).getByLabelText('Full name'), 'Lerato Molefe');
    await user.type(within(dialog).getByLabelText('Password'), 'Secret@123');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('User created')).toBeInTheDocument();
    expect(bodies[0]!.body).toEqual({ username: 'lerato', email: 'lerato@example.co.za', name: 'Lerato Molefe', password: 'Secret@123' });
  });

  it('lists the four documents in Manage Docs and warns when there are none', async () => {
    signIn(adminUser);
    mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Manage Docs of naledi' }));
    const dialog = await screen.findByRole('dialog', { name: 'User Documents' });
    for (const label of ['ID Document', "Driver's License", 'Proof of Address', 'Bank Confirmation Letter']) {
      expect(within(dialog).getByText(label)).toBeInTheDocument();
    }
    expect(within(dialog).getAllByText('Not Uploaded')).toHaveLength(4);
    expect(within(dialog).getAllByText('Required for verification')).toHaveLength(3);
    expect(within(dialog).getByText('Optional')).toBeInTheDocument();
    // What is missing, and Verify disabled with it as the reason.
    expect(within(dialog).getByText('Not ready to verify')).toBeVisible();
    const verify = within(dialog).getByRole('button', { name: 'Verify naledi' });
    expect(verify).toBeDisabled();
    expect(verify).toHaveAccessibleDescription("Cannot verify: missing ID Document, Driver's License and Bank Confirmation Letter.");
    await user.click(within(dialog).getByRole('button', { name: 'Download all' }));
    expect(await screen.findByText('No Documents Found')).toBeInTheDocument();
  });

  it('verifies from Manage Docs once the required documents are in, after confirmation', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Manage Docs of sizwe' }));
    const docs = await screen.findByRole('dialog', { name: 'User Documents' });
    expect(within(docs).getByText('Ready to verify')).toBeVisible();
    expect(within(docs).getAllByText('Uploaded')).toHaveLength(3);
    await user.click(within(docs).getByRole('button', { name: 'Verify sizwe' }));
    const confirm = await screen.findByRole('dialog', { name: 'Verify this user?' });
    expect(screen.queryByRole('dialog', { name: 'User Documents' })).not.toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Verify user' }));
    expect(await screen.findByText('User verified')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ url: '/api/user/sizwe/verification', body: { verification_status: 'verified' } });
  });

  it('edits profile fields and role, and shows the server message on failure', async () => {
    signIn(adminUser);
    const { bodies } = mockUsersApi();
    const { user } = renderApp({ path: '/admin?tab=users' });
    await user.click(await screen.findByRole('button', { name: 'Edit host_thabo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit User' });
    expect(within(dialog).getByLabelText('Full name')).toHaveValue('Thabo Mokoena');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText('Email'), 'taken@example.co.za');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'customer');
    await user.click(within(dialog).getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Update Failed')).toBeInTheDocument();
    expect(within(dialog).getByText('An account with this email already exists')).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ method: 'PUT', body: { full_name: 'Thabo Mokoena', email: 'taken@example.co.za', role: 'customer' } });
  });
});
