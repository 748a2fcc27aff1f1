// Karoo news (decision 049): the admin writes it and it is queued for those who opted in; the toast
// says for how many. An empty form is refused before anything is sent.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { SendNews } from './send-news';

describe('SendNews', () => {
  it('sends the subject and the news, and says how many people it was queued for', async () => {
    signIn(makeUser({ id: 'a1', username: 'admin', role: 'admin', user_type: 'admin' }));
    const fetch = mockFetch({ 'POST /api/admin/privacy/news': ok({ queued: 2 }) });
    const { user } = renderApp({ routes: [{ path: '/', element: <SendNews /> }] });
    await user.click(screen.getByRole('button', { name: 'Send to those who opted in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write a subject');
    expect(fetch).not.toHaveBeenCalledWith(expect.stringContaining('/privacy/news'), expect.anything());
    await user.type(screen.getByLabelText('Subject'), 'New cars in Durban');
    await user.type(screen.getByLabelText(/^News/), 'Twelve new cars this month.');
    await user.click(screen.getByRole('button', { name: 'Send to those who opted in' }));
    expect(await screen.findByText('For 2 people who opted in.')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([url]) => String(url).includes('/admin/privacy/news'));
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ subject: 'New cars in Durban', message: 'Twelve new cars this month.' });
  });
});
