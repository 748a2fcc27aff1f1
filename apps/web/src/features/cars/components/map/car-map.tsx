// The map view (document 2 section 2; issue 22, decision 046): every car matching the browse
// filters in the view, from GET /api/car/map: clusters (a circle with how many cars, which zooms
// in when clicked) where cars crowd, price markers coloured by daily price elsewhere, opening the
// car's card. "Search as I move the map" limits the list to the view (the bbox filter). Three tile
// styles, zoom 3-18, locate-me. Loaded on demand (it brings Leaflet): the browse page imports it
// with React.lazy. Without tiles (offline, tests) the markers and the panel still work on a plain
// background, and the map says so in plain words.
import 'leaflet/dist/leaflet.css';
import { AREA_RADIUS_METRES, carCardOf, EXACT_PLACE_AFTER_PAYMENT, type CarCard, type CarMap as CarMapAnswer, type MapCar, type MapCluster } from '@karoo/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { clsx } from 'clsx';
import L from 'leaflet';
import { Crosshair, Fuel, Gauge, Star, Users, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Circle, CircleMarker, MapContainer, Marker, TileLayer, useMapEvents } from 'react-leaflet';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { apiClient } from '@/lib/api-client';
import { formatRand, formatRating, hasRating } from '@/lib/format';
import { useInstantBookingAllowed } from '@/lib/queries/settings';
import { queryKeys } from '@/lib/query-keys';
import { pathWithTrip, type TripDates } from '@/lib/trip-dates';
import { useCar } from '../../api/get-car';
import { GEOLOCATION_MESSAGES, useGeolocation, type Position } from '../../hooks/use-geolocation';
import type { CarListParams } from '../../utils/browse-filters';
import { capitalise, MARKER_CLASSES, markerColour } from '../../utils/car-display';
import { CardPhotoImage, detailPath } from '../vehicle-card';
import { FavouriteButton } from '../favourite-button';
import {
  DEFAULT_CENTER,
  INITIAL_ZOOM,
  LABEL_TILES,
  LOCATE_ZOOM,
  MAP_STYLES,
  MAX_BOUNDS,
  MAX_ZOOM,
  MIN_ZOOM,
  SATELLITE_TILES,
  STREET_TILES,
  TILE_SIZE,
  type MapStyle,
} from './map-config';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A price pill anchored at its bottom centre (a divIcon: no marker image files needed). */
function priceIcon(car: MapCar, selected: boolean): L.DivIcon {
  const colour = markerColour(car.price_per_day);
  const label = formatRand(car.price_per_day);
  // The icon box matches the pill, so the whole pill is the click target.
  const width = Math.ceil(label.length * 7.5 + 22);
  const height = 26;
  const pill = clsx(
    'flex size-full items-center justify-center whitespace-nowrap rounded-full text-xs font-bold shadow-md ring-1 transition',
    MARKER_CLASSES[colour],
    selected && 'scale-110 ring-2 ring-stone-900',
  );
  return L.divIcon({
    className: 'karoo-price-marker',
    iconSize: [width, height],
    iconAnchor: [width / 2, height],
    html: `<span class="${pill}" data-colour="${colour}"><span class="sr-only">${escapeHtml(car.title)}, </span>${escapeHtml(label)}</span>`,
  });
}

/** A cluster: a circle with how many cars it holds, bigger as it holds more. */
function clusterIcon(cluster: MapCluster): L.DivIcon {
  const size = cluster.count < 10 ? 34 : cluster.count < 100 ? 40 : cluster.count < 1000 ? 48 : 56;
  const label = cluster.count < 1000 ? String(cluster.count) : `${Math.floor(cluster.count / 1000)}k+`;
  return L.divIcon({
    className: 'karoo-cluster-marker',
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
    html: `<span class="flex size-full items-center justify-center rounded-full bg-stone-900/90 text-xs font-bold text-white shadow-md ring-4 ring-white/70" data-count="${cluster.count}">${label}</span>`,
  });
}

/** A view as the API takes it: `west,south,east,north`, rounded, inside the world. */
export function bboxOf(bounds: L.LatLngBounds): string {
  const clamp = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  return [clamp(bounds.getWest(), 180), clamp(bounds.getSouth(), 90), clamp(bounds.getEast(), 180), clamp(bounds.getNorth(), 90)].map(round).join(',');
}

/** `west,south,east,north` as Leaflet bounds, or null when it is not one. */
export function boundsOf(bbox: string | null | undefined): L.LatLngBoundsExpression | null {
  const parts = (bbox ?? '').split(',').map(Number);
  if (parts.length !== 4 || !parts.every(Number.isFinite)) return null;
  const [west, south, east, north] = parts as [number, number, number, number];
  return [
    [south, west],
    [north, east],
  ];
}

export async function getCarMap(params: CarListParams, signal?: AbortSignal): Promise<CarMapAnswer> {
  const result = await apiClient.get<CarMapAnswer>('/car/map', { query: params, signal });
  return result.data;
}

/** Tells the view (bbox and zoom) once the map is ready and after every move or zoom. */
function ViewWatcher({ onView }: { onView: (view: { bbox: string; zoom: number }) => void }) {
  const map = useMapEvents({
    moveend: () => onView({ bbox: bboxOf(map.getBounds()), zoom: map.getZoom() }),
  });
  useEffect(() => {
    onView({ bbox: bboxOf(map.getBounds()), zoom: map.getZoom() });
    // Once, when the map is ready; moves are told by moveend.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map]);
  return null;
}

/** Shown on the map when no tile of the current style could load (offline, a bad connection). */
export const TILES_UNAVAILABLE_MESSAGE = "Map tiles can't load right now. Cars are still listed by city.";

/** Zoom to a car when a card's Map button shows it. */
const FOCUS_ZOOM = 14;

export interface CarMapProps {
  /** The list's filters (the map takes the same; its sort, position and view are its own). */
  params: CarListParams;
  /** A car to centre on and open (the card's Map button). */
  focusCar?: Pick<CarCard, 'id' | 'latitude' | 'longitude'> | null;
  /** "Search as I move the map": the view the list is limited to (`west,south,east,north`), or null when off. */
  searchArea?: string | null;
  /** Turns "Search as I move the map" on (with the view) or off (null); without it the checkbox is not shown. */
  onSearchAreaChange?: (bbox: string | null) => void;
  /** The searched dates: a car's Book Now carries them to its page, as the cards' links do. */
  trip?: TripDates | null;
  className?: string;
}

export default function CarMap({ params, focusCar = null, searchArea = null, onSearchAreaChange, trip = null, className }: CarMapProps) {
  const [map, setMap] = useState<L.Map | null>(null);
  const [style, setStyle] = useState<MapStyle>('map');
  const [notice, setNotice] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(focusCar?.id ?? null);
  const [view, setView] = useState<{ bbox: string; zoom: number } | null>(null);
  const searching = searchArea !== null;
  const onView = (next: { bbox: string; zoom: number }) => {
    setView((current) => (current && current.bbox === next.bbox && current.zoom === next.zoom ? current : next));
    if (searching && onSearchAreaChange && next.bbox !== searchArea) onSearchAreaChange(next.bbox);
  };
  // The map's own query: the list's filters without its sort, position and view.
  const mapFilters = useMemo(() => {
    const { sort: _sort, lat: _lat, lng: _lng, bbox: _bbox, ...rest } = params;
    return rest;
  }, [params]);
  const mapQuery = view ? { ...mapFilters, bbox: view.bbox, zoom: view.zoom } : null;
  const answer = useQuery({
    queryKey: queryKeys.cars.map(mapQuery ?? {}),
    queryFn: ({ signal }) => getCarMap(mapQuery!, signal),
    enabled: mapQuery !== null,
    placeholderData: keepPreviousData,
  });
  const clusters = answer.data?.clusters ?? [];
  const singles = answer.data?.cars ?? [];
  const selectedCar = useCar(selectedId ?? undefined);
  const instantAllowed = useInstantBookingAllowed({ enabled: !!selectedCar.data });
  const selected = useMemo(() => (selectedCar.data ? carCardOf(selectedCar.data, { instantAllowed }) : null), [selectedCar.data, instantAllowed]);
  const selectedPlace =
    selectedCar.data && selectedCar.data.latitude != null && selectedCar.data.longitude != null
      ? { at: [selectedCar.data.latitude, selectedCar.data.longitude] as [number, number], exact: selectedCar.data.exact_place }
      : null;
  const [me, setMe] = useState<Position | null>(null);
  const { locate, isLocating, failure: locateFailure } = useGeolocation();
  // Tiles of the current style: failed when some failed and none loaded (a grey square otherwise).
  const tileCounts = useRef({ loaded: 0, failed: 0 });
  const [tilesFailed, setTilesFailed] = useState(false);
  useEffect(() => {
    tileCounts.current = { loaded: 0, failed: 0 };
    setTilesFailed(false);
  }, [style]);
  const tileEvents = useMemo(
    () => ({
      tileload: () => {
        tileCounts.current.loaded += 1;
        setTilesFailed(false);
      },
      tileerror: () => {
        tileCounts.current.failed += 1;
        if (tileCounts.current.loaded === 0) setTilesFailed(true);
      },
    }),
    [],
  );

  const focusPosition: [number, number] | null = focusCar && focusCar.latitude != null && focusCar.longitude != null ? [focusCar.latitude, focusCar.longitude] : null;
  // The first view: the focused car, else the searched area, else the whole country.
  const [initialBounds] = useState(() => (focusPosition ? null : boundsOf(searchArea)));
  const center: [number, number] = focusPosition ?? DEFAULT_CENTER;

  // A new focus car (another card's Map button): open it and bring it into view.
  const focusId = focusCar?.id ?? null;
  useEffect(() => {
    if (!focusId) return;
    setSelectedId(focusId);
    if (map && focusPosition) map.setView(focusPosition, Math.max(map.getZoom(), FOCUS_ZOOM));
    // The position comes with the id.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusId, map]);

  const onImageryError = () => {
    // Imagery unavailable: fall back to the standard street tiles (once).
    if (style !== 'map') {
      setStyle('map');
      setNotice('Satellite imagery is unavailable right now; showing the street map.');
    }
  };

  const locateMe = async () => {
    const position = await locate();
    if (!position) return; // the notice below says why
    setMe(position);
    map?.flyTo([position.lat, position.lng], Math.max(map.getZoom(), LOCATE_ZOOM));
  };

  return (
    <div className={clsx('relative isolate overflow-hidden rounded-2xl border border-stone-200 bg-stone-100', className)} data-testid="car-map">
      <MapContainer
        ref={setMap}
        {...(initialBounds ? { bounds: initialBounds } : { center, zoom: focusPosition ? FOCUS_ZOOM : INITIAL_ZOOM })}
        minZoom={MIN_ZOOM}
        maxZoom={MAX_ZOOM}
        maxBounds={MAX_BOUNDS}
        maxBoundsViscosity={1}
        worldCopyJump={false}
        zoomControl
        dragging
        scrollWheelZoom
        doubleClickZoom
        className="size-full"
        aria-label="Map of vehicles"
      >
        {style === 'map' ? (
          <TileLayer
            key="map"
            url={STREET_TILES.url}
            attribution={STREET_TILES.attribution}
            tileSize={TILE_SIZE}
            maxZoom={MAX_ZOOM}
            minZoom={MIN_ZOOM}
            eventHandlers={tileEvents}
          />
        ) : (
          <TileLayer
            key="imagery"
            url={SATELLITE_TILES.url}
            attribution={SATELLITE_TILES.attribution}
            tileSize={TILE_SIZE}
            maxZoom={MAX_ZOOM}
            minZoom={MIN_ZOOM}
            eventHandlers={{ tileload: tileEvents.tileload, tileerror: onImageryError }}
          />
        )}
        {style === 'hybrid' ? (
          <TileLayer key="labels" url={LABEL_TILES.url} attribution={LABEL_TILES.attribution} tileSize={TILE_SIZE} maxZoom={MAX_ZOOM} minZoom={MIN_ZOOM} />
        ) : null}
        <ViewWatcher onView={onView} />
        {clusters.map((cluster) => (
          <Marker
            key={`cluster-${cluster.cluster_id}`}
            position={[cluster.latitude, cluster.longitude]}
            icon={clusterIcon(cluster)}
            title={`${cluster.count} cars here: zoom in`}
            eventHandlers={{ click: () => map?.flyTo([cluster.latitude, cluster.longitude], Math.min(cluster.expansion_zoom, MAX_ZOOM)) }}
          />
        ))}
        {singles.map((car) => (
          <Marker
            key={car.id}
            position={[car.latitude, car.longitude]}
            icon={priceIcon(car, car.id === selectedId)}
            title={`${car.title}: ${formatRand(car.price_per_day)} per day`}
            zIndexOffset={car.id === selectedId ? 1000 : 0}
            eventHandlers={{ click: () => setSelectedId(car.id) }}
          />
        ))}
        {selectedPlace ? (
          selectedPlace.exact ? (
            // The host, an admin or a paid renter: the exact place.
            <CircleMarker center={selectedPlace.at} radius={7} className="karoo-exact-place" pathOptions={{ color: '#0c0a09', fillColor: '#ffffff', fillOpacity: 1, weight: 3 }} />
          ) : (
            // Everyone else: the area, a circle that holds the exact place (decision 055).
            <Circle center={selectedPlace.at} radius={AREA_RADIUS_METRES} className="karoo-area-circle" pathOptions={{ color: '#b45309', fillColor: '#f59e0b', fillOpacity: 0.12, weight: 2 }} />
          )
        ) : null}
        {me ? <CircleMarker center={[me.lat, me.lng]} radius={8} pathOptions={{ color: '#1d4ed8', fillColor: '#3b82f6', fillOpacity: 0.9, weight: 3 }} /> : null}
      </MapContainer>

      {answer.data ? (
        <p className="sr-only" role="status" data-testid="map-count">
          {answer.data.total} {answer.data.total === 1 ? 'car' : 'cars'} in this part of the map
        </p>
      ) : null}
      {answer.data?.capped ? (
        <p role="status" className="absolute bottom-12 left-1/2 z-[500] -translate-x-1/2 rounded-lg bg-white px-3 py-2 text-xs text-stone-700 shadow-md">
          Too many cars to show here at once: zoom in to see them all.
        </p>
      ) : null}

      <div className="absolute top-3 right-3 z-[500] flex flex-col items-end gap-2">
        <div role="group" aria-label="Map style" className="flex rounded-xl bg-white p-1 shadow-md ring-1 ring-stone-900/5">
          {MAP_STYLES.map((option) => (
            <button
              key={option.id}
              type="button"
              aria-pressed={style === option.id}
              onClick={() => {
                setNotice(null);
                setStyle(option.id);
              }}
              className={clsx(
                'rounded-lg px-2.5 py-1.5 text-xs font-semibold transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                style === option.id ? 'bg-stone-900 text-white' : 'text-stone-600 hover:bg-stone-100',
              )}
            >
              {option.label}
            </button>
          ))}
        </div>
        {/* Under the map styles, so the two never cover each other on a narrow map. */}
        {onSearchAreaChange ? (
          <label className="flex items-center gap-2 rounded-xl bg-white px-3 py-2 text-xs font-semibold whitespace-nowrap text-stone-800 shadow-md ring-1 ring-stone-900/5">
            <input
              type="checkbox"
              checked={searching}
              onChange={(event) => onSearchAreaChange(event.target.checked && map ? bboxOf(map.getBounds()) : null)}
              className="size-4 accent-brand-600"
            />
            Search as I move the map
          </label>
        ) : null}
        <button
          type="button"
          onClick={() => void locateMe()}
          aria-label="Show my location"
          title="Show my location"
          className="flex size-9 items-center justify-center rounded-xl bg-white text-stone-700 shadow-md ring-1 ring-stone-900/5 hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          {isLocating ? <Spinner /> : <Crosshair className="size-4" aria-hidden="true" />}
        </button>
      </div>

      <div className="pointer-events-none absolute bottom-3 left-3 z-[500] hidden gap-2 rounded-xl bg-white/95 px-3 py-2 text-[11px] font-medium text-stone-600 shadow-sm sm:flex" aria-label="Price bands">
        <span className="flex items-center gap-1">
          <span className="size-2.5 rounded-full bg-emerald-700" aria-hidden="true" /> up to R500
        </span>
        <span className="flex items-center gap-1">
          <span className="size-2.5 rounded-full bg-amber-400" aria-hidden="true" /> up to R1 000
        </span>
        <span className="flex items-center gap-1">
          <span className="size-2.5 rounded-full bg-red-700" aria-hidden="true" /> above
        </span>
      </div>

      {tilesFailed && style === 'map' ? (
        // Over the empty background, out of the way of clicks: the markers still work.
        <div className="pointer-events-none absolute inset-0 z-[450] flex items-center justify-center p-6">
          <p role="status" className="max-w-xs rounded-xl bg-white/95 px-4 py-3 text-center text-sm font-medium text-stone-700 shadow-md ring-1 ring-stone-900/5" data-testid="map-tiles-unavailable">
            {TILES_UNAVAILABLE_MESSAGE}
          </p>
        </div>
      ) : null}

      {locateFailure && !notice ? (
        <p role="status" className="absolute top-3 left-14 z-[500] max-w-[60%] rounded-lg bg-white px-3 py-2 text-xs text-stone-700 shadow-md">
          {GEOLOCATION_MESSAGES[locateFailure]} Your position is not shown on the map.
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="absolute top-3 left-14 z-[500] max-w-[60%] rounded-lg bg-white px-3 py-2 text-xs text-stone-700 shadow-md">
          {notice}
        </p>
      ) : null}

      {selected ? <MapCarPanel car={selected} trip={trip} areaOnly={!selectedCar.data?.exact_place} onClose={() => setSelectedId(null)} /> : null}
    </div>
  );
}

export function MapCarPanel({
  car,
  trip = null,
  onClose,
  areaOnly = false,
}: {
  car: CarCard;
  trip?: TripDates | null;
  onClose: () => void;
  /** The car's place is its area (decision 055). */
  areaOnly?: boolean;
}) {
  const name = car.title;
  const panel = useRef<HTMLElement>(null);
  // The map can be taller than what is on screen: bring the panel into view.
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [car.id]);
  return (
    <section
      ref={panel}
      aria-label={`${name} details`}
      className="absolute inset-x-3 bottom-3 z-[600] mx-auto flex max-w-md gap-3 rounded-2xl bg-white p-3 shadow-pop ring-1 ring-stone-900/5"
    >
      <div className="h-24 w-28 shrink-0 overflow-hidden rounded-xl bg-stone-100 sm:w-32">
        <CardPhotoImage photo={car.photo} alt={name} sizes="128px" />
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate text-sm font-semibold text-stone-900">{name}</h3>
            <p className="text-sm">
              <span className="font-bold text-stone-900">{formatRand(car.price_per_day)}</span>
              <span className="text-stone-500"> / day · {car.car_type}</span>
            </p>
            <p className="flex items-center gap-1 text-xs font-semibold text-stone-700" data-testid="map-car-rating">
              <Star className={clsx('size-3.5 text-amber-400', hasRating(car.rating, car.reviews) && 'fill-amber-400')} aria-hidden="true" />
              {formatRating(car.rating, car.reviews)}
              {hasRating(car.rating, car.reviews) ? <span className="font-normal text-stone-500">({car.reviews})</span> : null}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <FavouriteButton car={{ id: car.id, car_username: car.car_username, name }} variant="plain" className="size-8" />
            <button
              type="button"
              onClick={onClose}
              aria-label="Close details"
              className="flex size-8 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
        </div>
        <ul className="mt-1.5 flex flex-wrap gap-x-3 gap-y-1 text-xs text-stone-600">
          <li className="flex items-center gap-1">
            <Gauge className="size-3.5" aria-hidden="true" /> {capitalise(car.transmission)}
          </li>
          <li className="flex items-center gap-1">
            <Fuel className="size-3.5" aria-hidden="true" /> {car.fuel_type}
          </li>
          <li className="flex items-center gap-1">
            <Users className="size-3.5" aria-hidden="true" /> {car.seats} seats
          </li>
        </ul>
        {areaOnly ? (
          <p className="mt-1 text-xs text-stone-500" data-testid="map-car-area">
            {car.location ? `${car.location}: ` : ''}the circle shows the area. {EXACT_PLACE_AFTER_PAYMENT}.
          </p>
        ) : null}
        <Link to={pathWithTrip(detailPath(car), trip)} className={buttonClasses({ size: 'sm', className: 'mt-2 h-8' })}>
          Book Now
        </Link>
      </div>
    </section>
  );
}
