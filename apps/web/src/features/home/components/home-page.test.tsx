import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { carPage, makeCar } from '@/test/car-fixtures';
import { mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('HomePage', () => {
  it('shows the live vehicle count, the real average of every review and 24/7 support, and the ways in', async () => {
    const fetchMock = mockFetch({
      'GET /api/car/getCarList': carPage([makeCar()], { total: 58, limit: 1 }),
      'GET /api/review/getStats': ok({ average: 4.63, count: 41, by_rating: { 1: 0, 2: 1, 3: 2, 4: 8, 5: 30 } }),
    });
    renderApp({ path: '/' });
    expect(await screen.findByText('58')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('average-rating')).toHaveTextContent('4.6'));
    expect(screen.getByTestId('support')).toHaveTextContent('24/7');
    const carList = fetchMock.mock.calls.map(([url]) => new URL(url as string, 'http://x')).find((url) => url.pathname === '/api/car/getCarList')!;
    expect(carList.searchParams.get('limit')).toBe('1');
    expect([...carList.searchParams.keys()].sort()).toEqual(['limit']);
    const stats = fetchMock.mock.calls.map(([url]) => new URL(url as string, 'http://x')).find((url) => url.pathname === '/api/review/getStats')!;
    expect(stats.searchParams.get('car_username')).toBeNull();

    expect(screen.getByRole('link', { name: 'Browse Cars' })).toHaveAttribute('href', '/cars');
    expect(screen.getByRole('link', { name: 'Become a Host' })).toHaveAttribute('href', '/become-host');
    for (const heading of ['Why choose Karoo', 'How it works', 'Everything you need for the trip', 'Ready to hit the road?']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
  });

  it('says "New" for the average rating until the platform has a review, never a made-up 4.8', async () => {
    mockFetch({
      'GET /api/car/getCarList': carPage([], { total: 0, limit: 1 }),
      'GET /api/review/getStats': ok({ average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } }),
    });
    renderApp({ path: '/' });
    await waitFor(() => expect(screen.getByTestId('average-rating')).toHaveTextContent('New'));
    expect(screen.getByTestId('average-rating')).not.toHaveTextContent('4.8');
  });

  it('the hero search opens browse for a location', async () => {
    mockFetch({ 'GET /api/car/getCarList': carPage([], { total: 0 }) });
    const { user, router } = renderApp({ path: '/' });
    await user.type(screen.getByLabelText('Where do you want to pick up a car?'), 'Durban');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(router.state.location.pathname).toBe('/cars');
    expect(router.state.location.search).toBe('?location=Durban');
  });
});
