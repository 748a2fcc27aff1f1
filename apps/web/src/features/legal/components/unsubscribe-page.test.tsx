// The unsubscribe link of a marketing email (decision 049): one click, no sign-in. Opening the page
// posts the token once and says the person is unsubscribed; an unknown token shows the server's reason.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('UnsubscribePage', () => {
  it('records the withdrawal as it opens and says transactional mail still comes', async () => {
    const fetch = mockFetch({ 'POST /api/privacy/unsubscribe': ok(null, 'You are unsubscribed') });
    renderApp({ path: '/unsubscribe?token=tok_0123456789abcdef' });
    expect(await screen.findByRole('heading', { level: 1, name: 'You are unsubscribed' })).toBeInTheDocument();
    expect(screen.getByText(/bookings, payments and account still reach you/)).toBeInTheDocument();
    const posts = fetch.mock.calls.filter(([url, init]) => String(url).includes('/privacy/unsubscribe') && init?.method === 'POST');
    expect(posts.map(([url]) => String(url))).toEqual(['/api/privacy/unsubscribe?token=tok_0123456789abcdef']);
  });

  it('shows why when the link is not valid', async () => {
    mockFetch({ 'POST /api/privacy/unsubscribe': fail(404, 'This unsubscribe link is not valid.') });
    renderApp({ path: '/unsubscribe?token=not-a-real-token' });
    expect(await screen.findByRole('alert')).toHaveTextContent('This unsubscribe link is not valid.');
  });
});
