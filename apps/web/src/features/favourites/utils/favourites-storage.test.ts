import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useFavourites } from '../hooks/use-favourites';
import { FAVOURITES_KEY, hasFavourite, readFavourites, toggleFavourite, writeFavourites } from './favourites-storage';

const car = { id: 'car-1', car_username: 'vw-polo-123456', name: 'Volkswagen Polo' };

describe('favourites storage', () => {
  it('stores { id, car_username, name, dateAdded } under karoo.favourites', () => {
    const now = new Date('2026-03-04T10:00:00Z');
    writeFavourites(toggleFavourite([], car, now));
    expect(JSON.parse(window.localStorage.getItem(FAVOURITES_KEY)!)).toEqual([{ ...car, dateAdded: '2026-03-04T10:00:00.000Z' }]);
    expect(readFavourites()).toHaveLength(1);
    expect(hasFavourite(readFavourites(), 'car-1')).toBe(true);
    expect(hasFavourite(readFavourites(), 'vw-polo-123456')).toBe(true);
  });

  it('toggling again removes the car', () => {
    const once = toggleFavourite([], car);
    expect(toggleFavourite(once, car)).toEqual([]);
  });

  it('reads damaged or foreign values as no favourites', () => {
    window.localStorage.setItem(FAVOURITES_KEY, '{not json');
    expect(readFavourites()).toEqual([]);
    window.localStorage.setItem(FAVOURITES_KEY, JSON.stringify([{ id: 1 }, 'x', { ...car, dateAdded: 'today' }]));
    expect(readFavourites()).toEqual([{ ...car, dateAdded: 'today' }]);
  });

  it('the hook shares one list and follows other tabs', () => {
    const first = renderHook(() => useFavourites());
    const second = renderHook(() => useFavourites());
    act(() => first.result.current.toggle(car));
    expect(second.result.current.isFavourite('car-1')).toBe(true);

    act(() => {
      window.localStorage.setItem(FAVOURITES_KEY, '[]');
      window.dispatchEvent(new StorageEvent('storage', { key: FAVOURITES_KEY }));
    });
    expect(first.result.current.items).toEqual([]);
  });
});
