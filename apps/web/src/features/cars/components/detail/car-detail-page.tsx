// The vehicle detail page (document 2 section 2): photos, make and model, pickup location (its area
// until a trip is paid, decision 055), type, colour, plate (the host's and a paid renter's only), description, specifications, features, safety features, house rules, rating and
// reviews, the host, and the booking panel, which the route supplies (it belongs to the booking
// feature). A missing car, or one that fails to load, shows 'Car Not Found'.
import { DEFAULT_INSTANT_BOOKING, offersInstantBooking, PLATE_AFTER_PAYMENT, type Car } from '@karoo/shared';
import { BadgeCheck, CalendarDays, CalendarX, Car as CarIcon, CheckCircle2, ChevronLeft, Cog, DoorOpen, Fuel, Gauge, LockKeyhole, MapPin, Palette, ScrollText, ShieldCheck, Star, Users, Zap } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { buttonClasses, ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate, formatRand, formatRating, hasRating, initialOf } from '@/lib/format';
import { useInstantBookingAllowed } from '@/lib/queries/settings';
import { PATHS } from '@/lib/routes';
import { useCar } from '../../api/get-car';
import { useStickyTop } from '../../hooks/use-sticky-top';
import { capitalise, carBadges, carImages, carTitle, hostCancellationsText } from '../../utils/car-display';
import { FavouriteButton } from '../favourite-button';
import { CarInstantBooking } from './car-instant-booking';
import { CarReviews } from './car-reviews';
import { CarTripRules } from './car-trip-rules';
import { CarTripTerms } from './car-trip-terms';
import { Gallery } from '@/components/ui/gallery';

export interface CarDetailPageProps {
  /** The booking panel for this car (from the booking feature). */
  renderBookingPanel?: (car: Car) => ReactNode;
}

export function CarNotFound() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="max-w-md text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-stone-100 text-stone-500">
          <CarIcon className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">Car Not Found</h1>
        <p className="mt-3 text-stone-600">The car you&apos;re looking for doesn&apos;t exist or may have been removed.</p>
        <ButtonLink to={PATHS.cars} className="mt-8">
          Browse Vehicles
        </ButtonLink>
      </div>
    </div>
  );
}

function SpecItem({ icon, label, value, wrap = false }: { icon: ReactNode; label: string; value: ReactNode; /** Let the value take two lines. */ wrap?: boolean }) {
  return (
    // Only <dt> and <dd> may sit in a <dl>'s group: the icon is part of the term, laid out (display:
    // contents) as the grid's first column.
    <div className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 rounded-xl border border-stone-200 bg-white p-3">
      <dt className="contents text-xs text-stone-500">
        <span className="row-span-2 flex size-9 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-600">{icon}</span>
        {label}
      </dt>
      <dd className={`${wrap ? '' : 'truncate '}text-sm font-semibold text-stone-900`}>{value || '—'}</dd>
    </div>
  );
}

function ListSection({ title, items, icon }: { title: string; items: string[]; icon: ReactNode }) {
  if (!items.length) return null;
  return (
    <section className="border-t border-stone-200 pt-8">
      <h2 className="text-xl font-semibold text-stone-900">{title}</h2>
      <ul className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-2">
        {items.map((item) => (
          <li key={item} className="flex items-start gap-2 text-sm text-stone-700">
            <span className="mt-0.5 shrink-0 text-stone-500">{icon}</span>
            {item}
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The page's frame while the car loads, block for block where the loaded page puts them (back link,
 * title, photos, overview, booking panel): the content does not move when the car arrives.
 */
export function CarDetailSkeleton() {
  return (
    <div className="mx-auto min-h-dvh w-full max-w-7xl px-4 pt-6 pb-24 sm:px-6 lg:px-8 lg:pb-10" data-testid="car-detail-skeleton">
      <p role="status" className="flex h-5 items-center gap-2 text-sm text-stone-500">
        <Spinner className="size-4" /> Loading vehicle…
      </p>
      <div className="mt-4 flex animate-pulse items-start justify-between gap-4" aria-hidden="true">
        <div className="min-w-0 flex-1">
          <div className="flex h-8 items-center sm:h-9">
            <div className="h-6 w-64 max-w-full rounded bg-stone-200 sm:h-7" />
          </div>
          <div className="mt-2 flex h-5 items-center">
            <div className="h-3.5 w-48 rounded bg-stone-100" />
          </div>
        </div>
        <div className="size-11 shrink-0 rounded-full bg-stone-100" />
      </div>
      <div className="mt-5 grid animate-pulse gap-3 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]" aria-hidden="true">
        <div className="aspect-[16/10] rounded-2xl bg-stone-200 lg:aspect-auto lg:h-[440px]" />
        <div className="grid grid-cols-4 gap-3 lg:h-[440px] lg:grid-cols-2 lg:grid-rows-2">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="aspect-[4/3] rounded-xl bg-stone-100 lg:aspect-auto" />
          ))}
        </div>
      </div>
      <div className="mt-8 grid animate-pulse grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_400px]" aria-hidden="true">
        <div className="grid h-fit grid-cols-2 gap-3 sm:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <div key={i} className="h-[66px] rounded-xl border border-stone-200 bg-white" />
          ))}
        </div>
        <div className="hidden h-96 rounded-2xl bg-stone-100 lg:block" />
      </div>
    </div>
  );
}

export function CarDetailPage({ renderBookingPanel }: CarDetailPageProps) {
  const { id } = useParams();
  const { data: car, isPending, isError } = useCar(id);
  const instantAllowed = useInstantBookingAllowed();
  // 80 px: below the sticky site header (5rem, as lg:top-20 was).
  const sticky = useStickyTop<HTMLDivElement>(80);

  if (isPending) return <CarDetailSkeleton />;
  if (isError || !car) return <CarNotFound />;

  const name = carTitle(car);
  const spec = car.specifications;
  const hostCancellations = hostCancellationsText(car.host.cancellations);
  const badges = carBadges({ instant: offersInstantBooking(car.instant_booking ?? DEFAULT_INSTANT_BOOKING, instantAllowed), insurance_options: car.insurance_options });
  const description = car.description || car.car_description;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 pt-6 pb-24 sm:px-6 lg:px-8 lg:pb-10">
      <Link to={PATHS.cars} className="inline-flex items-center gap-1 rounded-lg text-sm font-medium text-stone-600 hover:text-stone-900">
        <ChevronLeft className="size-4" aria-hidden="true" /> Back to vehicles
      </Link>

      <div className="mt-4 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">
            {name} <span className="font-semibold text-stone-500">{car.car_year}</span>
          </h1>
          <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600">
            <span className="flex items-center gap-1 font-semibold text-stone-900">
              {hasRating(car.rating, car.totalReviews) ? (
                <>
                  <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" />
                  {formatRating(car.rating)}
                  <span className="font-normal text-stone-600">
                    ({car.totalReviews} {car.totalReviews === 1 ? 'review' : 'reviews'})
                  </span>
                </>
              ) : (
                <>
                  <Star className="size-4 text-amber-400" aria-hidden="true" />
                  {formatRating(null)}
                  <span className="font-normal text-stone-600">(no reviews yet)</span>
                </>
              )}
            </span>
            <span aria-hidden="true">·</span>
            <span className="flex items-center gap-1">
              <MapPin className="size-4" aria-hidden="true" /> {car.pickup_location}
            </span>
            {badges.map((badge) => (
              <span key={badge} className="rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700">
                {badge}
              </span>
            ))}
          </div>
        </div>
        <FavouriteButton car={{ id: car.id, car_username: car.car_username, name }} variant="plain" className="size-11" />
      </div>

      <div className="mt-5">
        <Gallery images={carImages(car)} photos={car.photos} alt={name} />
      </div>

      <div className="mt-8 grid grid-cols-1 gap-10 lg:grid-cols-[minmax(0,1fr)_400px]">
        <div className="min-w-0 space-y-8">
          <section aria-label="Overview">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              <SpecItem icon={<MapPin className="size-4" aria-hidden="true" />} label="Pickup location" value={car.pickup_location} />
              <SpecItem icon={<CarIcon className="size-4" aria-hidden="true" />} label="Type" value={car.car_type} />
              <SpecItem icon={<Palette className="size-4" aria-hidden="true" />} label="Colour" value={car.car_color} />
              {car.exact_place ? (
                <SpecItem icon={<ScrollText className="size-4" aria-hidden="true" />} label="Plate" value={car.car_plate_number} />
              ) : (
                // Until a trip is paid the place is an area and the plate is not shown (decision 055).
                <SpecItem icon={<LockKeyhole className="size-4" aria-hidden="true" />} label="Plate" value={PLATE_AFTER_PAYMENT} wrap />
              )}
            </dl>
          </section>

          <CarTripRules car={car} />
          <CarInstantBooking car={car} instantAllowed={instantAllowed} />
          <CarTripTerms car={car} />

          {description ? (
            <section className="border-t border-stone-200 pt-8">
              <h2 className="text-xl font-semibold text-stone-900">Description</h2>
              <p className="mt-3 leading-7 whitespace-pre-line text-stone-700">{description}</p>
            </section>
          ) : null}

          <section className="border-t border-stone-200 pt-8">
            <h2 className="text-xl font-semibold text-stone-900">Specifications</h2>
            <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
              <SpecItem icon={<Cog className="size-4" aria-hidden="true" />} label="Transmission" value={capitalise(spec.transmission || car.transmission)} />
              <SpecItem icon={<Fuel className="size-4" aria-hidden="true" />} label="Fuel type" value={spec.fuelType || car.fuel_type} />
              <SpecItem icon={<Users className="size-4" aria-hidden="true" />} label="Seats" value={spec.seats || car.seating_capacity} />
              <SpecItem icon={<DoorOpen className="size-4" aria-hidden="true" />} label="Doors" value={spec.doors} />
              <SpecItem icon={<Zap className="size-4" aria-hidden="true" />} label="Engine" value={spec.engine} />
              <SpecItem icon={<Gauge className="size-4" aria-hidden="true" />} label="Fuel consumption" value={spec.fuelConsumption} />
            </dl>
          </section>

          <ListSection title="Features" items={car.features} icon={<CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />} />
          <ListSection title="Safety features" items={car.safety} icon={<ShieldCheck className="size-4 text-sky-600" aria-hidden="true" />} />
          <ListSection title="House rules" items={car.rules} icon={<ScrollText className="size-4" aria-hidden="true" />} />

          <section className="border-t border-stone-200 pt-8" aria-labelledby="host-heading">
            <h2 id="host-heading" className="text-xl font-semibold text-stone-900">
              Hosted by {car.host.full_name || car.car_owner}
            </h2>
            <div className="mt-4 flex items-center gap-4">
              <span className="flex size-14 items-center justify-center rounded-full bg-brand-100 text-xl font-bold text-brand-700" aria-hidden="true">
                {initialOf(car.host.full_name || car.car_owner)}
              </span>
              <div className="text-sm text-stone-600">
                <p className="flex items-center gap-1 font-medium text-stone-900">
                  <BadgeCheck className="size-4 text-emerald-600" aria-hidden="true" /> Verified host · @{car.host.username || car.car_owner}
                </p>
                <p className="mt-0.5 flex flex-wrap items-center gap-x-3">
                  <span className="flex items-center gap-1">
                    {hasRating(car.host.rating) ? (
                      <>
                        <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" /> {formatRating(car.host.rating)} host rating
                      </>
                    ) : (
                      <>
                        <Star className="size-3.5 text-amber-400" aria-hidden="true" /> {formatRating(null)} host
                      </>
                    )}
                  </span>
                  {car.host.host_since ? (
                    <span className="flex items-center gap-1">
                      <CalendarDays className="size-3.5" aria-hidden="true" /> Hosting since {formatDate(car.host.host_since)}
                    </span>
                  ) : null}
                  {hostCancellations ? (
                    <span className="flex items-center gap-1" data-testid="host-cancellations">
                      <CalendarX className="size-3.5" aria-hidden="true" /> {hostCancellations}
                    </span>
                  ) : null}
                </p>
              </div>
            </div>
          </section>

          <CarReviews carUsername={car.car_username} />
        </div>

        <aside id="booking" className="min-w-0 scroll-mt-20" aria-label="Booking">
          {/* Sticky on desktop, never cut off: a panel taller than the window scrolls with the page
              until its end is in view (useStickyTop), with no scroll area of its own. */}
          <div ref={sticky.ref} className="lg:sticky" style={{ top: sticky.top }} data-testid="booking-panel-sticky">
            {renderBookingPanel ? renderBookingPanel(car) : null}
          </div>
        </aside>
      </div>

      {/* Phones: the price and a way to the booking panel stay in reach at the bottom. */}
      <div className="fixed inset-x-0 bottom-0 z-30 flex items-center justify-between gap-3 border-t border-stone-200 bg-white px-4 py-3 lg:hidden">
        <p>
          <span className="text-lg font-bold text-stone-900">{formatRand(car.car_rent_price)}</span>
          <span className="text-sm text-stone-500"> / day</span>
        </p>
        <a href="#booking" className={buttonClasses({ size: 'md' })}>
          Choose dates
        </a>
      </div>
    </div>
  );
}
