import { screen } from '@testing-library/react';
import { fireEvent } from '@testing-library/react';
import { REVIEW_COMMENT_MAX } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function completed() {
  return makeBooking({ id: 'b1', status: 'completed', payment_status: 'paid' });
}

async function openDialog(handlers: Parameters<typeof mockFetch>[0]) {
  signIn(makeUser());
  const fetchMock = mockFetch({ 'GET /api/booking/getAll': ok([completed()]), 'GET /api/review/getAll': ok([]), 'GET /api/notifications': ok([]), ...handlers });
  const view = renderApp({ path: '/my-bookings' });
  await view.user.click(await screen.findByRole('button', { name: 'Leave a review' }));
  return { ...view, fetchMock, dialog: screen.getByRole('dialog', { name: 'Leave a review' }) };
}

describe('ReviewDialog', () => {
  it('defaults to 5 stars, labels each rating and requires a comment', async () => {
    const { user, fetchMock } = await openDialog({});
    expect(screen.getByTestId('rating-label')).toHaveTextContent('Excellent');
    expect(screen.getByRole('radio', { name: /^5 stars/ })).toHaveAttribute('aria-checked', 'true');
    for (const [n, label] of [[1, 'Poor'], [2, 'Fair'], [3, 'Good'], [4, 'Very Good']] as const) {
      await user.click(screen.getByRole('radio', { name: new RegExp(`^${n} stars?`) }));
      expect(screen.getByTestId('rating-label')).toHaveTextContent(label);
    }
    await user.type(screen.getByLabelText('Your review'), '   ');
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(screen.getByText('Please write a comment about your trip.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/review/create')).toBe(false);
  });

  it('counts characters live and refuses more than 500', async () => {
    const { user } = await openDialog({});
    const box = screen.getByLabelText('Your review');
    await user.type(box, 'Great');
    expect(screen.getByText('5/500')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'x'.repeat(501) } });
    expect(screen.getByText('501/500')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Submit Review' })).toBeDisabled();
  });

  it('takes no more than the server\u2019s limit: 510 characters pasted keep the first 500, which the server accepts', async () => {
    const { user, fetchMock } = await openDialog({ 'POST /api/review/create': ok({}) });
    const box = screen.getByLabelText('Your review');
    expect(box).toHaveAttribute('maxlength', String(REVIEW_COMMENT_MAX));
    await user.click(box);
    await user.paste('y'.repeat(510));
    expect(box).toHaveValue('y'.repeat(REVIEW_COMMENT_MAX));
    expect(screen.getByText(`${REVIEW_COMMENT_MAX}/${REVIEW_COMMENT_MAX}`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Review Submitted')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/review/create');
    expect(JSON.parse(String(call?.[1]?.body)).comment).toHaveLength(REVIEW_COMMENT_MAX);
  });

  it('submits the rating and comment with the booking id', async () => {
    const { user, fetchMock } = await openDialog({ 'POST /api/review/create': ok({}) });
    await user.click(screen.getByRole('radio', { name: /^4 stars/ }));
    await user.type(screen.getByLabelText('Your review'), 'Lovely car');
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Review Submitted')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/review/create');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ car_username: 'volkswagen-polo-123456', booking_id: 'b1', rating: 4, comment: 'Lovely car' });
  });

  it('shows Review Failed when the server refuses', async () => {
    const { user } = await openDialog({ 'POST /api/review/create': fail(500, 'Boom') });
    await user.type(screen.getByLabelText('Your review'), 'Lovely car');
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Review Failed')).toBeInTheDocument();
    expect(screen.getByText('Failed to submit your review. Please try again.')).toBeInTheDocument();
  });
});

describe('ReviewDialog failures', () => {
  it.each([
    [409, 'You have already reviewed this booking.'],
    [503, 'Karoo is under maintenance. Please try again later.'],
    [429, 'Too many reviews. Try again at 14:05.'],
  ])('a %i shows the server\u2019s message, not the generic one', async (status, message) => {
    const { user } = await openDialog({ 'POST /api/review/create': fail(status, message) });
    await user.type(screen.getByLabelText('Your review'), 'Lovely car');
    await user.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Review Failed')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(screen.queryByText('Failed to submit your review. Please try again.')).not.toBeInTheDocument();
  });
});
