import { describe, expect, it } from 'vitest';
import { clearedFilters, countActiveFilters, defaultFilters, filtersToParams, parseFilters, toCarListParams } from './browse-filters';

const TODAY = '2026-03-04';

describe('browse filters in the URL', () => {
  it('defaults: no date window, 10:00, prices 0-5000, relevance; none of it written to the URL', () => {
    const filters = parseFilters(new URLSearchParams(), TODAY);
    expect(filters).toMatchObject({ pickupDate: '', returnDate: '', pickupTime: '10:00', returnTime: '10:00', minPrice: 0, maxPrice: 5000, sort: 'RELEVANCE', pickupType: 'ALL' });
    expect(filtersToParams(filters).toString()).toBe('');
  });

  it('a window the renter set is kept in the URL; a start alone returns the day after', () => {
    expect(parseFilters(new URLSearchParams('start=2026-04-10&end=2026-04-14'), TODAY)).toMatchObject({ pickupDate: '2026-04-10', returnDate: '2026-04-14' });
    expect(parseFilters(new URLSearchParams('start=2026-04-10'), TODAY)).toMatchObject({ pickupDate: '2026-04-10', returnDate: '2026-04-11' });
    expect(parseFilters(new URLSearchParams('end=2026-04-14'), TODAY)).toMatchObject({ pickupDate: '', returnDate: '' });
    expect(filtersToParams({ ...defaultFilters(), pickupDate: TODAY, returnDate: '2026-03-05' }).toString()).toBe('start=2026-03-04&end=2026-03-05');
  });

  it('round-trips every filter', () => {
    const filters = {
      ...defaultFilters(),
      search: 'polo',
      location: 'Cape Town',
      lat: -33.9249,
      lng: 18.4241,
      pickupDate: '2026-03-10',
      returnDate: '2026-03-12',
      pickupTime: '08:30',
      pickupType: 'HOST_DELIVERY' as const,
      sort: 'DISTANCE' as const,
      minPrice: 200,
      maxPrice: 1500,
      type: 'SUV',
      transmission: 'Manual',
      fuel: 'Diesel',
      features: ['Bluetooth', 'Sunroof'],
      view: 'grid' as const,
      showMap: true,
      favouritesOnly: true,
    };
    expect(parseFilters(filtersToParams(filters), TODAY)).toEqual(filters);
  });

  it('ignores bad values: past dates (no window then), unknown sorts, a return before the pickup', () => {
    const filters = parseFilters(new URLSearchParams('start=2020-01-01&end=2020-01-02&sort=CHEAPEST&type=Spaceship&maxPrice=abc'), TODAY);
    expect(filters.pickupDate).toBe('');
    expect(filters.returnDate).toBe('');
    expect(parseFilters(new URLSearchParams('start=2026-03-10&end=2026-03-08'), TODAY).returnDate).toBe('2026-03-11');
    expect(filters.sort).toBe('RELEVANCE');
    expect(filters.type).toBe('');
    expect(filters.maxPrice).toBe(5000);
  });

  it('the map is only for the grid view', () => {
    expect(parseFilters(new URLSearchParams('view=list&map=1'), TODAY).showMap).toBe(false);
  });
});

describe('server query', () => {
  it('sends no date window unless the renter set one (the landing page\u2019s count and /cars\u2019 agree)', () => {
    expect(toCarListParams(defaultFilters())).toEqual({});
    expect(toCarListParams(parseFilters(new URLSearchParams(), TODAY))).toEqual({});
    expect(toCarListParams({ ...defaultFilters(), pickupDate: '2026-04-10', returnDate: '2026-04-12' })).toEqual({ startDate: '2026-04-10', endDate: '2026-04-12' });
  });

  it('sends filters and sort; location only after more than 2 characters', () => {
    const base = defaultFilters();
    expect(toCarListParams({ ...base, location: 'Du' }).location).toBeUndefined();
    expect(toCarListParams({ ...base, location: 'Dur' }).location).toBe('Dur');
    expect(toCarListParams({ ...base, type: 'SUV', minPrice: 100, maxPrice: 900, features: ['Bluetooth', 'GPS Navigation'], pickupType: 'PICKUP_POINT', sort: 'PRICE_LOW' })).toMatchObject({
      type: 'SUV',
      minPrice: 100,
      maxPrice: 900,
      features: 'Bluetooth,GPS Navigation',
      pickupType: 'PICKUP_POINT',
      sort: 'PRICE_LOW',
    });
  });

  it('DISTANCE needs the renter position: without it the sort is left to the server default', () => {
    const base = defaultFilters();
    expect(toCarListParams({ ...base, sort: 'DISTANCE' }).sort).toBeUndefined();
    expect(toCarListParams({ ...base, sort: 'DISTANCE', lat: -26.2, lng: 28 })).toMatchObject({ sort: 'DISTANCE', lat: -26.2, lng: 28 });
  });

  it('counts active filters and clears them but keeps the view', () => {
    const filters = { ...defaultFilters(), type: 'SUV', features: ['Bluetooth', 'Sunroof'], view: 'list' as const, pickupDate: TODAY, returnDate: '2026-03-05' };
    expect(countActiveFilters(filters)).toBe(4);
    const cleared = clearedFilters(filters);
    expect(countActiveFilters(cleared)).toBe(0);
    expect(cleared.pickupDate).toBe('');
    expect(cleared.view).toBe('list');
  });
});
