// The admin panel's Cars tab (document 3, Cars; section 4, Car status in the admin panel): the car
// creator, counter cards counted on the server (meta.total of GET /car/getCarList, unverified cars
// included: Total, Available, Rented, Maintenance, Pending verification; Avg Rating is the average of
// every review, GET /review/getStats), status and verification filters and a search (make, model,
// type, city or plate) held in the URL, and the table of document 3 paged on the server: a table
// from 1280 px, a card per car below it, every action in reach at both. Clicking a car's photo
// opens its gallery. Actions: Verify / Reject (notes required), the registration document's Verify / Reject while uploaded and not verified,
// Maintenance (hidden in maintenance, Back to available instead), Force Return for rented cars
// only, and Delete. The page on screen and the counters are refetched every 30 seconds.
import { CAR_VERIFICATION_STATUSES, type Car, type CarStatus, type CarVerificationStatus, type RegistrationDocument } from '@karoo/shared';
import { Car as CarIcon, CarFront, Check, ChevronLeft, ChevronRight, Images, RotateCcw, Star, Trash2, Undo2, Wrench, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Gallery } from '@/components/ui/gallery';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatRand } from '@/lib/format';
import { useReviewStats } from '@/lib/queries/reviews';
import {
  useAdminCarCount,
  useAdminCars,
  useDeleteCar,
  useSetCarMaintenance,
  useVerifyRegistrationDocument,
  type AdminCarCountFilter,
  type AdminCarFilters,
} from '../api/admin-cars';
import { CAR_FILTER_STATUSES, carFiltersFrom, withCarFilters } from '../utils/car-filters';
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

const COUNTERS: { label: string; filter: AdminCarCountFilter; tone: string }[] = [
  { label: 'Total', filter: {}, tone: 'text-stone-900' },
  { label: 'Available', filter: { status: 'available' }, tone: 'text-emerald-600' },
  { label: 'Rented', filter: { status: 'rented' }, tone: 'text-brand-700' },
  { label: 'Maintenance', filter: { status: 'maintenance' }, tone: 'text-amber-600' },
  { label: 'Pending verification', filter: { verification_status: 'pending_verification' }, tone: 'text-sky-700' },
];

const selectClasses = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';

// From 1280 px (xl) the cars are document 3's table. Below, the same rows are cards (a table of
// eight columns scrolled sideways in a phone hid the actions): the car on top, its facts in a grid
// under it, each with its column's name, and the actions last, all in reach.
const CELL = 'block min-w-0 xl:table-cell xl:px-3 xl:py-3';
const CARD_LABEL = 'mb-1 text-[11px] font-semibold tracking-wide text-stone-500 uppercase xl:hidden';
// At 1280 px the table fits; should a long value widen it, it scrolls and Actions stays pinned.
const STICKY = 'xl:sticky xl:right-0 xl:shadow-[-8px_0_8px_-8px_rgb(28_25_23/0.12)]';

function Counter({ label, filter, tone }: (typeof COUNTERS)[number]) {
  const count = useAdminCarCount(filter);
  return (
    <div className="rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card">
      <dt className="text-xs font-semibold tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className={`mt-1 text-2xl font-bold ${tone}`}>
        {count.data !== undefined ? count.data.toLocaleString('en-ZA') : <span className="inline-block h-7 w-10 animate-pulse rounded bg-stone-200" />}
      </dd>
    </div>
  );
}

/** Avg Rating: the average of every review on Karoo, as the landing page shows it (decisions.md section 7). */
function AverageRating() {
  const stats = useReviewStats();
  return (
    <div className="rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card">
      <dt className="text-xs font-semibold tracking-wide text-stone-500 uppercase">Avg Rating</dt>
      <dd className="mt-1 text-2xl font-bold text-amber-600">
        {stats.data === undefined ? (
          <span className="inline-block h-7 w-10 animate-pulse rounded bg-stone-200" />
        ) : stats.data.count === 0 ? (
          '–'
        ) : (
          <span className="flex items-center gap-1">
            <Star className="size-5 fill-amber-400 text-amber-500" aria-hidden="true" />
            {stats.data.average.toFixed(1)}
          </span>
        )}
      </dd>
      {stats.data ? (
        <dd className="text-xs text-stone-500">{stats.data.count === 0 ? 'No reviews yet' : `${stats.data.count.toLocaleString('en-ZA')} ${stats.data.count === 1 ? 'review' : 'reviews'}`}</dd>
      ) : null}
    </div>
  );
}

function documentState(document: RegistrationDocument | null | undefined): { label: string; tone: BadgeTone } {
  if (!document) return { label: 'Not uploaded', tone: 'neutral' };
  if (document.verified === true) return { label: 'Verified', tone: 'success' };
  if (document.verified === false) return { label: 'Rejected', tone: 'danger' };
  return { label: 'Awaiting review', tone: 'warning' };
}

export function CarsTab() {
  const notify = useNotification();
  const [params, setParams] = useSearchParams();
  const filters = carFiltersFrom(params);
  const [search, setSearch] = useState(filters.search ?? '');
  const [target, setTarget] = useState<{ action: CarDialogAction; car: Car } | null>(null);
  const [deleting, setDeleting] = useState<Car | null>(null);
  const [viewing, setViewing] = useState<Car | null>(null);
  const list = useAdminCars(filters);
  const documentVerification = useVerifyRegistrationDocument();
  const maintenance = useSetCarMaintenance();
  const removal = useDeleteCar();

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / filters.limit));
  // React Router's functional update starts from the params of the last render, so two changes
  // made before the next one (Search, then a filter at once) would drop the first: the URL being
  // written is kept here, and the one on screen replaces it when it changes (Back, a link).
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const choose = (patch: Partial<Omit<AdminCarFilters, 'limit'>>) => {
    latest.current = withCarFilters(latest.current, patch);
    setParams(latest.current, { replace: true });
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    choose({ search: search.trim() || undefined });
  };

  const verifyDocument = async (car: Car) => {
    try {
      await documentVerification.mutateAsync({ car, verified: true });
      notify.success('Registration document verified', `${car.car_username}: @${car.car_owner} is told.`);
    } catch (error) {
      notify.error('Car Verification Error', messageOf(error, 'An error occurred while updating car verification status.'));
    }
  };

  const setMaintenance = async (car: Car, on: boolean) => {
    try {
      await maintenance.mutateAsync({ car, maintenance: on });
      notify.success(on ? 'Car in maintenance' : 'Car available', `${car.car_username} is now ${on ? 'in maintenance' : 'available'}.`);
    } catch (error) {
      notify.error('Update Failed', messageOf(error, 'Failed to update the car status. Please try again.'));
    }
  };

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
          <Counter key={counter.label} {...counter} />
        ))}
        <AverageRating />
      </dl>

      <section aria-labelledby="cars-heading" className="rounded-2xl border border-stone-200 bg-white shadow-sm">
        <header className="flex flex-col gap-4 border-b border-stone-100 p-5 lg:flex-row lg:items-end lg:justify-between">
          <div className="lg:max-w-sm">
            <h2 id="cars-heading" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
              <CarIcon className="size-5 text-brand-600" aria-hidden="true" /> Cars
            </h2>
            <p className="mt-1 text-sm text-stone-600">Every car on Karoo: verify listings and documents, manage maintenance and rentals.</p>
          </div>
          <div className="flex flex-wrap items-end gap-3 lg:justify-end">
            <form onSubmit={onSearch} className="flex w-full items-end gap-2 sm:w-auto" role="search">
              <label className="min-w-0 flex-1 text-sm sm:flex-none">
                <span className="mb-1 block font-medium text-stone-700">Search cars</span>
                <input
                  type="search"
                  className="h-10 w-full rounded-xl border border-stone-300 px-3 text-sm sm:w-60"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder="Make, model, city or plate"
                />
              </label>
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </form>
            <label className="text-sm">
              <span className="mb-1 block font-medium text-stone-700">Status</span>
              <select className={selectClasses} value={filters.status ?? ''} onChange={(e) => choose({ status: (e.target.value || undefined) as AdminCarFilters['status'] })}>
                <option value="">All</option>
                {CAR_FILTER_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {CAR_STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            </label>
            <label className="text-sm">
              <span className="mb-1 block font-medium text-stone-700">Verification</span>
              <select
                className={selectClasses}
                value={filters.verification_status ?? ''}
                onChange={(e) => choose({ verification_status: (e.target.value || undefined) as AdminCarFilters['verification_status'] })}
              >
                <option value="">All</option>
                {CAR_VERIFICATION_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {VERIFICATION_LABELS[status]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </header>

        {list.isError && !list.data ? (
          <div className="p-5">
            <Alert tone="danger" title="Unable to load the cars" role="alert">
              {messageOf(list.error, 'There was an error loading the cars. Please try again.')}
            </Alert>
            <Button className="mt-3" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.isPending ? (
          <div className="space-y-3 p-5" role="status" aria-label="Loading the cars">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="h-12 animate-pulse rounded-xl bg-stone-100" />
            ))}
          </div>
        ) : list.data.cars.length === 0 ? (
          <p className="p-5 text-sm text-stone-500">No cars match this search and this filter.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="block w-full text-left text-sm xl:table">
              <thead className="sr-only bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase xl:not-sr-only xl:table-header-group">
                <tr>
                  <th scope="col" className="px-3 py-3">Car Details</th>
                  <th scope="col" className="px-3 py-3">Owner &amp; Location</th>
                  <th scope="col" className="px-3 py-3">Status &amp; Availability</th>
                  <th scope="col" className="px-3 py-3">Pricing &amp; Performance</th>
                  <th scope="col" className="px-3 py-3">Vehicle Info</th>
                  <th scope="col" className="px-3 py-3">Registration documents</th>
                  <th scope="col" className="px-3 py-3">Verification</th>
                  <th scope="col" className={`bg-stone-50 px-3 py-3 ${STICKY}`}>
                    Actions
                  </th>
                </tr>
              </thead>
              <tbody className="block divide-y divide-stone-100 xl:table-row-group">
                {list.data.cars.map((car) => {
                  const name = `${car.car_year} ${car.car_make} ${car.car_model}`;
                  const photos = car.images.length ? car.images : car.car_images;
                  const photo = photos[0];
                  const document = documentState(car.registration_document);
                  const documentToReview = car.registration_document && car.registration_document.verified !== true;
                  return (
                    <tr key={car.id} data-testid="car-row" className="grid grid-cols-2 gap-x-4 gap-y-4 p-4 sm:grid-cols-3 sm:p-5 xl:table-row xl:p-0 xl:align-top">
                      <td className={`${CELL} col-span-2 sm:col-span-3 xl:min-w-56`}>
                        <div className="flex items-center gap-3">
                          {photo ? (
                            <button
                              type="button"
                              onClick={() => setViewing(car)}
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
                      </td>
                      <td className={`${CELL} xl:min-w-32`}>
                        <p className={CARD_LABEL}>Owner &amp; Location</p>
                        <p className="font-medium [overflow-wrap:anywhere] text-stone-900">@{car.car_owner}</p>
                        <p className="text-xs text-stone-500">{car.pickup_location}</p>
                      </td>
                      <td className={CELL}>
                        <p className={CARD_LABEL}>Status</p>
                        <Badge tone={STATUS_TONES[car.status]}>{CAR_STATUS_LABELS[car.status]}</Badge>
                        <p className="mt-1 text-xs text-stone-500">{car.isRented ? 'On a trip' : 'Not rented'}</p>
                      </td>
                      <td className={CELL}>
                        <p className={CARD_LABEL}>Pricing</p>
                        <p className="font-medium text-stone-900">{formatRand(car.car_rent_price)}/day</p>
                        <p className="flex items-center gap-1 text-xs text-stone-500">
                          <Star className="size-3.5 text-amber-500" aria-hidden="true" />
                          {car.rating === null ? 'New' : `${car.rating.toFixed(1)} (${car.totalReviews})`}
                        </p>
                        <p className="text-xs text-stone-500">Value {formatRand(car.car_value)}</p>
                      </td>
                      <td className={`${CELL} text-xs text-stone-600`}>
                        <p className={CARD_LABEL}>Vehicle</p>
                        <p className="font-medium text-stone-900">{car.car_type}</p>
                        <p>
                          {car.transmission} · {car.fuel_type}
                        </p>
                        <p>
                          {car.seating_capacity} seats · {car.car_color}
                        </p>
                        <p>{car.car_odometer.toLocaleString('en-ZA')} km</p>
                      </td>
                      <td className={CELL}>
                        <p className={CARD_LABEL}>Registration document</p>
                        <Badge tone={document.tone}>{document.label}</Badge>
                        {documentToReview ? (
                          <div className="mt-1.5 flex flex-wrap gap-1.5">
                            <Button size="sm" variant="success" icon={<Check className="size-4" aria-hidden="true" />} aria-label={`Verify document of ${car.car_username}`} onClick={() => void verifyDocument(car)}>
                              Verify
                            </Button>
                            {car.registration_document?.verified === null ? (
                              <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject document of ${car.car_username}`} onClick={() => setTarget({ action: 'reject-document', car })}>
                                Reject
                              </Button>
                            ) : null}
                          </div>
                        ) : null}
                      </td>
                      <td className={CELL}>
                        <p className={CARD_LABEL}>Verification</p>
                        <Badge tone={VERIFICATION_TONES[car.verification_status]}>{VERIFICATION_LABELS[car.verification_status]}</Badge>
                        {car.admin_notes ? <p className="mt-1 max-w-48 text-xs text-stone-500">{car.admin_notes}</p> : null}
                        <CarVerificationReason car={car} />
                      </td>
                      <td className={`${CELL} col-span-2 border-t border-stone-100 bg-white pt-4 sm:col-span-3 xl:border-t-0 ${STICKY}`}>
                        <div className="flex flex-wrap gap-2 xl:flex-col xl:items-stretch xl:gap-1.5">
                          {car.verification_status !== 'verified' ? <CarVerifyAction car={car} /> : null}
                          {car.verification_status !== 'rejected' ? (
                            <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject ${car.car_username}`} onClick={() => setTarget({ action: 'reject', car })}>
                              Reject
                            </Button>
                          ) : null}
                          {car.status === 'maintenance' ? (
                            <Button size="sm" variant="ghost" icon={<Undo2 className="size-4" aria-hidden="true" />} aria-label={`Back to available ${car.car_username}`} onClick={() => void setMaintenance(car, false)}>
                              Back to available
                            </Button>
                          ) : car.status !== 'rented' ? (
                            <Button size="sm" variant="ghost" icon={<Wrench className="size-4" aria-hidden="true" />} aria-label={`Maintenance ${car.car_username}`} onClick={() => void setMaintenance(car, true)}>
                              Maintenance
                            </Button>
                          ) : null}
                          {car.status === 'rented' ? (
                            <Button size="sm" variant="danger-outline" icon={<RotateCcw className="size-4" aria-hidden="true" />} aria-label={`Force Return ${car.car_username}`} onClick={() => setTarget({ action: 'force-return', car })}>
                              Force Return
                            </Button>
                          ) : null}
                          <Button size="sm" variant="ghost" className="text-red-600" icon={<Trash2 className="size-4" aria-hidden="true" />} aria-label={`Delete ${car.car_username}`} onClick={() => setDeleting(car)}>
                            Delete
                          </Button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}

        <footer className="flex items-center justify-between gap-3 border-t border-stone-100 px-5 py-3 text-sm text-stone-600">
          <span>
            {total.toLocaleString('en-ZA')} {total === 1 ? 'car' : 'cars'} · page {filters.page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronLeft className="size-4" aria-hidden="true" />}
              disabled={filters.page <= 1}
              onClick={() => choose({ ...filters, page: filters.page - 1 })}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronRight className="size-4" aria-hidden="true" />}
              disabled={filters.page >= pages}
              onClick={() => choose({ ...filters, page: filters.page + 1 })}
            >
              Next
            </Button>
          </div>
        </footer>
      </section>

      <CarActionDialog target={target} onClose={() => setTarget(null)} />
      <Dialog
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `${viewing.car_year} ${viewing.car_make} ${viewing.car_model}` : ''}
        description={viewing ? `${viewing.car_username} of @${viewing.car_owner}` : undefined}
        className="max-w-3xl"
      >
        {viewing ? <Gallery images={viewing.images.length ? viewing.images : viewing.car_images} alt={`${viewing.car_year} ${viewing.car_make} ${viewing.car_model}`} /> : null}
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
