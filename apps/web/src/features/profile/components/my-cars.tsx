// The host's "My Cars" grid on the profile: the first page of their cars (48 at most), each card
// linking to the car's page, and a link to the host dashboard to manage them.
import { type Car } from '@karoo/shared';
import { Car as CarIcon, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { formatRand } from '@/lib/format';
import { PATHS } from '@/lib/routes';

function CarDetail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className="truncate text-sm font-medium text-stone-900">{value || '—'}</dd>
    </div>
  );
}

function MyCarCard({ car }: { car: Car }) {
  const name = `${car.car_make} ${car.car_model}`;
  return (
    <li>
      <Link
        to={`/cars/${encodeURIComponent(car.car_username)}`}
        className="block h-full rounded-xl border border-stone-200 bg-white p-4 transition-colors hover:border-stone-300 hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <div className="flex items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 className="truncate text-sm font-semibold text-stone-900">{name}</h3>
            <p className="truncate text-xs text-stone-500">{car.car_username}</p>
          </div>
          <Badge tone={car.isRented ? 'warning' : 'success'}>{car.isRented ? 'Rented' : 'Available'}</Badge>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-3 gap-y-2">
          <CarDetail label="Type" value={car.car_type} />
          <CarDetail label="Colour" value={car.car_color} />
          <CarDetail label="Plate" value={car.car_plate_number ?? ''} />
          <CarDetail label="Per day" value={formatRand(Number(car.car_rent_price) || 0)} />
        </dl>
      </Link>
    </li>
  );
}

export function MyCars({ cars }: { cars: Car[] }) {
  return (
    <Card>
      <CardHeader
        title="My Cars"
        as="h2"
        icon={<CarIcon className="size-5" aria-hidden="true" />}
        actions={
          <Link
            to={PATHS.hostDashboard}
            className="inline-flex items-center gap-1 rounded-lg text-sm font-semibold text-brand-600 hover:text-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            Manage Cars
            <ChevronRight className="size-4" aria-hidden="true" />
          </Link>
        }
      />
      <ul className="grid gap-3 p-5 sm:grid-cols-2 sm:p-6">
        {cars.map((car) => (
          <MyCarCard key={car.id} car={car} />
        ))}
      </ul>
    </Card>
  );
}
