// The map view (document 2 section 2): cars as price markers coloured by daily price, three tile
// styles, zoom 3-18, locate-me, and a detail panel for the selected car. Loaded on demand (it
// brings Leaflet): the browse page imports it with React.lazy. Without tiles (offline, tests) the
// markers and the panel still work on a plain background, and the map says so in plain words.
import 'leaflet/dist/leaflet.css';
import type { Car } from '@karoo/shared';
import { clsx } from 'clsx';
import L from 'leaflet';
import { Crosshair, Fuel, Gauge, Star, Users, X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CircleMarker, MapContainer, Marker, TileLayer } from 'react-leaflet';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatRand, formatRating, hasRating } from '@/lib/format';
import { GEOLOCATION_MESSAGES, useGeolocation, type Position } from '../../hooks/use-geolocation';
import { capitalise, carImages, carTitle, MARKER_CLASSES, markerColour } from '../../utils/car-display';
import { FavouriteButton } from '../favourite-button';
import { detailPath } from '../vehicle-card';
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
function priceIcon(car: Car, selected: boolean): L.DivIcon {
  const colour = markerColour(car.car_rent_price);
  const label = formatRand(car.car_rent_price);
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
    html: `<span class="${pill}" data-colour="${colour}"><span class="sr-only">${escapeHtml(carTitle(car))}, </span>${escapeHtml(label)}</span>`,
  });
}

const hasPosition = (car: Car) => car.latitude != null && car.longitude != null;

/** The middle of the cars' bounding box (South Africa without cars): the view opens there at zoom 6. */
function centreOf(cars: Car[]): [number, number] {
  if (!cars.length) return DEFAULT_CENTER;
  const lats = cars.map((c) => c.latitude!);
  const lngs = cars.map((c) => c.longitude!);
  return [(Math.min(...lats) + Math.max(...lats)) / 2, (Math.min(...lngs) + Math.max(...lngs)) / 2];
}

/** Shown on the map when no tile of the current style could load (offline, a bad connection). */
export const TILES_UNAVAILABLE_MESSAGE = "Map tiles can't load right now. Cars are still listed by city.";

export interface CarMapProps {
  cars: Car[];
  /** A car to centre on and open (the card's Map button). */
  focusCarId?: string | null;
  className?: string;
}

export default function CarMap({ cars, focusCarId = null, className }: CarMapProps) {
  const [map, setMap] = useState<L.Map | null>(null);
  const [style, setStyle] = useState<MapStyle>('map');
  const [notice, setNotice] = useState<string | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(focusCarId);
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

  const placed = useMemo(() => cars.filter(hasPosition), [cars]);
  const selected = placed.find((car) => car.id === selectedId) ?? null;
  const focusCar = placed.find((car) => car.id === focusCarId);
  const center: [number, number] = focusCar ? [focusCar.latitude!, focusCar.longitude!] : centreOf(placed);

  // A new focus car (another card's Map button): open it and bring it into view.
  useEffect(() => {
    if (!focusCarId) return;
    setSelectedId(focusCarId);
    const car = placed.find((c) => c.id === focusCarId);
    if (map && car) map.setView([car.latitude!, car.longitude!], Math.max(map.getZoom(), INITIAL_ZOOM));
  }, [focusCarId, map, placed]);

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
        center={center}
        zoom={INITIAL_ZOOM}
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
        {placed.map((car) => (
          <Marker
            key={car.id}
            position={[car.latitude!, car.longitude!]}
            icon={priceIcon(car, car.id === selectedId)}
            title={`${carTitle(car)}: ${formatRand(car.car_rent_price)} per day`}
            zIndexOffset={car.id === selectedId ? 1000 : 0}
            eventHandlers={{ click: () => setSelectedId(car.id) }}
          />
        ))}
        {me ? <CircleMarker center={[me.lat, me.lng]} radius={8} pathOptions={{ color: '#1d4ed8', fillColor: '#3b82f6', fillOpacity: 0.9, weight: 3 }} /> : null}
      </MapContainer>

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

      {selected ? <MapCarPanel car={selected} onClose={() => setSelectedId(null)} /> : null}
    </div>
  );
}

export function MapCarPanel({ car, onClose }: { car: Car; onClose: () => void }) {
  const name = carTitle(car);
  const panel = useRef<HTMLElement>(null);
  // The map can be taller than what is on screen: bring the panel into view.
  useEffect(() => {
    panel.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [car.id]);
  const image = carImages(car)[0];
  const spec = car.specifications;
  return (
    <section
      ref={panel}
      aria-label={`${name} details`}
      className="absolute inset-x-3 bottom-3 z-[600] mx-auto flex max-w-md gap-3 rounded-2xl bg-white p-3 shadow-pop ring-1 ring-stone-900/5"
    >
      <div className="h-24 w-28 shrink-0 overflow-hidden rounded-xl bg-stone-100 sm:w-32">
        {image ? <img src={image} alt={name} className="size-full object-cover" /> : null}
      </div>
      <div className="min-w-0 flex-1">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate text-sm font-semibold text-stone-900">{name}</h3>
            <p className="text-sm">
              <span className="font-bold text-stone-900">{formatRand(car.car_rent_price)}</span>
              <span className="text-stone-500"> / day · {car.car_type}</span>
            </p>
            <p className="flex items-center gap-1 text-xs font-semibold text-stone-700" data-testid="map-car-rating">
              <Star className={clsx('size-3.5 text-amber-400', hasRating(car.rating, car.totalReviews) && 'fill-amber-400')} aria-hidden="true" />
              {formatRating(car.rating, car.totalReviews)}
              {hasRating(car.rating, car.totalReviews) ? <span className="font-normal text-stone-500">({car.totalReviews})</span> : null}
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
            <Gauge className="size-3.5" aria-hidden="true" /> {capitalise(spec.transmission || car.transmission)}
          </li>
          <li className="flex items-center gap-1">
            <Fuel className="size-3.5" aria-hidden="true" /> {spec.fuelType || car.fuel_type}
          </li>
          <li className="flex items-center gap-1">
            <Users className="size-3.5" aria-hidden="true" /> {spec.seats || car.seating_capacity} seats
          </li>
        </ul>
        <Link to={detailPath(car)} className={buttonClasses({ size: 'sm', className: 'mt-2 h-8' })}>
          Book Now
        </Link>
      </div>
    </section>
  );
}
