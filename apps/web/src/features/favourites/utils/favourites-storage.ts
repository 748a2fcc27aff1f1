// Favourite cars, kept in this browser only (document 2: "favourites are stored locally"), under
// one localStorage key as a list of { id, car_username, name, dateAdded }. Reads never throw: a
// damaged or foreign value counts as no favourites.
export const FAVOURITES_KEY = 'karoo.favourites';

export interface Favourite {
  id: string;
  car_username: string;
  name: string;
  /** ISO timestamp of when it was saved. */
  dateAdded: string;
}

export type FavouriteCar = Pick<Favourite, 'id' | 'car_username' | 'name'>;

function isFavourite(value: unknown): value is Favourite {
  if (!value || typeof value !== 'object') return false;
  const item = value as Record<string, unknown>;
  return typeof item.id === 'string' && typeof item.car_username === 'string' && typeof item.name === 'string' && typeof item.dateAdded === 'string';
}

export function readFavourites(storage: Storage = window.localStorage): Favourite[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(FAVOURITES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isFavourite) : [];
  } catch {
    return [];
  }
}

export function writeFavourites(items: Favourite[], storage: Storage = window.localStorage): void {
  try {
    storage.setItem(FAVOURITES_KEY, JSON.stringify(items));
  } catch {
    // Storage full or disabled (private mode): favourites last for this page view only.
  }
}

/** Matches a saved favourite by id or car_username (links use either). */
export function hasFavourite(items: readonly Favourite[], key: string): boolean {
  return items.some((item) => item.id === key || item.car_username === key);
}

/** Adds the car when it is not saved, removes it when it is; returns the new list. */
export function toggleFavourite(items: readonly Favourite[], car: FavouriteCar, now: Date = new Date()): Favourite[] {
  if (hasFavourite(items, car.id)) return items.filter((item) => item.id !== car.id && item.car_username !== car.car_username);
  return [...items, { id: car.id, car_username: car.car_username, name: car.name, dateAdded: now.toISOString() }];
}
