// The browse page's state (document 2 section 2, advanced filter panel), kept in the URL's search
// params so it survives a reload and the back button, and turned into GET /car/getCarList params
// (decisions.md section 4: filters, sort and the date window are applied by the server).
// Defaults are left out of the URL, so a fresh /cars stays /cars. There is no date window until
// the renter sets one: /cars then lists every car, and its count is the landing page's.
// (docs/decisions/014).
import { addDays, BASE_CITIES, BROWSE_FEATURES, BROWSE_TRANSMISSIONS, BROWSE_TYPES, CAR_SORTS, FUEL_TYPES, PICKUP_TYPES, type CarSort, type PickupType } from '@karoo/shared';

export const PRICE_SLIDER_MIN = 0;
export const PRICE_SLIDER_MAX = 2000;
export const PRICE_SLIDER_STEP = 50;
/** The browse state's default price range (wider than the sliders, as the seed has it). */
export const DEFAULT_MIN_PRICE = 0;
export const DEFAULT_MAX_PRICE = 5000;
export const DEFAULT_BROWSE_TIME = '10:00';
/** Location search starts after more than 2 characters. */
export const LOCATION_MIN_CHARS = 3;
export const PAGE_SIZE = 12;

export type ViewMode = 'grid' | 'list';

export interface BrowseFilters {
  search: string;
  location: string;
  lat: number | null;
  lng: number | null;
  /**
   * A base city to measure distance from, when the renter chose one instead of sharing their
   * position (URL `near`): lat and lng are then that city's fixed coordinates.
   */
  near: string;
  /** 'YYYY-MM-DD', both set or both '' (no date window: every car, whatever its bookings). */
  pickupDate: string;
  returnDate: string;
  pickupTime: string;
  returnTime: string;
  pickupType: PickupType;
  /** Only cars that offer instant booking (URL `instant=1`; decision 078). */
  instantOnly: boolean;
  sort: CarSort;
  minPrice: number;
  maxPrice: number;
  type: string;
  transmission: string;
  fuel: string;
  features: string[];
  /**
   * "Search as I move the map": the map's view the list is limited to (`west,south,east,north`,
   * URL `bbox`), '' when off.
   */
  bbox: string;
  view: ViewMode;
  showMap: boolean;
  favouritesOnly: boolean;
}

export function defaultFilters(): BrowseFilters {
  return {
    search: '',
    location: '',
    lat: null,
    lng: null,
    near: '',
    pickupDate: '',
    returnDate: '',
    pickupTime: DEFAULT_BROWSE_TIME,
    returnTime: DEFAULT_BROWSE_TIME,
    pickupType: 'ALL',
    instantOnly: false,
    sort: 'RELEVANCE',
    minPrice: DEFAULT_MIN_PRICE,
    maxPrice: DEFAULT_MAX_PRICE,
    type: '',
    transmission: '',
    fuel: '',
    features: [],
    bbox: '',
    view: 'grid',
    showMap: false,
    favouritesOnly: false,
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = '-?\\d{1,3}(\\.\\d+)?';
const BBOX = new RegExp(`^${NUMBER},${NUMBER},${NUMBER},${NUMBER}$`);

/** A map view from the URL (`west,south,east,north` inside the world, west <= east, south <= north), or ''. */
export function parseBbox(value: string | null): string {
  if (!value || !BBOX.test(value)) return '';
  const [west, south, east, north] = value.split(',').map(Number) as [number, number, number, number];
  const ok = west >= -180 && east <= 180 && west <= east && south >= -90 && north <= 90 && south <= north;
  return ok ? value : '';
}
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function oneOf<T extends string>(values: readonly T[], value: string | null, fallback: T): T {
  const match = values.find((v) => v.toLowerCase() === (value ?? '').toLowerCase());
  return match ?? fallback;
}

function numberParam(value: string | null, fallback: number): number {
  if (value === null || value.trim() === '') return fallback;
  const n = Number(value);
  return Number.isFinite(n) ? n : fallback;
}

function coordinate(value: string | null, limit: number): number | null {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}

/**
 * The date window the renter asked for: a pickup date from today on, and a return on or after it
 * (the day after when missing or earlier). Anything else is no window at all.
 */
export function dateWindow(start: string | null, end: string | null, today: string): { pickupDate: string; returnDate: string } {
  const pickupDate = start ?? '';
  if (!DATE.test(pickupDate) || pickupDate < today) return { pickupDate: '', returnDate: '' };
  const returnDate = end && DATE.test(end) && end >= pickupDate ? end : addDays(pickupDate, 1);
  return { pickupDate, returnDate };
}

/** Reads the filters from the URL; anything missing or invalid takes its default. */
export function parseFilters(params: URLSearchParams, today: string): BrowseFilters {
  const d = defaultFilters();
  const { pickupDate, returnDate } = dateWindow(params.get('start'), params.get('end'), today);
  const city = BASE_CITIES.find((c) => c.name.toLowerCase() === (params.get('near') ?? '').trim().toLowerCase());
  const lat = city ? city.latitude : coordinate(params.get('lat'), 90);
  const lng = city ? city.longitude : coordinate(params.get('lng'), 180);
  const hasPosition = lat !== null && lng !== null;
  const features = (params.get('features') ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .map((f) => BROWSE_FEATURES.find((known) => known.toLowerCase() === f.toLowerCase()) ?? f);
  const minPrice = Math.max(0, numberParam(params.get('minPrice'), d.minPrice));
  const maxPrice = Math.max(minPrice, numberParam(params.get('maxPrice'), d.maxPrice));
  const view: ViewMode = params.get('view') === 'list' ? 'list' : 'grid';
  return {
    search: params.get('q') ?? '',
    location: params.get('location') ?? '',
    lat: hasPosition ? lat : null,
    lng: hasPosition ? lng : null,
    near: city?.name ?? '',
    pickupDate,
    returnDate,
    pickupTime: TIME.test(params.get('pickupTime') ?? '') ? params.get('pickupTime')! : d.pickupTime,
    returnTime: TIME.test(params.get('returnTime') ?? '') ? params.get('returnTime')! : d.returnTime,
    pickupType: oneOf(PICKUP_TYPES, params.get('pickupType'), d.pickupType),
    sort: oneOf(CAR_SORTS, params.get('sort'), d.sort),
    minPrice,
    maxPrice,
    type: oneOf(['', ...BROWSE_TYPES], params.get('type'), ''),
    transmission: oneOf(['', ...BROWSE_TRANSMISSIONS], params.get('transmission'), ''),
    fuel: oneOf(['', ...FUEL_TYPES], params.get('fuel'), ''),
    features: [...new Set(features)],
    bbox: parseBbox(params.get('bbox')),
    view,
    showMap: view === 'grid' && params.get('map') === '1',
    favouritesOnly: params.get('favourites') === '1',
    instantOnly: params.get('instant') === '1',
  };
}

/** Writes the filters that differ from the defaults. */
export function filtersToParams(filters: BrowseFilters): URLSearchParams {
  const d = defaultFilters();
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | null, fallback: string | number | null) => {
    if (value !== null && value !== '' && value !== fallback) params.set(key, String(value));
  };
  set('q', filters.search.trim(), '');
  set('location', filters.location.trim(), '');
  // A chosen city is kept by its name (its coordinates are the app's own); a shared position by its numbers.
  if (filters.near) params.set('near', filters.near);
  else if (filters.lat !== null && filters.lng !== null) {
    params.set('lat', filters.lat.toFixed(4));
    params.set('lng', filters.lng.toFixed(4));
  }
  if (filters.pickupDate && filters.returnDate) {
    params.set('start', filters.pickupDate);
    params.set('end', filters.returnDate);
  }
  set('pickupTime', filters.pickupTime, d.pickupTime);
  set('returnTime', filters.returnTime, d.returnTime);
  set('pickupType', filters.pickupType, d.pickupType);
  set('sort', filters.sort, d.sort);
  set('minPrice', filters.minPrice, d.minPrice);
  set('maxPrice', filters.maxPrice, d.maxPrice);
  set('type', filters.type, '');
  set('transmission', filters.transmission, '');
  set('fuel', filters.fuel, '');
  if (filters.features.length) params.set('features', filters.features.join(','));
  set('bbox', filters.bbox, '');
  set('view', filters.view, d.view);
  if (filters.showMap && filters.view === 'grid') params.set('map', '1');
  if (filters.favouritesOnly) params.set('favourites', '1');
  if (filters.instantOnly) params.set('instant', '1');
  return params;
}

export type CarListParams = Record<string, string | number | undefined>;

/** True when the renter asked to sort by distance but no starting point is known yet (the list falls back to relevance). */
export function needsDistanceStart(filters: Pick<BrowseFilters, 'sort' | 'lat' | 'lng'>): boolean {
  return filters.sort === 'DISTANCE' && (filters.lat === null || filters.lng === null);
}

/** The server's query for these filters (without page and limit). */
export function toCarListParams(filters: BrowseFilters): CarListParams {
  const hasPosition = filters.lat !== null && filters.lng !== null;
  const location = filters.location.trim();
  // DISTANCE needs the renter's position; without it the server would refuse the sort.
  const sort = filters.sort === 'DISTANCE' && !hasPosition ? 'RELEVANCE' : filters.sort;
  const params: CarListParams = {
    search: filters.search.trim() || undefined,
    location: location.length >= LOCATION_MIN_CHARS ? location : undefined,
    type: filters.type || undefined,
    transmission: filters.transmission || undefined,
    fuel: filters.fuel || undefined,
    features: filters.features.length ? filters.features.join(',') : undefined,
    minPrice: filters.minPrice > DEFAULT_MIN_PRICE ? filters.minPrice : undefined,
    maxPrice: filters.maxPrice < DEFAULT_MAX_PRICE ? filters.maxPrice : undefined,
    pickupType: filters.pickupType !== 'ALL' ? filters.pickupType : undefined,
    instant: filters.instantOnly ? 'true' : undefined,
    sort: sort !== 'RELEVANCE' ? sort : undefined,
    lat: hasPosition ? filters.lat! : undefined,
    lng: hasPosition ? filters.lng! : undefined,
    // Only a window the renter chose: none by default (docs/decisions/014).
    startDate: filters.pickupDate && filters.returnDate ? filters.pickupDate : undefined,
    endDate: filters.pickupDate && filters.returnDate ? filters.returnDate : undefined,
    bbox: filters.bbox || undefined,
  };
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as CarListParams;
}

/** How many filters of the panel differ from their defaults (shown on the Filters button). */
export function countActiveFilters(filters: BrowseFilters): number {
  const d = defaultFilters();
  let count = 0;
  if (filters.location.trim()) count++;
  if (filters.lat !== null) count++;
  if (filters.pickupDate || filters.returnDate) count++;
  if (filters.pickupType !== d.pickupType) count++;
  if (filters.instantOnly) count++;
  if (filters.sort !== d.sort) count++;
  if (filters.minPrice !== d.minPrice || filters.maxPrice !== d.maxPrice) count++;
  if (filters.type) count++;
  if (filters.transmission) count++;
  if (filters.fuel) count++;
  count += filters.features.length;
  if (filters.bbox) count++;
  return count;
}

/** Clearing keeps how the results are shown (view, map) and drops every filter. */
export function clearedFilters(filters: BrowseFilters): BrowseFilters {
  return { ...defaultFilters(), view: filters.view, showMap: filters.showMap };
}
