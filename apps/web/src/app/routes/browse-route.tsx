// /cars: the browse page with the renter's favourites (the favourites feature) handed to the
// cars feature's hearts and Favourites chip.
import { BrowsePage } from '@/features/cars/components/browse-page';
import { FavouritesProvider } from '@/features/cars/components/favourites-context';
import { useFavourites } from '@/features/favourites/hooks/use-favourites';

export function BrowseRoute() {
  const favourites = useFavourites();
  return (
    <FavouritesProvider value={favourites}>
      <BrowsePage />
    </FavouritesProvider>
  );
}
