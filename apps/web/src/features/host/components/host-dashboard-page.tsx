// /host-dashboard (document 2, host dashboard): counters, a banner when booking requests wait, and
// the fleet grid of the signed-in host's cars with their actions, the Manage Details panel and the
// confirm-return modal.
import { carName, isHost, type Car } from '@karoo/shared';
import { clsx } from 'clsx';
import { AlertCircle, BellRing, CalendarCheck, CarFront, KeyRound, Plus, RefreshCw, Wallet } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatRand } from '@/lib/format';
import { useOwnerBookingStats } from '@/lib/queries/bookings';
import { PATHS } from '@/lib/routes';
import { useHostCars } from '../api/get-host-cars';
import { useReturnCar, type ReturnCarInput } from '../api/return-car';
import { useUpdateCarPrice } from '../api/update-car-price';
import { useUpdateCarStatus } from '../api/update-car-status';
import { hostStats } from '../utils/fleet-rules';
import { FleetCarCard } from './fleet-car-card';
import { ManageCarDialog } from './manage-car-dialog';
import { ReturnCarDialog } from './return-car-dialog';

function StatCard({
  icon,
  label,
  value,
  tone = 'stone',
  className,
}: {
  icon: ReactNode;
  label: string;
  value: ReactNode;
  tone?: 'stone' | 'brand' | 'emerald' | 'amber' | 'sky';
  className?: string;
}) {
  const tones = {
    stone: 'bg-stone-100 text-stone-600',
    brand: 'bg-brand-50 text-brand-600',
    emerald: 'bg-emerald-50 text-emerald-600',
    amber: 'bg-amber-50 text-amber-600',
    sky: 'bg-sky-50 text-sky-600',
  } as const;
  return (
    <div className={clsx('grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card', className)}>
      {/* Only <dt> and <dd> in a <dl>'s group: the icon is part of the term (display: contents). */}
      <dt className="contents text-xs leading-tight font-medium text-stone-500">
        <span className={`row-span-2 flex size-10 items-center justify-center rounded-xl ${tones[tone]}`}>{icon}</span>
        {label}
      </dt>
      <dd className="truncate text-xl font-bold tracking-tight text-stone-900">{value}</dd>
    </div>
  );
}

function FleetSkeleton() {
  return (
    <div className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3" role="status" aria-label="Loading your cars">
      {[0, 1, 2].map((i) => (
        <div key={i} className="overflow-hidden rounded-2xl border border-stone-200/80 bg-white shadow-card">
          <div className="aspect-[16/10] animate-pulse bg-stone-200" />
          <div className="space-y-3 p-5">
            <div className="h-4 w-2/3 animate-pulse rounded bg-stone-200" />
            <div className="h-3 w-1/3 animate-pulse rounded bg-stone-200" />
            <div className="h-10 animate-pulse rounded-xl bg-stone-100" />
            <div className="h-10 animate-pulse rounded-xl bg-stone-100" />
          </div>
        </div>
      ))}
    </div>
  );
}

export function HostDashboardPage() {
  const { user } = useAuth();
  const notify = useNotification();
  const username = user?.username ?? '';
  const cars = useHostCars(user?.username);
  const bookings = useOwnerBookingStats(!!user);
  const statusMutation = useUpdateCarStatus(username);
  const priceMutation = useUpdateCarPrice(username);
  const returnMutation = useReturnCar(username);
  const [managingId, setManagingId] = useState<string | null>(null);
  const [returningId, setReturningId] = useState<string | null>(null);

  if (!user) return null; // the route guard has sent guests to /login

  const fleet = cars.data ?? [];
  const stats = hostStats(fleet, bookings.data);
  const managing = fleet.find((car) => car.id === managingId) ?? null;
  const returning = fleet.find((car) => car.id === returningId) ?? null;

  const toggleAvailability = (car: Car, next: boolean) => {
    const status = next ? 'available' : 'offline';
    statusMutation.mutate(
      { carId: car.id, status },
      {
        onSuccess: () => notify.success('Car Status Updated', `Car is now set to ${status}.`, 4000),
        onError: (error) => notify.error('Status Update Failed', messageOf(error, 'Could not update car status. Please try again.')),
      },
    );
  };

  const savePrice = (car: Car, price: number) => {
    priceMutation.mutate(
      { carId: car.id, price },
      {
        onSuccess: (updated) => notify.success('Price Updated', `${carName(updated)} now rents for ${formatRand(updated.car_rent_price)} per day.`, 4000),
        onError: (error) => notify.error('Update Failed', messageOf(error, 'Failed to update car price. Please try again.')),
      },
    );
  };

  const confirmReturn = (car: Car, input: ReturnCarInput) => {
    returnMutation.mutate(
      { carId: car.id, input },
      {
        onSuccess: (updated) => {
          setReturningId(null);
          notify.success('Car Successfully Returned', `${carName(updated)} is available for renters again.`);
        },
        onError: (error) => notify.error('Return Failed', messageOf(error, 'Failed to return car. Please try again or contact support.')),
      },
    );
  };

  const busyCarId = (mutation: { isPending: boolean; variables?: { carId: string } }) => (mutation.isPending ? mutation.variables?.carId : undefined);
  const statusBusyId = busyCarId(statusMutation);
  const priceBusyId = busyCarId(priceMutation);
  const pending = stats.pendingRequests ?? 0;

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 sm:px-6 lg:px-8 lg:py-10">
      <header className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Host Dashboard</h1>
          <p className="mt-1 text-stone-600">Manage your fleet, prices and pickup details in one place.</p>
        </div>
        <ButtonLink to={PATHS.becomeHost} icon={<Plus className="size-4" aria-hidden="true" />}>
          {isHost(user) ? 'Add Car' : 'Become Host'}
        </ButtonLink>
      </header>

      <dl className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
        <StatCard icon={<CarFront className="size-5" aria-hidden="true" />} label="Total Cars" value={cars.isPending ? '–' : stats.cars} tone="brand" />
        <StatCard icon={<KeyRound className="size-5" aria-hidden="true" />} label="Currently Rented" value={cars.isPending ? '–' : stats.rented} tone="sky" />
        {stats.pendingRequests !== null ? (
          <StatCard icon={<BellRing className="size-5" aria-hidden="true" />} label="Pending Requests" value={stats.pendingRequests} tone="amber" />
        ) : null}
        {stats.confirmedBookings !== null ? (
          <StatCard icon={<CalendarCheck className="size-5" aria-hidden="true" />} label="Confirmed Bookings" value={stats.confirmedBookings} tone="emerald" />
        ) : null}
        {stats.totalEarnings !== null ? (
          <StatCard
            icon={<Wallet className="size-5" aria-hidden="true" />}
            label="Total Earnings"
            value={formatRand(stats.totalEarnings)}
            tone="emerald"
            className="col-span-2 md:col-span-1"
          />
        ) : null}
      </dl>

      {pending > 0 ? (
        <div className="mt-5 flex flex-col gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 sm:flex-row sm:items-center sm:justify-between" role="status">
          <p className="flex items-center gap-2 text-sm font-medium text-amber-900">
            <BellRing className="size-5 shrink-0 text-amber-600" aria-hidden="true" />
            You have {pending} pending booking {pending === 1 ? 'request' : 'requests'} waiting for your answer.
          </p>
          <Link to={PATHS.myBookings} className="text-sm font-semibold text-amber-900 underline underline-offset-2 hover:text-amber-700">
            Review requests
          </Link>
        </div>
      ) : null}

      <section aria-labelledby="fleet-heading" className="mt-8">
        <div className="mb-4 flex items-center justify-between gap-3">
          <h2 id="fleet-heading" className="text-lg font-semibold text-stone-900">
            Your Fleet{cars.data ? <span className="ml-2 text-sm font-medium text-stone-500">({fleet.length})</span> : null}
          </h2>
          {cars.data ? (
            <Button
              size="sm"
              variant="ghost"
              icon={<RefreshCw className={cars.isFetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden="true" />}
              onClick={() => void cars.refetch()}
              disabled={cars.isFetching}
            >
              Refresh
            </Button>
          ) : null}
        </div>

        {cars.isPending ? (
          <FleetSkeleton />
        ) : cars.isError ? (
          <Alert tone="danger" title="Your cars could not be loaded" role="alert">
            {isApiError(cars.error) ? cars.error.message : 'Please try again.'}{' '}
            <button type="button" className="font-semibold underline underline-offset-2" onClick={() => void cars.refetch()}>
              Try again
            </button>
          </Alert>
        ) : fleet.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-14 text-center">
            <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
              <CarFront className="size-7" aria-hidden="true" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-stone-900">No cars listed yet</h3>
            <p className="mx-auto mt-1 max-w-md text-sm text-stone-600">
              List your first car to start earning. It takes about 10 minutes, and our team verifies it before renters can book.
            </p>
            <ButtonLink to={PATHS.becomeHost} className="mt-6" icon={<Plus className="size-4" aria-hidden="true" />}>
              List Your First Car
            </ButtonLink>
          </div>
        ) : (
          <div className="grid gap-5 sm:grid-cols-2 xl:grid-cols-3">
            {fleet.map((car) => (
              <FleetCarCard
                key={car.id}
                car={car}
                statusBusy={statusBusyId === car.id}
                priceBusy={priceBusyId === car.id}
                onToggleAvailability={toggleAvailability}
                onSavePrice={savePrice}
                onMarkReturned={(c) => setReturningId(c.id)}
                onManage={(c) => setManagingId(c.id)}
              />
            ))}
          </div>
        )}

        {bookings.isError ? (
          <p className="mt-4 flex items-center gap-2 text-xs text-stone-500">
            <AlertCircle className="size-4" aria-hidden="true" /> Booking counters are unavailable right now.
          </p>
        ) : null}
      </section>

      <ManageCarDialog car={managing} username={username} onClose={() => setManagingId(null)} />
      <ReturnCarDialog car={returning} busy={returnMutation.isPending} onClose={() => setReturningId(null)} onConfirm={confirmReturn} />
    </div>
  );
}
