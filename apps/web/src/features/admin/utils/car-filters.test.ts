import { describe, expect, it } from 'vitest';
import { carFiltersFrom, withCarFilters } from './car-filters';

describe('the Cars tab filters in the URL', () => {
  it('reads the search, status, verification and page, ignoring what the tab does not offer', () => {
    expect(carFiltersFrom(new URLSearchParams('tab=cars&q=+KR+42+&status=rented&verification=pending_verification&page=3'))).toEqual({
      page: 3,
      limit: 20,
      search: 'KR 42',
      status: 'rented',
      verification_status: 'pending_verification',
    });
    expect(carFiltersFrom(new URLSearchParams('tab=cars&q=++&status=offline&verification=waiting&page=-2'))).toEqual({
      page: 1,
      limit: 20,
      search: undefined,
      status: undefined,
      verification_status: undefined,
    });
    expect(carFiltersFrom(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('writes a change, keeps the tab, and starts a new filter at page 1', () => {
    const current = new URLSearchParams('tab=cars&q=polo&page=4');
    expect(withCarFilters(current, { verification_status: 'pending_verification' }).toString()).toBe('tab=cars&q=polo&verification=pending_verification');
    expect(withCarFilters(current, { search: undefined }).toString()).toBe('tab=cars');
    expect(withCarFilters(current, { page: 5 }).toString()).toBe('tab=cars&q=polo&page=5');
    expect(current.toString()).toBe('tab=cars&q=polo&page=4');
  });
});
