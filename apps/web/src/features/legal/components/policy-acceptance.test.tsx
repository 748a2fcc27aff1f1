// A new version of the terms asks for acceptance at the next visit (decision 049): a signed-in person
// whose accepted version is older sees what changed in place of the page they opened, accepts, and
// the page follows; the acceptance names the versions in force. /terms stays readable meanwhile.
import { CURRENT_POLICIES, type PolicyState } from '@karoo/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const person = makeUser({ id: 'u1', username: 'sipho', full_name: 'Sipho Nkosi' });

function policies(termsAccepted: string): PolicyState[] {
  return [
    {
      kind: 'terms',
      name: 'Terms and Conditions',
      current_version: CURRENT_POLICIES.terms.version,
      effective: CURRENT_POLICIES.terms.effective,
      changes: ['Hosts may set a minimum trip length.'],
      accepted_version: termsAccepted,
      accepted_at: '2025-02-01T10:00:00.000Z',
      needs_acceptance: termsAccepted !== CURRENT_POLICIES.terms.version,
    },
    {
      kind: 'privacy',
      name: 'Privacy Notice',
      current_version: CURRENT_POLICIES.privacy.version,
      effective: CURRENT_POLICIES.privacy.effective,
      changes: [],
      accepted_version: CURRENT_POLICIES.privacy.version,
      accepted_at: '2025-02-01T10:00:00.000Z',
      needs_acceptance: false,
    },
  ];
}

describe('the terms acceptance screen', () => {
  it('stands in for the page until the person accepts the current versions, then the page shows', async () => {
    signIn(person);
    let accepted = '2024-06';
    const fetch = mockFetch({
      'GET /api/privacy/policies': () => ok(policies(accepted)),
      'POST /api/privacy/policies/accept': () => {
        accepted = CURRENT_POLICIES.terms.version;
        return ok(policies(accepted));
      },
      'GET /api/notifications': ok([]),
    });
    const { user } = renderApp({ path: '/profile/privacy' });
    expect(await screen.findByRole('heading', { level: 1, name: 'We updated our Terms and Conditions' })).toBeInTheDocument();
    expect(screen.getByText('Hosts may set a minimum trip length.')).toBeInTheDocument();
    expect(screen.getByText('You accepted version 2024-06 before.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read the full Terms and Conditions' })).toHaveAttribute('href', '/terms');

    await user.click(screen.getByRole('button', { name: 'I accept' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy and data' })).toBeInTheDocument();
    const accept = fetch.mock.calls.find(([url, init]) => String(url).includes('/privacy/policies/accept') && init?.method === 'POST');
    expect(JSON.parse(String(accept?.[1]?.body))).toEqual({ terms_version: CURRENT_POLICIES.terms.version, privacy_version: CURRENT_POLICIES.privacy.version });
  });

  it('is not shown to someone who accepted the current versions, nor on the terms page itself', async () => {
    signIn(person);
    mockFetch({ 'GET /api/privacy/policies': ok(policies('2024-06')) });
    renderApp({ path: '/terms' });
    expect(await screen.findByRole('heading', { level: 1, name: /Terms/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'I accept' })).not.toBeInTheDocument();
  });
});
