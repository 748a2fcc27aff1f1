import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeCar, makeReview, settingsAnswer } from '@/test/car-fixtures';
import { fail, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const car = makeCar({ rating: 4.6, totalReviews: 8, car_color: 'Red', car_plate_number: 'GP 12-34 ZA' });

function handlers(reviews = [makeReview()]) {
  return {
    [`GET /api/car/getCarDetails/${car.car_username}`]: ok(car),
    [`GET /api/car/getCarDetails/${car.id}`]: ok(car),
    [`GET /api/car/${car.car_username}/availability`]: ok([]),
    'GET /api/settings': ok(settingsAnswer),
    'GET /api/review/getAll': ok(reviews),
  };
}

describe('CarDetailPage', () => {
  it('shows the car: make and model, location, type, colour, plate, specifications, features, rules, host', async () => {
    mockFetch(handlers());
    renderApp({ path: `/car/${car.id}` });
    expect(await screen.findByRole('heading', { level: 1, name: /Toyota Corolla/ })).toBeInTheDocument();
    const overview = screen.getByRole('region', { name: 'Overview' });
    for (const text of ['Johannesburg', 'Sedan', 'Red', 'GP 12-34 ZA']) expect(within(overview).getByText(text)).toBeInTheDocument();
    expect(screen.getByText('(8 reviews)')).toBeInTheDocument();
    for (const heading of ['Description', 'Specifications', 'Features', 'Safety features', 'House rules']) {
      expect(screen.getByRole('heading', { name: heading })).toBeInTheDocument();
    }
    expect(screen.getByText('6.5L/100km')).toBeInTheDocument();
    expect(screen.getByText('No smoking')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Hosted by Thabo Mokoena' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show photo 2' })).toBeInTheDocument();
  });

  it('before a paid trip: the area, the plate "Shown after payment", the pickup options as areas with "exact address after payment"', async () => {
    const area = makeCar({
      car_plate_number: null,
      exact_place: false,
      pickup_location: 'Gardens, Cape Town',
      pickup_options: [{ id: 'pickup_home', name: "Host's home", address: 'Gardens, Cape Town', additional_fee: 0, type: 'standard', available_times: ['09:00'] }],
    });
    mockFetch({ ...handlers(), [`GET /api/car/getCarDetails/${area.car_username}`]: ok(area), [`GET /api/car/${area.car_username}/availability`]: ok([]) });
    renderApp({ path: `/cars/${area.car_username}` });
    const overview = await screen.findByRole('region', { name: 'Overview' });
    expect(within(overview).getByText('Gardens, Cape Town')).toBeInTheDocument();
    expect(within(overview).getByText('Shown after payment')).toBeInTheDocument();
    expect(within(overview).queryByText('CA 123-456')).not.toBeInTheDocument();
    expect(await screen.findByText('Areas only: exact address after payment.')).toBeInTheDocument();
  });

  it("shows on the host card how many of their paid trips the host cancelled", async () => {
    const counted = makeCar({ host: { ...car.host, cancellations: { paid_trips: 40, cancelled_by_host: 2 } } });
    mockFetch({ ...handlers(), [`GET /api/car/getCarDetails/${counted.car_username}`]: ok(counted) });
    renderApp({ path: `/cars/${counted.car_username}` });
    const hostCard = (await screen.findByRole('heading', { name: 'Hosted by Thabo Mokoena' })).closest('section')!;
    expect(within(hostCard).getByText('Cancelled 2 of 40 trips')).toBeInTheDocument();
  });

  it('averages the reviews to one decimal and shows 6, then all', async () => {
    const reviews = [5, 4, 4, 5, 3, 5, 4, 5].map((rating, i) => makeReview({ rating, comment: `Review number ${i + 1}` }));
    mockFetch(handlers(reviews));
    const { user } = renderApp({ path: `/cars/${car.car_username}` });
    expect(await screen.findByRole('heading', { name: '4.4 · 8 reviews' })).toBeInTheDocument();
    expect(screen.getAllByText(/^Review number/)).toHaveLength(6);
    await user.click(screen.getByRole('button', { name: 'Show all 8 reviews' }));
    expect(screen.getAllByText(/^Review number/)).toHaveLength(8);
  });

  it('says "New" for a car and a host without reviews, never the seed\u2019s 4.5', async () => {
    const fresh = makeCar({ rating: null, totalReviews: 0, host: { username: 'host_new', full_name: 'Nomsa Dlamini', rating: null, host_since: null } });
    mockFetch({
      [`GET /api/car/getCarDetails/${fresh.car_username}`]: ok(fresh),
      [`GET /api/car/${fresh.car_username}/availability`]: ok([]),
      'GET /api/settings': ok(settingsAnswer),
      'GET /api/review/getAll': ok([]),
    });
    renderApp({ path: `/cars/${fresh.car_username}` });
    expect(await screen.findByRole('heading', { level: 1, name: /Toyota Corolla/ })).toBeInTheDocument();
    expect(screen.getByText('(no reviews yet)').parentElement).toHaveTextContent(/^New\(no reviews yet\)$/);
    expect(screen.getByText(/New host/)).toBeInTheDocument();
    expect(screen.queryByText(/4\.5/)).not.toBeInTheDocument();
  });

  it('says Car Not Found for an unknown car and when the car cannot be loaded', async () => {
    mockFetch({ 'GET /api/car/getCarDetails/nope': fail(404, 'Car not found') });
    const missing = renderApp({ path: '/cars/nope' });
    expect(await screen.findByRole('heading', { name: 'Car Not Found' })).toBeInTheDocument();
    expect(screen.getByText("The car you're looking for doesn't exist or may have been removed.")).toBeInTheDocument();
    expect(screen.getByRole('main').querySelector('a[href="/cars"]')).toBeInTheDocument();
    missing.unmount();

    mockFetch({ 'GET /api/car/getCarDetails/broken': fail(500, 'Database unavailable') });
    renderApp({ path: '/car/broken' });
    expect(await screen.findByRole('heading', { name: 'Car Not Found' })).toBeInTheDocument();
  });
});
