// The favourites list as React state shared by every heart on the page and kept in step across
// tabs (the storage event). One store for the whole app; components subscribe to it.
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { FAVOURITES_KEY, hasFavourite, readFavourites, toggleFavourite, writeFavourites, type Favourite, type FavouriteCar } from '../utils/favourites-storage';

const listeners = new Set<() => void>();
/** What the server renders: no favourites (they live in the browser). */
const SERVER_ITEMS: readonly Favourite[] = Object.freeze([]);
// Nothing stored reads as the server's list, the same array: a page hydrates with the server's
// snapshot, and a different first snapshot would re-render the whole route at once.
let cachedRaw: string | null = null;
let cachedItems = SERVER_ITEMS as Favourite[];

function snapshot(): Favourite[] {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(FAVOURITES_KEY);
  } catch {
    raw = null;
  }
  // Same text, same array: useSyncExternalStore needs a stable snapshot.
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedItems = readFavourites();
  }
  return cachedItems;
}

const serverSnapshot = () => SERVER_ITEMS as Favourite[];

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === FAVOURITES_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export interface FavouritesApi {
  items: Favourite[];
  isFavourite: (idOrCarUsername: string) => boolean;
  toggle: (car: FavouriteCar) => void;
}

export function useFavourites(): FavouritesApi {
  const items = useSyncExternalStore(subscribe, snapshot, serverSnapshot);
  const isFavourite = useCallback((key: string) => hasFavourite(items, key), [items]);
  const toggle = useCallback((car: FavouriteCar) => {
    writeFavourites(toggleFavourite(snapshot(), car));
    listeners.forEach((listener) => listener());
  }, []);
  return useMemo(() => ({ items, isFavourite, toggle }), [items, isFavourite, toggle]);
}
