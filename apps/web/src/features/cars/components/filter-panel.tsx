// The advanced filter panel (document 2 section 2): location (search after more than 2 characters,
// or the renter's position), pickup and return dates and times, pickup type, sort, price range,
// vehicle type, transmission, fuel and features. Every change goes straight to the browse state.
import { BASE_CITIES, BROWSE_FEATURES, BROWSE_TRANSMISSIONS, BROWSE_TYPES, FUEL_TYPES, addDays, type CarSort, type PickupType } from '@karoo/shared';
import { clsx } from 'clsx';
import { Check, LocateFixed, MapPin, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { formatRand } from '@/lib/format';
import { useInstantBookingAllowed } from '@/lib/queries/settings';
import { GEOLOCATION_MESSAGES, type useGeolocation } from '../hooks/use-geolocation';
import {
  DEFAULT_MAX_PRICE,
  LOCATION_MIN_CHARS,
  PRICE_SLIDER_MAX,
  PRICE_SLIDER_MIN,
  PRICE_SLIDER_STEP,
  needsDistanceStart,
  type BrowseFilters,
} from '../utils/browse-filters';

export const SORT_LABELS: Record<CarSort, string> = {
  RELEVANCE: 'Relevance',
  PRICE_LOW: 'Price: low to high',
  PRICE_HIGH: 'Price: high to low',
  DISTANCE: 'Distance',
};

export const PICKUP_TYPE_LABELS: Record<PickupType, string> = {
  ALL: 'All pickup types',
  HOST_DELIVERY: 'Host delivery',
  PICKUP_POINT: 'Pickup point',
};

export interface FilterPanelProps {
  filters: BrowseFilters;
  today: string;
  onChange: (patch: Partial<BrowseFilters>) => void;
  onClear: () => void;
  onClose: () => void;
  /** How many vehicles match, as the page shows it ("12", or "1 000+" past the server's count). */
  resultCount?: string;
  /** The page's geolocation: the page says in place when the position is refused for a distance sort. */
  geolocation: ReturnType<typeof useGeolocation>;
}

const selectClasses = clsx(inputClasses, 'border-stone-300 pr-8');

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <fieldset className={clsx('min-w-0', className)}>
      <legend className="mb-2 text-sm font-semibold text-stone-900">{title}</legend>
      {children}
    </fieldset>
  );
}

function Chip({ selected, onClick, children }: { selected: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onClick}
      className={clsx(
        'inline-flex items-center gap-1 rounded-full border px-3 py-1.5 text-sm font-medium transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
        selected ? 'border-stone-900 bg-stone-900 text-white' : 'border-stone-300 bg-white text-stone-700 hover:border-stone-400',
      )}
    >
      {selected ? <Check className="size-3.5" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-stone-600">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

/** Location typed by the renter: applied once it has more than 2 characters (or is cleared). */
function LocationSearch({ value, onCommit }: { value: string; onCommit: (location: string) => void }) {
  const [text, setText] = useState(value);
  const listId = useId();
  const inputId = useId();
  const committed = useRef(value);
  useEffect(() => {
    committed.current = value;
    setText(value);
  }, [value]);
  useEffect(() => {
    const trimmed = text.trim();
    if (trimmed === committed.current.trim()) return;
    if (trimmed !== '' && trimmed.length < LOCATION_MIN_CHARS) return;
    const timer = setTimeout(() => {
      committed.current = trimmed;
      onCommit(trimmed);
    }, 350);
    return () => clearTimeout(timer);
  }, [text, onCommit]);
  const tooShort = text.trim().length > 0 && text.trim().length < LOCATION_MIN_CHARS;
  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-xs font-medium text-stone-600">
        Location
      </label>
      <div className="relative">
        <MapPin className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400" aria-hidden="true" />
        <input
          id={inputId}
          list={listId}
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="City or area"
          autoComplete="off"
          className={clsx(inputClasses, 'border-stone-300 pl-9')}
        />
        <datalist id={listId}>
          {BASE_CITIES.map((city) => (
            <option key={city.name} value={city.name}>
              {city.province}
            </option>
          ))}
        </datalist>
      </div>
      {tooShort ? <p className="mt-1 text-xs text-stone-500">Type at least {LOCATION_MIN_CHARS} characters to search.</p> : null}
    </div>
  );
}

export function FilterPanel({ filters, today, onChange, onClear, onClose, resultCount, geolocation }: FilterPanelProps) {
  const { locate, isLocating, failure } = geolocation;
  const hasPosition = filters.lat !== null && filters.lng !== null;
  const sliderMax = Math.min(filters.maxPrice, PRICE_SLIDER_MAX);
  const sliderMin = Math.min(filters.minPrice, sliderMax);
  // While the admin has paused instant booking no car offers it: the filter is not offered either
  // (kept visible when an address already asks for it, so it can be cleared).
  const instantAllowed = useInstantBookingAllowed();

  const applyMyLocation = async () => {
    const position = await locate();
    if (position) onChange({ lat: position.lat, lng: position.lng, near: '', sort: 'DISTANCE' });
  };

  const toggleFeature = (feature: string) =>
    onChange({ features: filters.features.includes(feature) ? filters.features.filter((f) => f !== feature) : [...filters.features, feature] });

  return (
    <section id="filter-panel" aria-label="Filters" className="rounded-2xl border border-stone-200 bg-white p-4 shadow-card sm:p-6">
      <div className="grid gap-6 lg:grid-cols-3">
        <Section title="Where">
          <LocationSearch value={filters.location} onCommit={(location) => onChange({ location })} />
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <Button variant="ghost" size="sm" onClick={() => void applyMyLocation()} loading={isLocating} icon={<LocateFixed className="size-4" aria-hidden="true" />}>
              Use my location
            </Button>
            {hasPosition ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-sky-50 px-2.5 py-1 text-xs font-medium text-sky-800">
                {filters.near ? `Distance from ${filters.near}` : 'Using your location'}
                <button
                  type="button"
                  aria-label={filters.near ? `Stop measuring distance from ${filters.near}` : 'Stop using my location'}
                  onClick={() => onChange({ lat: null, lng: null, near: '', sort: filters.sort === 'DISTANCE' ? 'RELEVANCE' : filters.sort })}
                  className="rounded-full p-0.5 hover:bg-sky-100"
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              </span>
            ) : null}
          </div>
          {/* A refused position, said here (the distance sort's own message is on the page). */}
          {failure && !needsDistanceStart(filters) ? (
            <p role="status" className="mt-2 text-xs text-stone-600">
              {GEOLOCATION_MESSAGES[failure]} Type a city or area above instead.
            </p>
          ) : null}
        </Section>

        <Section title="When">
          {/* No dates means no window: every car is listed, booked or not. Only dates the renter picks are sent. */}
          <div className="grid grid-cols-2 gap-2">
            <Field label="Pickup date">
              {(id) => (
                <input
                  id={id}
                  type="date"
                  min={today}
                  value={filters.pickupDate}
                  onChange={(event) => {
                    const pickupDate = event.target.value;
                    if (!pickupDate || pickupDate < today) return;
                    onChange({ pickupDate, returnDate: filters.returnDate && filters.returnDate >= pickupDate ? filters.returnDate : addDays(pickupDate, 1) });
                  }}
                  className={clsx(inputClasses, 'border-stone-300 px-2.5')}
                />
              )}
            </Field>
            <Field label="Pickup time">
              {(id) => (
                <input id={id} type="time" value={filters.pickupTime} onChange={(event) => event.target.value && onChange({ pickupTime: event.target.value })} className={clsx(inputClasses, 'border-stone-300 px-2.5')} />
              )}
            </Field>
            <Field label="Return date">
              {(id) => (
                <input
                  id={id}
                  type="date"
                  min={filters.pickupDate || today}
                  value={filters.returnDate}
                  onChange={(event) => {
                    const returnDate = event.target.value;
                    if (!returnDate || returnDate < today) return;
                    if (filters.pickupDate) {
                      if (returnDate >= filters.pickupDate) onChange({ returnDate });
                      return;
                    }
                    // A return date alone: the window starts the day before (or today).
                    const dayBefore = addDays(returnDate, -1);
                    onChange({ pickupDate: dayBefore >= today ? dayBefore : today, returnDate });
                  }}
                  className={clsx(inputClasses, 'border-stone-300 px-2.5')}
                />
              )}
            </Field>
            <Field label="Return time">
              {(id) => (
                <input id={id} type="time" value={filters.returnTime} onChange={(event) => event.target.value && onChange({ returnTime: event.target.value })} className={clsx(inputClasses, 'border-stone-300 px-2.5')} />
              )}
            </Field>
          </div>
          {filters.pickupDate ? (
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => onChange({ pickupDate: '', returnDate: '' })} icon={<X className="size-4" aria-hidden="true" />}>
              Clear dates
            </Button>
          ) : (
            <p className="mt-2 text-xs text-stone-500">Any dates: pick a pickup date to see only the cars free then.</p>
          )}
        </Section>

        <Section title="Pickup and order">
          <div className="grid grid-cols-2 gap-2 lg:grid-cols-1">
            <Field label="Pickup type">
              {(id) => (
                <select id={id} value={filters.pickupType} onChange={(event) => onChange({ pickupType: event.target.value as PickupType })} className={selectClasses}>
                  {(Object.keys(PICKUP_TYPE_LABELS) as PickupType[]).map((type) => (
                    <option key={type} value={type}>
                      {PICKUP_TYPE_LABELS[type]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Sort by">
              {(id) => (
                <select
                  id={id}
                  value={filters.sort}
                  onChange={(event) => {
                    const sort = event.target.value as CarSort;
                    if (sort === 'DISTANCE' && !hasPosition) {
                      // The URL keeps the choice; distance needs a starting point, so the browser is
                      // asked for the position. Refused, the page says so and offers a city instead.
                      onChange({ sort });
                      void locate().then((position) => position && onChange({ lat: position.lat, lng: position.lng, near: '', sort }));
                      return;
                    }
                    onChange({ sort });
                  }}
                  className={selectClasses}
                >
                  {(Object.keys(SORT_LABELS) as CarSort[]).map((sort) => (
                    <option key={sort} value={sort}>
                      {SORT_LABELS[sort]}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
        </Section>

        {instantAllowed || filters.instantOnly ? (
          <Section title="Instant booking">
            <label className="flex cursor-pointer items-start gap-3 text-sm text-stone-700">
              <input
                type="checkbox"
                checked={filters.instantOnly}
                onChange={(event) => onChange({ instantOnly: event.target.checked })}
                className="mt-0.5 size-5 shrink-0 cursor-pointer rounded-md border-stone-300 accent-brand-600"
              />
              <span>
                <span className="font-medium text-stone-800">Instant booking only</span>
                <span className="block text-xs text-stone-500">Cars whose hosts confirm requests at once for renters who meet their requirements.</span>
              </span>
            </label>
          </Section>
        ) : null}

        <Section title="Price per day">
          <div className="space-y-3">
            <div className="flex items-center justify-between text-sm font-medium text-stone-800">
              <span>{formatRand(filters.minPrice)}</span>
              <span aria-hidden="true">–</span>
              <span>{filters.maxPrice >= DEFAULT_MAX_PRICE ? 'Any price' : formatRand(filters.maxPrice)}</span>
            </div>
            <Field label="Minimum price">
              {(id) => (
                <input
                  id={id}
                  type="range"
                  min={PRICE_SLIDER_MIN}
                  max={PRICE_SLIDER_MAX}
                  step={PRICE_SLIDER_STEP}
                  value={sliderMin}
                  aria-valuetext={formatRand(sliderMin)}
                  onChange={(event) => {
                    const minPrice = Number(event.target.value);
                    onChange({ minPrice, maxPrice: Math.max(filters.maxPrice, minPrice) });
                  }}
                  className="w-full accent-brand-600"
                />
              )}
            </Field>
            <Field label="Maximum price">
              {(id) => (
                <input
                  id={id}
                  type="range"
                  min={PRICE_SLIDER_MIN}
                  max={PRICE_SLIDER_MAX}
                  step={PRICE_SLIDER_STEP}
                  value={sliderMax}
                  aria-valuetext={filters.maxPrice >= DEFAULT_MAX_PRICE ? 'Any price' : formatRand(sliderMax)}
                  onChange={(event) => {
                    const maxPrice = Number(event.target.value);
                    onChange({ maxPrice, minPrice: Math.min(filters.minPrice, maxPrice) });
                  }}
                  className="w-full accent-brand-600"
                />
              )}
            </Field>
          </div>
        </Section>

        <Section title="Vehicle type" className="lg:col-span-2">
          <div className="flex flex-wrap gap-2">
            {BROWSE_TYPES.map((type) => (
              <Chip key={type} selected={filters.type === type} onClick={() => onChange({ type: filters.type === type ? '' : type })}>
                {type}
              </Chip>
            ))}
          </div>
          <div className="mt-5 grid gap-5 sm:grid-cols-2">
            <div>
              <p className="mb-2 text-sm font-semibold text-stone-900" id="transmission-label">
                Transmission
              </p>
              <div className="flex flex-wrap gap-2" role="group" aria-labelledby="transmission-label">
                {BROWSE_TRANSMISSIONS.map((value) => (
                  <Chip key={value} selected={filters.transmission === value} onClick={() => onChange({ transmission: filters.transmission === value ? '' : value })}>
                    {value}
                  </Chip>
                ))}
              </div>
            </div>
            <div>
              <p className="mb-2 text-sm font-semibold text-stone-900" id="fuel-label">
                Fuel
              </p>
              <div className="flex flex-wrap gap-2" role="group" aria-labelledby="fuel-label">
                {FUEL_TYPES.map((value) => (
                  <Chip key={value} selected={filters.fuel === value} onClick={() => onChange({ fuel: filters.fuel === value ? '' : value })}>
                    {value}
                  </Chip>
                ))}
              </div>
            </div>
          </div>
        </Section>

        <Section title="Features" className="lg:col-span-3">
          <div className="flex flex-wrap gap-2">
            {BROWSE_FEATURES.map((feature) => (
              <Chip key={feature} selected={filters.features.includes(feature)} onClick={() => toggleFeature(feature)}>
                {feature}
              </Chip>
            ))}
          </div>
        </Section>
      </div>

      <div className="mt-6 flex flex-col-reverse gap-2 border-t border-stone-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
        <Button variant="ghost" onClick={onClear}>
          Clear all filters
        </Button>
        <Button onClick={onClose}>{resultCount === undefined ? 'Show vehicles' : `Show ${resultCount} ${resultCount === '1' ? 'vehicle' : 'vehicles'}`}</Button>
      </div>
    </section>
  );
}
