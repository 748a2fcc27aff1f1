// The admin panel's Cars tab (document 3, Cars; section 4, Car status in the admin panel): the car
// creator, counter cards (Total, Available, Rented, Maintenance, Pending verification: the admin
// overview's one aggregate, unverified cars included; Avg Rating is the average of every review,
// GET /review/getStats), a search (make, model, type, city or plate), status and verification
// filters and a sort, all in the URL (DataTable), and the table of document 3 paged on the server
// (GET /api/admin/cars): a table from 1280 px, a card per car below it, every action in reach at
// both. Clicking a car's photo opens its gallery. Actions: Verify (disabled with the reason beside
// it until the car can be, then confirmed) / Reject (notes required), the registration document's
// Verify / Reject while uploaded and not verified, Maintenance (hidden in maintenance, Back to
// available instead), Force Return for rented cars only, and Delete. The page on screen and the
// counters are refetched every 30 seconds.
import { ADMIN_CARS_PAGE_SIZE, CAR_VERIFICATION_STATUSES, type AdminCounters, type Car, type CarStatus, type CarVerificationStatus, type RegistrationDocument } from '@karoo/shared';
import { Car as CarIcon, CarFront, Check, Images, RotateCcw, Star, Trash2, Undo2, Wrench, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { listColumnHelper, type ListColumn } from '@/components/data-table/list-columns';
import { useListSearchParams } from '@/components/data-table/use-list-search-params';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Gallery } from '@/components/ui/gallery';
import { StatCard } from '@/components/ui/stat-card';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatRand } from '@/lib/format';
import { useReviewStats } from '@/lib/queries/reviews';
import { useAdminCars, useDeleteCar, useSetCarMaintenance, useVerifyRegistrationDocument } from '../api/admin-cars';
import { useAdminOverview } from '../api/get-admin-overview';
import { CarActionDialog, type CarDialogAction } from './car-action-dialog';
import { CarCreator } from './car-creator';
import { CarVerificationReason, CarVerifyAction } from './verify-action';

export const CAR_STATUS_LABELS: Record<CarStatus, string> = {
  available: 'Available',
  offline: 'Offline',
  active: 'Active',
  rented: 'Rented',
  maintenance: 'Maintenance',
};
const STATUS_TONES: Record<CarStatus, BadgeTone> = {
  available: 'success',
  offline: 'neutral',
  active: 'info',
  rented: 'brand',
  maintenance: 'warning',
};
const VERIFICATION_LABELS: Record<CarVerificationStatus, string> = {
  pending_verification: 'Pending verification',
  verified: 'Verified',
  rejected: 'Rejected',
};
const VERIFICATION_TONES: Record<CarVerificationStatus, BadgeTone> = {
  pending_verification: 'warning',
  verified: 'success',
  rejected: 'danger',
};

/** Document 3's status filter: All, Available, Rented, Maintenance. */
const CAR_FILTER_STATUSES = ['available', 'rented', 'maintenance'] as const satisfies readonly CarStatus[];
/** The columns the server sorts by (GET /admin/cars' sort); without one, newest listed first. */
const CAR_SORTS = ['car', 'price'] as const;

const COUNTERS: { label: string; key: keyof AdminCounters; tone: string }[] = [
  { label: 'Total', key: 'total_cars', tone: 'text-stone-900' },
  { label: 'Available', key: 'available_cars', tone: 'text-emerald-600' },
  { label: 'Rented', key: 'rented_cars', tone: 'text-brand-700' },
  { label: 'Maintenance', key: 'maintenance_cars', tone: 'text-amber-600' },
  { label: 'Pending verification', key: 'pending_car_verification', tone: 'text-sky-700' },
];

/** Avg Rating: the average of every review on Karoo, as the landing page shows it (decisions.md section 7). */
function AverageRating() {
  const stats = useReviewStats();
  const value =
    stats.data === undefined ? undefined : stats.data.count === 0 ? (
      '–'
    ) : (
      <span className="flex items-center gap-1">
        <Star className="size-5 fill-amber-400 text-amber-500" aria-hidden="true" />
        {stats.data.average.toFixed(1)}
      </span>
    );
  const note = stats.data ? (stats.data.count === 0 ? 'No reviews yet' : `${stats.data.count.toLocaleString('en-ZA')} ${stats.data.count === 1 ? 'review' : 'reviews'}`) : undefined;
  return <StatCard label="Avg Rating" tone="text-amber-600" value={value} note={note} />;
}

function documentState(document: RegistrationDocument | null | undefined): { label: string; tone: BadgeTone } {
  if (!document) return { label: 'Not uploaded', tone: 'neutral' };
  if (document.verified === true) return { label: 'Verified', tone: 'success' };
  if (document.verified === false) return { label: 'Rejected', tone: 'danger' };
  return { label: 'Awaiting review', tone: 'warning' };
}

/** What a car's buttons open: the tab's dialogs. */
interface CarRowActions {
  open: (target: { action: CarDialogAction; car: Car }) => void;
  view: (car: Car) => void;
  remove: (car: Car) => void;
}

/** The car's photo (opens the gallery) or a placeholder, and its name, plate and username. */
function CarDetails({ car, onView }: { car: Car; onView: (car: Car) => void }) {
  const name = `${car.car_year} ${car.car_make} ${car.car_model}`;
  const photos = car.images.length ? car.images : car.car_images;
  const photo = photos[0];
  return (
    <div className="flex items-center gap-3">
      {photo ? (
        <button
          type="button"
          onClick={() => onView(car)}
          className="relative size-14 shrink-0 overflow-hidden rounded-lg bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <img src={photo} alt={name} width={56} height={56} className="size-full object-cover" loading="lazy" />
          {photos.length > 1 ? (
            <span className="absolute right-0.5 bottom-0.5 flex items-center gap-0.5 rounded bg-stone-900/70 px-1 text-[10px] font-medium text-white">
              <Images className="size-3" aria-hidden="true" />
              {photos.length}
            </span>
          ) : null}
          <span className="sr-only">{photos.length > 1 ? ' photos: open the gallery' : ': open the photo'}</span>
        </button>
      ) : (
        <div className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-stone-100 text-stone-300" role="img" aria-label={`${name}, no photos yet`}>
          <CarFront className="size-6" aria-hidden="true" />
        </div>
      )}
      <div className="min-w-0">
        <p className="font-medium [overflow-wrap:anywhere] text-stone-900">{name}</p>
        <p className="font-mono text-xs text-stone-500">{car.car_plate_number}</p>
        <p className="text-xs [overflow-wrap:anywhere] text-stone-500">{car.car_username}</p>
      </div>
    </div>
  );
}

/** The registration document's state, and Verify / Reject while it waits for a decision. */
function RegistrationDocumentCell({ car, onReject }: { car: Car; onReject: () => void }) {
  const notify = useNotification();
  const documentVerification = useVerifyRegistrationDocument();
  const document = documentState(car.registration_document);
  const verify = async () => {
    try {
      await documentVerification.mutateAsync({ car, verified: true });
      notify.success('Registration document verified', `${car.car_username}: @${car.car_owner} is told.`);
    } catch (error) {
      notify.error('Car Verification Error', messageOf(error, 'An error occurred while updating car verification status.'));
    }
  };
  return (
    <>
      <Badge tone={document.tone}>{document.label}</Badge>
      {car.registration_document && car.registration_document.verified !== true ? (
        <div className="mt-1.5 flex flex-wrap gap-1.5">
          <Button size="sm" variant="success" icon={<Check className="size-4" aria-hidden="true" />} aria-label={`Verify document of ${car.car_username}`} onClick={() => void verify()}>
            Verify
          </Button>
          {car.registration_document.verified === null ? (
            <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject document of ${car.car_username}`} onClick={onReject}>
              Reject
            </Button>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

/** A car's actions: Verify and Reject, Maintenance (or Back to available), Force Return while rented, Delete. */
function CarActions({ car, actions }: { car: Car; actions: CarRowActions }) {
  const notify = useNotification();
  const maintenance = useSetCarMaintenance();
  const setMaintenance = async (on: boolean) => {
    try {
      await maintenance.mutateAsync({ car, maintenance: on });
      notify.success(on ? 'Car in maintenance' : 'Car available', `${car.car_username} is now ${on ? 'in maintenance' : 'available'}.`);
    } catch (error) {
      notify.error('Update Failed', messageOf(error, 'Failed to update the car status. Please try again.'));
    }
  };
  return (
    <div className="flex flex-wrap gap-2 xl:flex-col xl:items-stretch xl:gap-1.5">
      {car.verification_status !== 'verified' ? <CarVerifyAction car={car} /> : null}
      {car.verification_status !== 'rejected' ? (
        <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject ${car.car_username}`} onClick={() => actions.open({ action: 'reject', car })}>
          Reject
        </Button>
      ) : null}
      {car.status === 'maintenance' ? (
        <Button size="sm" variant="ghost" icon={<Undo2 className="size-4" aria-hidden="true" />} aria-label={`Back to available ${car.car_username}`} onClick={() => void setMaintenance(false)}>
          Back to available
        </Button>
      ) : car.status !== 'rented' ? (
        <Button size="sm" variant="ghost" icon={<Wrench className="size-4" aria-hidden="true" />} aria-label={`Maintenance ${car.car_username}`} onClick={() => void setMaintenance(true)}>
          Maintenance
        </Button>
      ) : null}
      {car.status === 'rented' ? (
        <Button size="sm" variant="danger-outline" icon={<RotateCcw className="size-4" aria-hidden="true" />} aria-label={`Force Return ${car.car_username}`} onClick={() => actions.open({ action: 'force-return', car })}>
          Force Return
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" className="text-red-600" icon={<Trash2 className="size-4" aria-hidden="true" />} aria-label={`Delete ${car.car_username}`} onClick={() => actions.remove(car)}>
        Delete
      </Button>
    </div>
  );
}

const column = listColumnHelper<Car>();

// From 1280 px (xl) the cars are document 3's table, sized to fit, Actions pinned to the right
// should a long value widen it. Below, each car is a card (a table of eight columns scrolled
// sideways in a phone hid the actions): the car on top, its facts in a grid under it, each with its
// column's name, and the actions last, all in reach.
function carColumns(actions: CarRowActions): ListColumn<Car>[] {
  return [
    column.accessor((car) => `${car.car_make} ${car.car_model}`, {
      id: 'car',
      header: 'Car Details',
      enableSorting: true,
      meta: { card: 'title', cellClassName: 'xl:min-w-56', sortLabels: { asc: 'Car: A to Z', desc: 'Car: Z to A' } },
      cell: ({ row }) => <CarDetails car={row.original} onView={actions.view} />,
    }),
    column.display({
      id: 'owner',
      header: 'Owner & Location',
      meta: { cardLabel: 'Owner & Location', cellClassName: 'xl:min-w-32' },
      cell: ({ row: { original: car } }) => (
        <>
          <p className="font-medium [overflow-wrap:anywhere] text-stone-900">@{car.car_owner}</p>
          <p className="text-xs text-stone-500">{car.pickup_location}</p>
        </>
      ),
    }),
    column.accessor('status', {
      id: 'status',
      header: 'Status & Availability',
      meta: { cardLabel: 'Status', filter: { label: 'Status', allLabel: 'All', options: CAR_FILTER_STATUSES.map((status) => ({ value: status, label: CAR_STATUS_LABELS[status] })) } },
      cell: ({ row: { original: car } }) => (
        <>
          <Badge tone={STATUS_TONES[car.status]}>{CAR_STATUS_LABELS[car.status]}</Badge>
          <p className="mt-1 text-xs text-stone-500">{car.isRented ? 'On a trip' : 'Not rented'}</p>
        </>
      ),
    }),
    column.accessor('car_rent_price', {
      id: 'price',
      header: 'Pricing & Performance',
      enableSorting: true,
      meta: { cardLabel: 'Pricing', sortLabels: { asc: 'Price: low to high', desc: 'Price: high to low' } },
      cell: ({ row: { original: car } }) => (
        <>
          <p className="font-medium text-stone-900">{formatRand(car.car_rent_price)}/day</p>
          <p className="flex items-center gap-1 text-xs text-stone-500">
            <Star className="size-3.5 text-amber-500" aria-hidden="true" />
            {car.rating === null ? 'New' : `${car.rating.toFixed(1)} (${car.totalReviews})`}
          </p>
          <p className="text-xs text-stone-500">Value {formatRand(car.car_value)}</p>
        </>
      ),
    }),
    column.display({
      id: 'vehicle',
      header: 'Vehicle Info',
      meta: { cardLabel: 'Vehicle', cellClassName: 'text-xs text-stone-600' },
      cell: ({ row: { original: car } }) => (
        <>
          <p className="font-medium text-stone-900">{car.car_type}</p>
          <p>
            {car.transmission} · {car.fuel_type}
          </p>
          <p>
            {car.seating_capacity} seats · {car.car_color}
          </p>
          <p>{car.car_odometer.toLocaleString('en-ZA')} km</p>
        </>
      ),
    }),
    column.display({
      id: 'document',
      header: 'Registration documents',
      meta: { cardLabel: 'Registration document' },
      cell: ({ row: { original: car } }) => <RegistrationDocumentCell car={car} onReject={() => actions.open({ action: 'reject-document', car })} />,
    }),
    column.accessor('verification_status', {
      id: 'verification',
      header: 'Verification',
      meta: {
        cardLabel: 'Verification',
        filter: { label: 'Verification', allLabel: 'All', options: CAR_VERIFICATION_STATUSES.map((status) => ({ value: status, label: VERIFICATION_LABELS[status] })) },
      },
      cell: ({ row: { original: car } }) => (
        <>
          <Badge tone={VERIFICATION_TONES[car.verification_status]}>{VERIFICATION_LABELS[car.verification_status]}</Badge>
          {car.admin_notes ? <p className="mt-1 max-w-48 text-xs text-stone-500">{car.admin_notes}</p> : null}
          <CarVerificationReason car={car} />
        </>
      ),
    }),
    column.display({ id: 'actions', header: 'Actions', meta: { card: 'footer', isPinned: true }, cell: ({ row }) => <CarActions car={row.original} actions={actions} /> }),
  ];
}

export function CarsTab() {
  const notify = useNotification();
  const [target, setTarget] = useState<{ action: CarDialogAction; car: Car } | null>(null);
  const [deleting, setDeleting] = useState<Car | null>(null);
  const [viewing, setViewing] = useState<Car | null>(null);
  const columns = useMemo(() => carColumns({ open: setTarget, view: setViewing, remove: setDeleting }), []);
  const view = useListSearchParams(columns, { pageSize: ADMIN_CARS_PAGE_SIZE });
  const sort = view.sortBy(CAR_SORTS);
  const list = useAdminCars({
    page: view.page,
    limit: view.pageSize,
    search: view.search,
    status: view.filter('status', CAR_FILTER_STATUSES),
    verification_status: view.filter('verification', CAR_VERIFICATION_STATUSES),
    ...(sort ? { sort: sort.by, order: sort.order } : {}),
  });
  const overview = useAdminOverview();
  const removal = useDeleteCar();

  const remove = async () => {
    if (!deleting) return;
    try {
      await removal.mutateAsync(deleting);
      notify.success('Car deleted', `${deleting.car_username} was deleted.`);
    } catch (error) {
      notify.error('Delete Failed', messageOf(error, 'Failed to delete car. Please try again.'));
      throw error;
    }
  };

  return (
    <div className="space-y-6">
      <CarCreator />

      <dl aria-label="Car counters" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {COUNTERS.map((counter) => (
          <StatCard key={counter.key} label={counter.label} tone={counter.tone} value={overview.data?.counters[counter.key]} />
        ))}
        <AverageRating />
      </dl>

      <DataTable
        title="Cars"
        icon={CarIcon}
        description="Every car on Karoo: verify listings and documents, manage maintenance and rentals."
        columns={columns}
        list={view}
        rows={list.data?.cars}
        total={list.data?.total}
        query={list}
        what="the cars"
        noun={['car', 'cars']}
        empty="No cars match this search and this filter."
        search={{ label: 'Search cars', placeholder: 'Make, model, city or plate' }}
        defaultSortLabel="Newest listed first"
        layout={{ kind: 'cards' }}
        regionLabel="Cars"
        rowTestId="car-row"
      />

      <CarActionDialog target={target} onClose={() => setTarget(null)} />
      <Dialog
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `${viewing.car_year} ${viewing.car_make} ${viewing.car_model}` : ''}
        description={viewing ? `${viewing.car_username} of @${viewing.car_owner}` : undefined}
        className="max-w-3xl"
      >
        {viewing ? <Gallery images={viewing.images.length ? viewing.images : viewing.car_images} photos={viewing.photos} alt={`${viewing.car_year} ${viewing.car_make} ${viewing.car_model}`} /> : null}
      </Dialog>
      <ConfirmDialog
        open={deleting !== null}
        tone="danger"
        title="Delete this car?"
        description={deleting ? `${deleting.car_year} ${deleting.car_make} ${deleting.car_model} (${deleting.car_username}) of @${deleting.car_owner} is removed with its linked bookings and data.` : undefined}
        confirmLabel="Delete car"
        loadingLabel="Deleting…"
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
