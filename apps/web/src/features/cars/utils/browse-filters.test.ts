import { describe, expect, it } from 'vitest';
import { clearedFilters, countActiveFilters, defaultFilters, filtersToParams, parseFilters, toCarListParams } from './browse-filters';

const TODAY = '2026-03-04';

describe('browse filters in the URL', () => {
  it('defaults: today and tomorrow, 10:00, prices 0-5000, relevance; none of it written to the URL', () => {
    const filters = parseFilters(new URLSearchParams(), TODAY);
    expect(filters).toMatchObject({ pickupDate: TODAY, returnDate: '2026-03-05', pickupTime: '10:00', returnTime: '10:00', minPrice: 0, maxPrice: 5000, sort: 'RELEVANCE', pickupType: 'ALL' });
    expect(filtersToParams(filters, TODAY).toString()).toBe('');
  });

  it('round-trips every filter', () => {
    const filters = {
      ...defaultFilters(TODAY),
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
    expect(parseFilters(filtersToParams(filters, TODAY), TODAY)).toEqual(filters);
  });

  it('ignores bad values: past dates, unknown sorts, a return before the pickup', () => {
    const filters = parseFilters(new URLSearchParams('start=2020-01-01&end=2020-01-02&sort=CHEAPEST&type=Spaceship&maxPrice=abc'), TODAY);
    expect(filters.pickupDate).toBe(TODAY);
    expect(filters.returnDate).toBe('2026-03-05');
    expect(filters.sort).toBe('RELEVANCE');
    expect(filters.type).toBe('');
    expect(filters.maxPrice).toBe(5000);
  });

  it('the map is only for the grid view', () => {
    expect(parseFilters(new URLSearchParams('view=list&map=1'), TODAY).showMap).toBe(false);
  });
});

describe('server query', () => {
  it('sends filters, sort and the date window; location only after more than 2 characters', () => {
    const base = defaultFilters(TODAY);
    expect(toCarListParams(base)).toEqual({ startDate: TODAY, endDate: '2026-03-05' });
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
    const base = defaultFilters(TODAY);
    expect(toCarListParams({ ...base, sort: 'DISTANCE' }).sort).toBeUndefined();
    expect(toCarListParams({ ...base, sort: 'DISTANCE', lat: -26.2, lng: 28 })).toMatchObject({ sort: 'DISTANCE', lat: -26.2, lng: 28 });
  });

  it('counts active filters and clears them but keeps the view', () => {
    const filters = { ...defaultFilters(TODAY), type: 'SUV', features: ['Bluetooth', 'Sunroof'], view: 'list' as const };
    expect(countActiveFilters(filters, TODAY)).toBe(3);
    const cleared = clearedFilters(filters, TODAY);
    expect(countActiveFilters(cleared, TODAY)).toBe(0);
    expect(cleared.view).toBe('list');
  });
});
