import { describe, expect, it } from 'vitest';
import { isSameQuery, listStateFrom, withListState, type ListSpec } from './list-state';

/** The admin Cars tab's list: status and verification filters, sortable by car and price, 20 a page. */
const CARS: ListSpec = {
  filters: [
    { id: 'status', values: ['available', 'rented', 'maintenance'] },
    { id: 'verification', values: ['pending_verification', 'verified', 'rejected'] },
  ],
  sortable: ['car', 'price'],
  pageSize: 20,
};

describe("a list's view in the URL", () => {
  it('reads the search, the filters, the sort and the page, ignoring what the list does not offer', () => {
    expect(listStateFrom(new URLSearchParams('tab=cars&q=+KR+42+&status=rented&verification=pending_verification&sort=price&order=desc&page=3'), CARS)).toEqual({
      globalFilter: 'KR 42',
      columnFilters: [
        { id: 'status', value: 'rented' },
        { id: 'verification', value: 'pending_verification' },
      ],
      sorting: [{ id: 'price', desc: true }],
      pagination: { pageIndex: 2, pageSize: 20 },
    });
    expect(listStateFrom(new URLSearchParams('tab=cars&q=++&status=offline&verification=waiting&sort=owner&page=-2'), CARS)).toEqual({
      globalFilter: '',
      columnFilters: [],
      sorting: [],
      pagination: { pageIndex: 0, pageSize: 20 },
    });
    expect(listStateFrom(new URLSearchParams('page=1.5&sort=car'), CARS)).toMatchObject({ sorting: [{ id: 'car', desc: false }], pagination: { pageIndex: 0 } });
  });

  it('writes a state, keeping the other parameters and leaving out what is empty (page 1, no sort)', () => {
    const current = new URLSearchParams('tab=cars&q=polo&page=4');
    const state = listStateFrom(current, CARS);
    expect(withListState(current, { ...state, columnFilters: [{ id: 'verification', value: 'pending_verification' }] }, CARS).toString()).toBe(
      'tab=cars&q=polo&page=4&verification=pending_verification',
    );
    expect(withListState(current, { ...state, globalFilter: '  ', pagination: { pageIndex: 0, pageSize: 20 } }, CARS).toString()).toBe('tab=cars');
    expect(withListState(current, { ...state, sorting: [{ id: 'car', desc: false }] }, CARS).toString()).toBe('tab=cars&q=polo&page=4&sort=car&order=asc');
    expect(current.toString()).toBe('tab=cars&q=polo&page=4');
  });

  it('tells a new query (search, filter, sort) from another page of the same one', () => {
    const state = listStateFrom(new URLSearchParams('q=polo&status=rented&verification=verified&page=2'), CARS);
    expect(isSameQuery(state, { ...state, pagination: { pageIndex: 5, pageSize: 20 } })).toBe(true);
    expect(isSameQuery(state, { ...state, columnFilters: [...state.columnFilters].reverse() })).toBe(true);
    expect(isSameQuery(state, { ...state, globalFilter: 'golf' })).toBe(false);
    expect(isSameQuery(state, { ...state, columnFilters: [] })).toBe(false);
    expect(isSameQuery(state, { ...state, sorting: [{ id: 'price', desc: false }] })).toBe(false);
  });
});
