// One car of the host's fleet (document 2, host dashboard): photo, status and verification badges,
// the availability switch, the facts a host checks at a glance, the daily rate editor, and the
// 'Mark as Returned' and 'Manage Details' actions.
import { carName, type Car } from '@karoo/shared';
import { CalendarDays, CarFront, CircleAlert, Clock, Fuel, MapPin, Settings2, Star, Undo2, Users } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { PHOTO_SIZES, ResponsivePhoto } from '@/components/ui/responsive-photo';
import { AvailabilityToggle } from './availability-toggle';
import { PriceEditor } from './price-editor';
import { availabilityHint, canMarkReturned, canToggleAvailability, carStatusBadge, verificationBadge } from '../utils/fleet-rules';

export interface FleetCarCardProps {
  car: Car;
  statusBusy: boolean;
  priceBusy: boolean;
  onToggleAvailability: (car: Car, next: boolean) => void;
  onSavePrice: (car: Car, price: number) => void;
  onMarkReturned: (car: Car) => void;
  onManage: (car: Car) => void;
}

function Fact({ icon, label, value }: { icon: ReactNode; label: string; value: ReactNode }) {
  return (
    <div className="flex min-w-0 items-center gap-2">
      <dt className="flex shrink-0 text-stone-400">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="truncate text-sm text-stone-700">{value}</dd>
    </div>
  );
}

function capitalise(text: string): string {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

export function FleetCarCard({ car, statusBusy, priceBusy, onToggleAvailability, onSavePrice, onMarkReturned, onManage }: FleetCarCardProps) {
  const titleId = useId();
  const [imageFailed, setImageFailed] = useState(false);
  const name = carName(car);
  const status = carStatusBadge(car.status);
  const verification = verificationBadge(car);
  // The first photo with its sizes when the answer has them (photos[] follows images[]).
  const photo = car.images.length > 0 ? (car.photos?.[0] ?? car.images[0]) : car.car_images[0];
  const toggleable = canToggleAvailability(car);
  const returnable = canMarkReturned(car);
  const specs = car.specifications;

  return (
    <article
      aria-labelledby={titleId}
      data-testid={`fleet-car-${car.car_username}`}
      className="flex flex-col overflow-hidden rounded-2xl border border-stone-200/80 bg-white shadow-card"
    >
      <div className="relative aspect-[16/10] bg-stone-100">
        {photo && !imageFailed ? (
          <ResponsivePhoto photo={photo} alt={name} sizes={PHOTO_SIZES.fleetCard} className="size-full object-cover" onError={() => setImageFailed(true)} />
        ) : (
          <div className="flex size-full items-center justify-center text-stone-300" role="img" aria-label={`${name}: no photo`}>
            <CarFront className="size-14" aria-hidden="true" />
          </div>
        )}
        <div className="absolute top-3 left-3 flex flex-wrap gap-1.5">
          <Badge tone={status.tone} className="shadow-sm">
            {status.label}
          </Badge>
          {verification ? (
            <Badge tone={verification.tone} className="shadow-sm" icon={verification.tone === 'warning' ? <Clock className="size-3" aria-hidden="true" /> : undefined}>
              {verification.label}
            </Badge>
          ) : null}
        </div>
      </div>

      <div className="flex flex-1 flex-col gap-4 p-4 sm:p-5">
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={titleId} className="truncate text-base font-semibold text-stone-900" title={name}>
              {name}
            </h3>
            <p className="mt-0.5 flex items-center gap-1 text-sm text-stone-500">
              <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">{car.pickup_location || 'No location set'}</span>
            </p>
          </div>
          <p className="flex shrink-0 items-center gap-1 text-sm font-semibold text-stone-800">
            <Star className="size-4 fill-amber-400 text-amber-400" aria-hidden="true" />
            {car.rating != null ? (
              <>
                <span>
                  <span className="sr-only">Rating </span>
                  {car.rating.toFixed(1)}
                </span>
                <span className="font-normal text-stone-500">({car.totalReviews})</span>
              </>
            ) : (
              <span className="font-medium text-stone-500">New</span>
            )}
          </p>
        </div>

        {car.verification_status === 'rejected' ? (
          <div role="note" className="flex gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-900">
            <CircleAlert className="mt-0.5 size-4 shrink-0 text-red-600" aria-hidden="true" />
            <p>
              <span className="font-semibold">Not approved.</span> {car.admin_notes || 'Please review the car details and documents.'}
            </p>
          </div>
        ) : car.verification_status === 'pending_verification' ? (
          <p className="rounded-xl bg-amber-50 px-3 py-2 text-xs leading-5 text-amber-900">
            Our team is reviewing this car.{' '}
            {car.status === 'available' ? 'Renters will see it once it is verified.' : 'Switch on Available for rent to list it once it is verified.'}
          </p>
        ) : null}

        <dl className="grid grid-cols-2 gap-x-3 gap-y-2">
          <Fact icon={<Users className="size-4" aria-hidden="true" />} label="Seats" value={`${specs.seats} seats`} />
          <Fact icon={<Fuel className="size-4" aria-hidden="true" />} label="Fuel" value={specs.fuelType || car.fuel_type} />
          <Fact icon={<Settings2 className="size-4" aria-hidden="true" />} label="Transmission" value={capitalise(specs.transmission || car.transmission)} />
          <Fact icon={<CalendarDays className="size-4" aria-hidden="true" />} label="Year" value={car.car_year} />
          <div className="col-span-2 flex items-center gap-2">
            <dt className="text-xs font-medium text-stone-500">Plate</dt>
            <dd className="rounded-md border border-stone-300 bg-stone-50 px-2 py-0.5 font-mono text-xs font-semibold tracking-wide text-stone-800">
              {car.car_plate_number || '—'}
            </dd>
          </div>
        </dl>

        <AvailabilityToggle
          isAvailable={car.status === 'available'}
          stateLabel={carStatusBadge(car.status).label}
          disabled={!toggleable}
          busy={statusBusy}
          hint={availabilityHint(car)}
          onChange={(next) => onToggleAvailability(car, next)}
        />

        <PriceEditor key={car.car_rent_price} price={car.car_rent_price} busy={priceBusy} onSave={(price) => onSavePrice(car, price)} />

        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          {returnable ? (
            <Button className="min-w-fit flex-1" icon={<Undo2 className="size-4" aria-hidden="true" />} onClick={() => onMarkReturned(car)} aria-describedby={titleId}>
              Mark as Returned
            </Button>
          ) : null}
          <Button
            variant="secondary"
            className="min-w-fit flex-1"
            icon={<Settings2 className="size-4" aria-hidden="true" />}
            onClick={() => onManage(car)}
            aria-describedby={titleId}
          >
            Manage Details
          </Button>
        </div>
      </div>
    </article>
  );
}
