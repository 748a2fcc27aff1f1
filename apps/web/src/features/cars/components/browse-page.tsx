// The browse page (document 2 section 2): text search, filters, grid or list, an optional map
// (desktop, grid view), the vehicle count, skeletons, empty and error states, and "Load more
// vehicles" that loads the next page from the server. Every filter lives in the URL.
import { BASE_CITIES, DEFAULT_SETTINGS, todayIn, type CarCard } from '@karoo/shared';
import { clsx } from 'clsx';
import { CarFront, Heart, LayoutGrid, List, LocateFixed, Map as MapIcon, MapPin, Search, SlidersHorizontal, TriangleAlert, X } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useSettings } from '@/lib/queries/settings';
import type { TripDates } from '@/lib/trip-dates';
import { useCars } from '../api/get-cars';
import { GEOLOCATION_MESSAGES, useGeolocation } from '../hooks/use-geolocation';
import { useFavouriteCars } from '../api/get-favourite-cars';
import { isMobileNow, useIsClient } from '../hooks/use-media-query';
import { clearedFilters, countActiveFilters, filtersToParams, needsDistanceStart, PAGE_SIZE, parseFilters, toCarListParams, type BrowseFilters } from '../utils/browse-filters';
import { useFavouritesPort } from './favourites-context';
import { FilterPanel } from './filter-panel';
import { VehicleCard, VehicleCardSkeleton } from './vehicle-card';

// Leaflet is loaded only when a map is shown.
const CarMap = lazy(() => import('./map/car-map'));

const SEARCH_DEBOUNCE_MS = 300;
// A whole page of placeholders: the loaded grid is as tall as the skeleton one.
const SKELETON_COUNT = PAGE_SIZE;

function MapFallback({ className }: { className?: string }) {
  return (
    <div className={clsx('flex items-center justify-center rounded-2xl border border-stone-200 bg-stone-100 text-sm text-stone-600', className)}>
      <Spinner label="Loading map" className="mr-2" /> Loading map…
    </div>
  );
}

type CarMapProps = React.ComponentProps<typeof CarMap>;

/**
 * The browse page's map: beside the results on a wider screen, in their place on a phone (the List /
 * Map toggle). Leaflet needs a window: the server draws its place, the browser the map. Only this
 * slot re-renders when the page hydrates.
 */
function SideMap(props: Omit<CarMapProps, 'className'>) {
  const isClient = useIsClient();
  if (!isClient) return <MapFallback className="size-full" />;
  return (
    <Suspense fallback={<MapFallback className="size-full" />}>
      <CarMap {...props} className="size-full" />
    </Suspense>
  );
}

function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text.trim() === value.trim()) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="relative min-w-0 flex-1">
      <Search className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-stone-400" aria-hidden="true" />
      <input
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onSearch(text);
        }}
        aria-label="Search vehicles"
        placeholder="Search make, model, type or city"
        className="h-12 w-full rounded-full border border-stone-300 bg-white pr-4 pl-11 text-[15px] text-stone-900 shadow-sm placeholder:text-stone-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
      />
    </div>
  );
}

function ToggleButton({ pressed, onClick, label, children, className }: { pressed: boolean; onClick: () => void; label: string; children: React.ReactNode; className?: string }) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      onClick={onClick}
      className={clsx(
        'flex size-10 items-center justify-center rounded-full transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        pressed ? 'bg-stone-900 text-white' : 'text-stone-600 hover:bg-stone-100',
        className,
      )}
    >
      {children}
    </button>
  );
}

/**
 * Sort by distance without a starting point (the browser refused the position, or a shared link):
 * said in the page, with a base city to measure from instead. The URL keeps sort=DISTANCE, and
 * near=<city> once one is chosen; until then the list is in order of relevance.
 */
function DistanceStart({ geolocation, onNear, onUseLocation, onRelevance }: { geolocation: ReturnType<typeof useGeolocation>; onNear: (city: string) => void; onUseLocation: () => void; onRelevance: () => void }) {
  const { isLocating, failure } = geolocation;
  return (
    <section aria-label="Sort by distance" className="mt-4 rounded-2xl border border-amber-200 bg-amber-50 p-4" data-testid="distance-start">
      <p role="status" className="text-sm text-amber-950">
        {isLocating ? (
          'Finding your location to sort by distance…'
        ) : (
          <>
            <span className="font-semibold">{failure ? `${GEOLOCATION_MESSAGES[failure]} ` : ''}To sort by distance, choose a city to measure from.</span> Until then, the cars are shown by relevance.
          </>
        )}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-2">
        <label className="min-w-0 text-sm">
          <span className="mb-1 block text-xs font-medium text-amber-950">Sort from a city</span>
          <span className="relative block">
            <MapPin className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-500" aria-hidden="true" />
            <select
              value=""
              onChange={(event) => event.target.value && onNear(event.target.value)}
              className="h-11 min-w-52 rounded-xl border border-stone-300 bg-white pr-8 pl-9 text-sm text-stone-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
            >
              <option value="">Choose a city</option>
              {BASE_CITIES.map((city) => (
                <option key={city.name} value={city.name}>
                  {city.name}, {city.province}
                </option>
              ))}
            </select>
          </span>
        </label>
        <Button variant="secondary" className="h-11" onClick={onUseLocation} loading={isLocating} icon={<LocateFixed className="size-4" aria-hidden="true" />}>
          {failure ? 'Try my location again' : 'Use my location'}
        </Button>
        <Button variant="ghost" className="h-11" onClick={onRelevance}>
          Sort by relevance
        </Button>
      </div>
    </section>
  );
}

export function BrowsePage() {
  const today = useMemo(() => todayIn(), []);
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = useMemo(() => parseFilters(searchParams, today), [searchParams, today]);
  const favourites = useFavouritesPort();
  const [showFilters, setShowFilters] = useState(false);
  const geolocation = useGeolocation();
  // The car a Map button showed: on the side map when it is open, otherwise in a map dialog.
  const [sideFocus, setSideFocus] = useState<CarCard | null>(null);
  const [dialogCar, setDialogCar] = useState<CarCard | null>(null);

  // The filters as last asked for. setSearchParams's updater is handed the params of the last
  // render, not those of a navigation still under way: a type chosen and then a price moved in
  // quick succession would lose the type. Our own navigations as they land are not news (the last
  // one asked for stays the base); any other change of the URL (back, forward, a link) is.
  const asked = useRef(searchParams);
  const inFlight = useRef(new Set<string>());
  useEffect(() => {
    if (inFlight.current.delete(searchParams.toString())) return;
    inFlight.current.clear();
    asked.current = searchParams;
  }, [searchParams]);
  // Filters replace the history entry (a price slider would flood it); the phone's List / Map
  // toggle adds one, so Back goes back to the list.
  const ask = useCallback(
    (next: URLSearchParams, { push = false }: { push?: boolean } = {}) => {
      asked.current = next;
      inFlight.current.add(next.toString());
      setSearchParams(next, { replace: !push });
    },
    [setSearchParams],
  );
  const update = useCallback(
    (patch: Partial<BrowseFilters>, options?: { push?: boolean }) => ask(filtersToParams({ ...parseFilters(asked.current, today), ...patch }), options),
    [ask, today],
  );
  const onSearch = useCallback((search: string) => update({ search }), [update]);
  const shareMyLocation = async () => {
    const position = await geolocation.locate();
    if (position) update({ lat: position.lat, lng: position.lng, near: '', sort: 'DISTANCE' });
  };
  const clearAll = () => ask(filtersToParams(clearedFilters(parseFilters(asked.current, today))));

  const params = useMemo(() => toCarListParams(filters), [filters]);
  // The searched dates: each card's total for them, and its links carry them to the car page.
  const trip = useMemo<TripDates | null>(
    () => (filters.pickupDate && filters.returnDate ? { startDate: filters.pickupDate, endDate: filters.returnDate, startTime: filters.pickupTime, endTime: filters.returnTime, isHourly: false } : null),
    [filters.pickupDate, filters.returnDate, filters.pickupTime, filters.returnTime],
  );
  const settingsQuery = useSettings({ enabled: !!trip });
  const settings = settingsQuery.data ?? (settingsQuery.isError ? DEFAULT_SETTINGS : null);
  const list = useCars(params);
  const favouriteUsernames = useMemo(() => (favourites?.items ?? []).map((item) => item.car_username), [favourites?.items]);
  const favouriteCars = useFavouriteCars(favouriteUsernames, filters.favouritesOnly);

  const cars = useMemo(() => {
    if (filters.favouritesOnly) return favouriteCars.cars;
    return list.data?.pages.flatMap((page) => page.cars) ?? [];
  }, [filters.favouritesOnly, favouriteCars.cars, list.data]);
  const total = filters.favouritesOnly ? favouriteCars.cars.length : (list.data?.pages[0]?.total ?? 0);
  // Past 1,000 matches the server stops counting: "1 000+ vehicles" (decision 020).
  const totalLabel = filters.favouritesOnly || (list.data?.pages[0]?.exact ?? true) ? String(total) : `${total.toLocaleString('en-ZA')}+`;
  const isLoading = filters.favouritesOnly ? favouriteCars.isLoading : list.isPending;
  const isError = filters.favouritesOnly ? favouriteCars.isError : list.isError && !list.data;
  const activeCount = countActiveFilters(filters);
  // map=1: beside the results from 640 px, in their place below (the phone's List / Map toggle). CSS
  // decides which, so the page renders the same on the server and on a phone (no re-render at hydration).
  const sideMap = filters.view === 'grid' && filters.showMap;
  const layout = filters.view;

  const showOnMap = (car: CarCard) => {
    if (sideMap && !isMobileNow()) {
      // Set again even for the same car, so the map re-centres on it.
      setSideFocus(null);
      setTimeout(() => setSideFocus(car), 0);
    } else setDialogCar(car);
  };

  let results: React.ReactNode;
  if (isLoading) {
    results = (
      <>
        <p key="status" role="status" className="sr-only">
          Loading vehicles
        </p>
        {/* Keyed like the loaded grid and button below: the same boxes stay in place when the cars arrive. */}
        <div key="grid" className={gridClasses(layout, sideMap)}>
          {Array.from({ length: SKELETON_COUNT }, (_, i) => (
            <VehicleCardSkeleton key={i} layout={layout} withTrip={!!trip} />
          ))}
        </div>
        {/* Where "Load more vehicles" will be: the footer does not jump when it appears. */}
        {filters.favouritesOnly ? null : <div key="more" className="mt-8 h-12" aria-hidden="true" />}
      </>
    );
  } else if (isError) {
    results = (
      <div role="alert" className="flex flex-col items-center rounded-2xl border border-red-200 bg-white px-6 py-14 text-center shadow-card">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-red-50 text-red-600">
          <TriangleAlert className="size-6" aria-hidden="true" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-stone-900">Unable to load vehicles</h2>
        <p className="mt-1 max-w-md text-sm text-stone-600">There was an error loading the vehicle listings. Please try again later.</p>
        <Button className="mt-6" onClick={() => void list.refetch()} loading={list.isFetching}>
          Try Again
        </Button>
      </div>
    );
  } else if (cars.length === 0) {
    results = (
      <div className="flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-14 text-center">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-stone-100 text-stone-500">
          <CarFront className="size-6" aria-hidden="true" />
        </span>
        <h2 className="mt-4 text-lg font-semibold text-stone-900">{filters.favouritesOnly ? 'No favourites yet' : 'No vehicles found'}</h2>
        <p className="mt-1 max-w-md text-sm text-stone-600">
          {filters.favouritesOnly
            ? 'Tap the heart on any vehicle to save it here.'
            : 'Try adjusting your search criteria or filters to find more vehicles.'}
        </p>
        <Button variant="secondary" className="mt-6" onClick={clearAll}>
          Clear all filters
        </Button>
      </div>
    );
  } else {
    results = (
      <>
        <div
          key="grid"
          className={clsx(gridClasses(layout, sideMap), list.isPlaceholderData && 'opacity-60 transition-opacity')}
          aria-busy={list.isPlaceholderData || undefined}
        >
          {cars.map((car, i) => (
            <VehicleCard key={car.id} car={car} layout={layout} onShowOnMap={showOnMap} priority={i < 2} trip={trip} settings={settings} />
          ))}
          {/* The next page's placeholders appear with the click, so the cards take their place. */}
          {list.isFetchingNextPage
            ? Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, total - cars.length)) }, (_, i) => <VehicleCardSkeleton key={`more-${i}`} layout={layout} withTrip={!!trip} />)
            : null}
        </div>
        {!filters.favouritesOnly && list.hasNextPage ? (
          <div key="more" className="mt-8 flex justify-center">
            <Button variant="secondary" size="lg" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
              Load more vehicles
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="mx-auto w-full max-w-[96rem] px-4 py-6 sm:px-6 lg:px-8">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Browse Vehicles</h1>
        <p className="text-sm text-stone-600">Cars from verified local hosts across South Africa, by the day or by the hour.</p>
      </div>

      <div className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchBox value={filters.search} onSearch={onSearch} />
        <div className="flex items-center gap-2">
          <Button
            variant={showFilters ? 'primary' : 'secondary'}
            className="h-12 rounded-full px-5"
            onClick={() => setShowFilters((v) => !v)}
            aria-expanded={showFilters}
            aria-controls="filter-panel"
            icon={<SlidersHorizontal className="size-4" aria-hidden="true" />}
          >
            Filters
            {activeCount ? (
              <span className={clsx('rounded-full px-1.5 text-xs', showFilters ? 'bg-white text-brand-700' : 'bg-stone-900 text-white')}>
                {activeCount}
                <span className="sr-only"> active</span>
              </span>
            ) : null}
          </Button>
          <button
            type="button"
            aria-pressed={filters.favouritesOnly}
            onClick={() => update({ favouritesOnly: !filters.favouritesOnly })}
            className={clsx(
              'inline-flex h-12 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
              filters.favouritesOnly ? 'border-brand-600 bg-brand-50 text-brand-700' : 'border-stone-300 bg-white text-stone-700 hover:border-stone-400',
            )}
          >
            <Heart className={clsx('size-4', filters.favouritesOnly && 'fill-brand-600')} aria-hidden="true" />
            Favourites
          </button>
        </div>
      </div>

      {showFilters ? (
        <div className="mt-4">
          <FilterPanel
            filters={filters}
            today={today}
            onChange={update}
            onClear={clearAll}
            onClose={() => setShowFilters(false)}
            resultCount={isLoading || isError || filters.favouritesOnly ? undefined : totalLabel}
            geolocation={geolocation}
          />
        </div>
      ) : null}

      {needsDistanceStart(filters) && !filters.favouritesOnly ? (
        <DistanceStart
          geolocation={geolocation}
          onNear={(near) => update({ near, sort: 'DISTANCE' })}
          onUseLocation={() => void shareMyLocation()}
          onRelevance={() => update({ sort: 'RELEVANCE' })}
        />
      ) : null}

      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm font-medium text-stone-700" aria-live="polite" data-testid="vehicle-count">
          {isLoading ? 'Finding vehicles…' : `${totalLabel} ${total === 1 ? 'vehicle' : 'vehicles'} ${filters.favouritesOnly ? 'saved' : 'available'}`}
          {!isLoading && !filters.favouritesOnly && filters.sort === 'DISTANCE' && !needsDistanceStart(filters)
            ? `, nearest to ${filters.near || 'you'} first`
            : null}
        </p>
        <div className="flex items-center gap-2">
          {activeCount ? (
            <button type="button" onClick={clearAll} className="inline-flex items-center gap-1 rounded-full px-3 py-2 text-sm font-medium text-stone-600 hover:bg-stone-100">
              <X className="size-4" aria-hidden="true" /> Clear filters
            </button>
          ) : null}
          {filters.view === 'grid' ? (
            // Hidden below 640 px by CSS, not by useIsMobile: a server-rendered page is the same for a
            // phone, and the toolbar must not change when it hydrates (layout shift).
            <span className="hidden sm:contents">
              <Button variant="secondary" size="sm" className="h-10 rounded-full" onClick={() => update({ showMap: !filters.showMap })} icon={<MapIcon className="size-4" aria-hidden="true" />}>
                {filters.showMap ? 'Hide map' : 'Show map'}
              </Button>
            </span>
          ) : null}
          <div role="group" aria-label="View" className="flex rounded-full border border-stone-200 bg-white p-1">
            <ToggleButton pressed={layout === 'grid'} label="Grid view" onClick={() => update({ view: 'grid' })} className="size-8">
              <LayoutGrid className="size-4" aria-hidden="true" />
            </ToggleButton>
            <ToggleButton pressed={layout === 'list'} label="List view" onClick={() => update({ view: 'list', showMap: false })} className="size-8">
              <List className="size-4" aria-hidden="true" />
            </ToggleButton>
          </div>
        </div>
      </div>

      {/* Phones: the results as a list or on the map, one at a time (in the URL as map=1, so Back returns to the list). */}
      <div role="group" aria-label="Show results as" className="mt-4 grid grid-cols-2 rounded-full border border-stone-200 bg-white p-1 sm:hidden">
        {(
          [
            ['List', false, List],
            ['Map', true, MapIcon],
          ] as const
        ).map(([label, onMap, Icon]) => (
          <button
            key={label}
            type="button"
            aria-pressed={sideMap === onMap}
            onClick={() => sideMap !== onMap && update(onMap ? { showMap: true, view: 'grid' } : { showMap: false }, { push: true })}
            className={clsx(
              'flex h-10 items-center justify-center gap-2 rounded-full text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
              sideMap === onMap ? 'bg-stone-900 text-white' : 'text-stone-700 hover:bg-stone-100',
            )}
          >
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </button>
        ))}
      </div>

      <h2 className="sr-only">Vehicles</h2>
      <div className={clsx('mt-4', sideMap && 'grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,0.85fr)]')}>
        {sideMap ? (
          <div className="order-first h-[calc(100dvh-15rem)] min-h-[22rem] sm:h-[420px] sm:min-h-0 lg:order-last lg:sticky lg:top-20 lg:h-[calc(100dvh-6.5rem)]" data-testid="results-map">
            <SideMap
              params={params}
              focusCar={sideFocus}
              searchArea={filters.bbox || null}
              onSearchAreaChange={(bbox) => update({ bbox: bbox ?? '' })}
              trip={trip}
            />
          </div>
        ) : null}
        {/* On a phone the map takes the list's place. */}
        <div className={clsx('min-w-0', sideMap && 'hidden sm:block')}>{results}</div>
      </div>

      <Dialog open={!!dialogCar} onClose={() => setDialogCar(null)} title={dialogCar ? `${dialogCar.title} on the map` : 'Map'} className="max-w-4xl">
        {dialogCar ? (
          <Suspense fallback={<MapFallback className="h-[60vh]" />}>
            <CarMap params={params} focusCar={dialogCar} trip={trip} className="h-[60vh]" />
          </Suspense>
        ) : null}
      </Dialog>
    </div>
  );
}

function gridClasses(layout: 'grid' | 'list', withMap: boolean): string {
  if (layout === 'list') return 'flex flex-col gap-4';
  return clsx('grid gap-5 sm:grid-cols-2', withMap ? 'xl:grid-cols-2' : 'lg:grid-cols-3 2xl:grid-cols-4');
}
