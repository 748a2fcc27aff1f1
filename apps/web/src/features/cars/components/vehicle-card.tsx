// A car in the browse results (document 2, vehicle card): its first photo, heart, name, location,
// rating, price per day, up to 3 specification chips, Map and Book buttons, and the badges of what is
// true of it (Instant: confirmed at once; Insured: cover in the price; decision 056).
// It draws a CarCard (GET /car/getCarList?fields=card, decision 046): only what it shows.
import { cardPhotoSources, photoSources, type Car, type CarCard, type PricingSettings } from '@karoo/shared';
import { clsx } from 'clsx';
import { BadgeCheck, CarFront, MapPin, Shield, Star, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses, Button } from '@/components/ui/button';
import { formatRand, formatRating, hasRating } from '@/lib/format';
import { pathWithTrip, type TripDates } from '@/lib/trip-dates';
import { cardTripPrice } from '../utils/card-trip-price';
import { capitalise } from '../utils/car-display';
import { FavouriteButton } from './favourite-button';

const BADGE_STYLE = {
  Instant: { icon: Zap, className: 'bg-white/95 text-emerald-700' },
  Insured: { icon: Shield, className: 'bg-white/95 text-sky-700' },
} as const;

export function detailPath(car: Pick<Car, 'car_username'>): string {
  return `/cars/${encodeURIComponent(car.car_username)}`;
}

/** The card's specification chips: transmission, fuel and seats. */
export function cardChips(car: Pick<CarCard, 'transmission' | 'fuel_type' | 'seats'>): string[] {
  return [car.transmission ? capitalise(car.transmission) : null, car.fuel_type ? capitalise(car.fuel_type) : null, car.seats ? `${car.seats} seats` : null].filter(
    (chip): chip is string => !!chip,
  );
}

/**
 * The card's photo in the size the card is drawn (AVIF or WebP where the browser takes them, the
 * JPEG otherwise), or a neutral placeholder without one.
 */
export function CardPhotoImage({ photo, alt, priority = false, sizes }: { photo: CarCard['photo']; alt: string; priority?: boolean; sizes: string }) {
  if (!photo) {
    return (
      <div className="flex size-full items-center justify-center bg-stone-100 text-stone-300" role="img" aria-label={`${alt}, no photo yet`}>
        <CarFront className="size-16" aria-hidden="true" />
      </div>
    );
  }
  const sources = photoSources(cardPhotoSources(photo));
  return (
    <picture>
      {sources.avif ? <source type="image/avif" srcSet={sources.avif} sizes={sizes} /> : null}
      {sources.webp ? <source type="image/webp" srcSet={sources.webp} sizes={sizes} /> : null}
      <img
        src={sources.src}
        srcSet={sources.jpeg || undefined}
        sizes={sources.jpeg ? sizes : undefined}
        alt={alt}
        width={photo.width ?? 800}
        height={photo.height ?? 600}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        className="size-full bg-stone-100 object-cover"
      />
    </picture>
  );
}

export interface VehicleCardProps {
  car: CarCard;
  layout?: 'grid' | 'list';
  onShowOnMap?: (car: CarCard) => void;
  /** Above the fold on most screens: its photo loads at once (the page's largest paint). */
  priority?: boolean;
  /** The dates searched on /cars: the card says the trip's total and its links carry them to the car page. */
  trip?: TripDates | null;
  /** The platform's fees, for the trip's total (the booking panel's settings). */
  settings?: PricingSettings | null;
}

export function VehicleCard({ car, layout = 'grid', onShowOnMap, priority = false, trip = null, settings = null }: VehicleCardProps) {
  const name = car.title;
  const badges = car.badges;
  const chips = cardChips(car);
  const rated = hasRating(car.rating, car.reviews);
  const isList = layout === 'list';
  const hasPosition = car.latitude != null && car.longitude != null;
  const href = pathWithTrip(detailPath(car), trip);
  const tripPrice = trip && settings ? cardTripPrice(car, trip, settings) : null;

  return (
    <article
      aria-label={name}
      data-testid="vehicle-card"
      className={clsx(
        'group relative flex overflow-hidden rounded-2xl border border-stone-200/80 bg-white shadow-card transition hover:shadow-pop',
        isList ? 'flex-col sm:flex-row' : 'flex-col',
      )}
    >
      <div className={clsx('relative shrink-0', isList ? 'aspect-[4/3] sm:aspect-auto sm:w-72' : 'aspect-[4/3]')}>
        <div className="size-full overflow-hidden">
          <CardPhotoImage photo={car.photo} alt={name} priority={priority} sizes={isList ? '(min-width: 640px) 288px, 100vw' : '(min-width: 1024px) 400px, (min-width: 640px) 50vw, calc(100vw - 2rem)'} />
        </div>
        <div className="absolute top-3 left-3 flex flex-wrap gap-1.5">
          {badges.map((badge) => {
            const { icon: Icon, className } = BADGE_STYLE[badge];
            return (
              <span key={badge} className={clsx('inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-[11px] font-semibold shadow-sm', className)}>
                <Icon className="size-3" aria-hidden="true" />
                {badge}
              </span>
            );
          })}
        </div>
        <FavouriteButton car={{ id: car.id, car_username: car.car_username, name }} className="absolute top-3 right-3" />
      </div>

      <div className={clsx('flex min-w-0 flex-1 flex-col gap-3 p-4', isList && 'sm:p-5')}>
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate text-base font-semibold text-stone-900">
              <Link to={href} className="focus-visible:outline-none focus-visible:underline">
                {name}
              </Link>
            </h3>
            <p className="mt-0.5 flex items-center gap-1 truncate text-sm text-stone-500">
              <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">
                {car.location}
                <span aria-hidden="true"> · </span>
                <span>{car.car_year}</span>
                <span aria-hidden="true"> · </span>
                <span data-testid="car-type">{car.car_type}</span>
              </span>
            </p>
          </div>
          {rated ? (
            <p className="flex shrink-0 items-center gap-1 text-sm font-semibold text-stone-800" aria-label={`Rated ${formatRating(car.rating)} out of 5`}>
              <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" />
              {formatRating(car.rating)}
              {car.reviews ? <span className="font-normal text-stone-500">({car.reviews})</span> : null}
            </p>
          ) : (
            <p className="flex shrink-0 items-center gap-1 text-sm font-semibold text-stone-600" aria-label="New: no reviews yet">
              <Star className="size-4 text-amber-400" aria-hidden="true" />
              {formatRating(null)}
            </p>
          )}
        </div>

        {chips.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label="Specifications">
            {chips.map((chip) => (
              <li key={chip} className="rounded-full bg-stone-100 px-2.5 py-1 text-xs font-medium text-stone-600">
                {chip}
              </li>
            ))}
          </ul>
        ) : null}

        <div className="mt-auto flex items-end justify-between gap-3 border-t border-stone-100 pt-3">
          <div>
            <p>
              <span className="text-lg font-bold text-stone-900" data-testid="car-price">
                {formatRand(car.price_per_day)}
              </span>
              <span className="text-sm text-stone-500"> / day</span>
            </p>
            {tripPrice ? (
              <p className="text-sm font-semibold text-stone-700" data-testid="card-trip-total" title="Rental and service fee for your dates; pickup and cover options are chosen on the car's page">
                {tripPrice.label}
              </p>
            ) : null}
          </div>
          <div className="flex items-center gap-2">
            {onShowOnMap && hasPosition ? (
              <Button variant="secondary" size="sm" onClick={() => onShowOnMap(car)} aria-label={`Show ${name} on the map`}>
                <MapPin className="size-4" aria-hidden="true" />
                Map
              </Button>
            ) : null}
            <Link to={href} className={buttonClasses({ size: 'sm' })} aria-label={`Book ${name}`}>
              Book
            </Link>
          </div>
        </div>
        {car.verified && car.host_name ? (
          <p className="-mt-1 flex items-center gap-1 text-xs text-stone-500">
            <BadgeCheck className="size-3.5 text-emerald-600" aria-hidden="true" />
            Hosted by {car.host_name}
          </p>
        ) : null}
      </div>
    </article>
  );
}

/**
 * A card's placeholder, line for line the height of a loaded card (title, place, one row of
 * specifications, price and buttons, host), so nothing moves when the cars arrive.
 */
export function VehicleCardSkeleton({ layout = 'grid', withTrip = false }: { layout?: 'grid' | 'list'; /** The card will say the trip's total (one more line). */ withTrip?: boolean }) {
  const isList = layout === 'list';
  return (
    <div
      aria-hidden="true"
      data-testid="vehicle-card-skeleton"
      className={clsx('flex animate-pulse overflow-hidden rounded-2xl border border-stone-200/80 bg-white', isList ? 'flex-col sm:flex-row' : 'flex-col')}
    >
      <div className={clsx('shrink-0 bg-stone-200', isList ? 'aspect-[4/3] sm:aspect-auto sm:h-48 sm:w-72' : 'aspect-[4/3]')} />
      <div className={clsx('flex min-w-0 flex-1 flex-col gap-3 p-4', isList && 'sm:p-5')}>
        <div>
          <div className="flex h-6 items-center">
            <div className="h-4 w-2/3 rounded bg-stone-200" />
          </div>
          <div className="mt-0.5 flex h-5 items-center">
            <div className="h-3 w-1/2 rounded bg-stone-100" />
          </div>
        </div>
        <div className="flex gap-1.5">
          <div className="h-6 w-16 rounded-full bg-stone-100" />
          <div className="h-6 w-14 rounded-full bg-stone-100" />
          <div className="h-6 w-16 rounded-full bg-stone-100" />
        </div>
        <div className="mt-auto flex items-end justify-between gap-3 border-t border-stone-100 pt-3">
          <div>
            <div className="h-7 w-20 rounded bg-stone-200" />
            {withTrip ? (
              <div className="flex h-5 items-center">
                <div className="h-3 w-28 rounded bg-stone-100" />
              </div>
            ) : null}
          </div>
          <div className="h-9 w-24 rounded-xl bg-stone-100" />
        </div>
        <div className="-mt-1 flex h-4 items-center">
          <div className="h-3 w-1/3 rounded bg-stone-100" />
        </div>
      </div>
    </div>
  );
}
