// The hearts on cards, the map panel and the detail page need the renter's favourites, which the
// favourites feature owns. Features do not import each other, so the route hands them in through
// this context (any object of this shape); without a provider the hearts are hidden.
import { createContext, useContext, type ReactNode } from 'react';

export interface FavouriteRef {
  id: string;
  car_username: string;
  name: string;
}

export interface FavouritesPort {
  items: readonly (FavouriteRef & { dateAdded: string })[];
  isFavourite: (idOrCarUsername: string) => boolean;
  toggle: (car: FavouriteRef) => void;
}

const FavouritesContext = createContext<FavouritesPort | null>(null);

export function FavouritesProvider({ value, children }: { value: FavouritesPort; children: ReactNode }) {
  return <FavouritesContext.Provider value={value}>{children}</FavouritesContext.Provider>;
}

export function useFavouritesPort(): FavouritesPort | null {
  return useContext(FavouritesContext);
}
