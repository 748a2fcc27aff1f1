import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { carPage, makeCar } from '@/test/car-fixtures';
import { mockFetch } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('HomePage', () => {
  it('shows the live vehicle count, the 4.8 rating and 24/7 support, and the ways in', async () => {
    const fetchMock = mockFetch({ 'GET /api/car/getCarList': carPage([makeCar()], { total: 58, limit: 1 }) });
    renderApp({ path: '/' });
    expect(await screen.findByText('58')).toBeInTheDocument();
    expect(screen.getByTestId('average-rating')).toHaveTextContent('4.8');
    expect(screen.getByTestId('support')).toHaveTextContent('24/7');
    expect(new URL(fetchMock.mock.calls[0]![0] as string, 'http://x').searchParams.get('limit')).toBe('1');

    expect(screen.getByRole('link', { name: 'Browse Cars' })).toHaveAttribute('href', '/cars');
    expect(screen.getByRole('link', { name: 'Become a Host' })).toHaveAttribute('href', '/become-host');
    for (const heading of ['Why choose Karoo', 'How it works', 'Everything you need for the trip', 'Ready to hit the road?']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
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
