// The heart: saves or forgets a car in the renter's favourites (kept in this browser).
import { clsx } from 'clsx';
import { Heart } from 'lucide-react';
import { useFavouritesPort, type FavouriteRef } from './favourites-context';

export interface FavouriteButtonProps {
  car: FavouriteRef;
  /** 'overlay' sits on a photo; 'plain' sits on a white surface. */
  variant?: 'overlay' | 'plain';
  className?: string;
}

export function FavouriteButton({ car, variant = 'overlay', className }: FavouriteButtonProps) {
  const favourites = useFavouritesPort();
  if (!favourites) return null;
  const saved = favourites.isFavourite(car.id);
  return (
    <button
      type="button"
      aria-pressed={saved}
      aria-label={saved ? `Remove ${car.name} from favourites` : `Add ${car.name} to favourites`}
      title={saved ? 'Remove from favourites' : 'Save to favourites'}
      onClick={(event) => {
        event.preventDefault();
        event.stopPropagation();
        favourites.toggle({ id: car.id, car_username: car.car_username, name: car.name });
      }}
      className={clsx(
        'flex size-9 shrink-0 items-center justify-center rounded-full transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        variant === 'overlay' ? 'bg-white/90 shadow-sm backdrop-blur hover:scale-105 hover:bg-white' : 'border border-stone-200 bg-white hover:bg-stone-50',
        className,
      )}
    >
      <Heart className={clsx('size-[18px]', saved ? 'fill-brand-600 text-brand-600' : 'text-stone-700')} aria-hidden="true" />
    </button>
  );
}
