import { formatRand, type AdminAnalytics } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDate } from '@/lib/format';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { formatShare } from './analytics-tab';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const analytics: AdminAnalytics = {
  period: { from: '2026-09-01', to: '2026-11-23' },
  weeks: [
    { week_start: '2026-08-31', bookings: 3, revenue: 1250.5 },
    { week_start: '2026-09-07', bookings: 0, revenue: 0 },
    { week_start: '2026-09-14', bookings: 5, revenue: 2100.25 },
  ],
  average_trip_days: 3.456,
  average_rating: 4.27,
  conversion: 0.625,
  cancellation_rate: 0.125,
  rejection_rate: 1 / 3,
  bookings: 8,
  busiest_cities: [
    { city: 'Cape Town', bookings: 5 },
    { city: 'Durban', bookings: 3 },
  ],
  utilisation: 0.4219,
  platform_fee: 25,
};

function mockAnalyticsApi(data: AdminAnalytics = analytics) {
  const urls: string[] = [];
  mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/admin/analytics': ({ url }) => {
      urls.push(url);
      return jsonResponse({ success: true, data });
    },
  });
  return urls;
}

const value = (key: string) => within(screen.getByTestId(`analytics-card-${key}`)).getByTestId('analytics-card-value').textContent;

describe('formatShare', () => {
  it('shows a share as a percentage', () => {
    expect(formatShare(0.625)).toBe(`${(62.5).toLocaleString('en-ZA')}%`);
    expect(formatShare(0)).toBe('0%');
    expect(formatShare(1)).toBe('100%');
  });
});

describe('Analytics tab', () => {
  it('shows the figures, the weekly totals and the busiest cities from the answer', async () => {
    signIn(adminUser);
    mockAnalyticsApi();
    renderApp({ path: '/admin?tab=analytics' });

    await screen.findByTestId('analytics-card-trip');
    expect(screen.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
    expect(value('trip')).toBe(`${(3.5).toLocaleString('en-ZA')} days`);
    expect(value('rating')).toBe(`${(4.3).toLocaleString('en-ZA')} / 5`);
    expect(value('conversion')).toBe(formatShare(0.625));
    expect(value('cancellation')).toBe(formatShare(0.125));
    expect(value('rejection')).toBe(formatShare(1 / 3));
    expect(value('utilisation')).toBe(formatShare(0.4219));
    expect(screen.getByTestId('analytics-period')).toHaveTextContent(`${formatDate('2026-09-01')} to ${formatDate('2026-11-23')}`);
    expect(screen.getByTestId('analytics-weekly-totals').textContent).toBe(`8 bookings requested, ${formatRand(3350.75)} platform revenue`);
    expect(screen.getByTestId('analytics-platform-fee')).toHaveTextContent('25%');
    const cities = screen.getAllByTestId('analytics-city');
    expect(cities).toHaveLength(2);
    expect(cities[0]).toHaveTextContent('Cape Town');
    expect(cities[0]).toHaveTextContent('5 bookings');
    expect(cities[1]).toHaveTextContent('Durban');
  });

  it('shows "New" without reviews and no trips without completed bookings', async () => {
    signIn(adminUser);
    mockAnalyticsApi({ ...analytics, average_rating: null, average_trip_days: null, busiest_cities: [] });
    renderApp({ path: '/admin?tab=analytics' });
    await screen.findByTestId('analytics-card-rating');
    expect(value('rating')).toBe('New');
    expect(value('trip')).toBe('No trips');
    expect(screen.getByText('No bookings in this period.')).toBeInTheDocument();
  });

  it('the period sends from and to', async () => {
    signIn(adminUser);
    const urls = mockAnalyticsApi();
    const { user } = renderApp({ path: '/admin?tab=analytics' });
    await screen.findByTestId('analytics-card-trip');
    expect(urls[0]).not.toContain('from=');
    await user.type(screen.getByLabelText('From'), '2026-10-01');
    await user.type(screen.getByLabelText('To'), '2026-10-31');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(urls.some((u) => u.includes('from=2026-10-01') && u.includes('to=2026-10-31'))).toBe(true));
  });
});
