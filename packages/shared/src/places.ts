// Where a car is, as each viewer may know it (issue 32, decision 055). Until a trip is paid a car's
// place is an area: the suburb and city of its pickup location and a position on a grid of about
// 1 km, the same for everyone and every request. The exact pickup place and the number plate are
// for the car's host, administrators and the renter of a paid trip of that car. The server decides
// (mayKnowExactPlace) and answers only what the viewer may know; the web draws what it is given. No
// schema in this module: the public pages import it (decision 053).
import { BASE_CITIES } from './cities';
import { isAdmin, type RoleBearer } from './roles';

/** The radius of the circle the map draws around an approximate position: it holds the exact one (decision 055). */
export const AREA_RADIUS_METRES = 1000;

/** What the screens say where the exact place is not shown yet. */
/** In place of the plate, until then. */
export const PLATE_AFTER_PAYMENT = 'Shown after payment';
export const EXACT_PLACE_AFTER_PAYMENT = 'Exact address after payment';

/** The booking statuses of a paid trip: paid and not called off (the payment moves a booking to active; a return completes it). */
export const PAID_TRIP_STATUSES = ['active', 'completed'] as const;

/** Whether a booking is a paid trip: the renter of one may know the car's exact place and plate. */
export function isPaidTrip(booking: { status: string; payment_status: string }): boolean {
  return booking.payment_status === 'paid' && (PAID_TRIP_STATUSES as readonly string[]).includes(booking.status);
}

/**
 * The one rule (decision 055): the car's host and administrators know its exact place and plate,
 * and so does a renter with a paid trip of that car (`hasPaidTrip`); everyone else, signed in or
 * not, an area.
 */
export function mayKnowExactPlace(viewer: ({ id: string } & RoleBearer) | null | undefined, car: { owner_id: string }, hasPaidTrip: boolean): boolean {
  if (!viewer) return false;
  return viewer.id === car.owner_id || isAdmin(viewer) || hasPaidTrip;
}

/** A part of an address that names a street (a number, a road word): never in an area. */
const STREET_PART = /\d|\b(st|str|street|rd|road|ave|avenue|dr|drive|blvd|boulevard|ln|lane|way|cres|crescent|cl|close|pl|place|hwy|highway|cnr|corner|esplanade|terrace|tce|square|sq)\b/i;

/**
 * The area an address names: its suburb and city ("22 Kloof St, Gardens, Cape Town, 8001" is
 * "Gardens, Cape Town"), the parts that name no street, number or postal code, the last two of
 * them. An address with nothing else ("22 Kloof St") is the base city nearest to `near`, or ''.
 */
export function areaOf(address: string, near?: { latitude: number | null; longitude: number | null }): string {
  const parts = address
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter((part) => part && !STREET_PART.test(part));
  if (parts.length) return parts.slice(-2).join(', ');
  return near ? nearestBaseCity(near) ?? '' : '';
}

function nearestBaseCity({ latitude, longitude }: { latitude: number | null; longitude: number | null }): string | null {
  if (latitude == null || longitude == null) return null;
  let best: { name: string; d: number } | null = null;
  for (const city of BASE_CITIES) {
    const d = (city.latitude - latitude) ** 2 + ((city.longitude - longitude) * Math.cos((latitude * Math.PI) / 180)) ** 2;
    if (!best || d < best.d) best = { name: city.name, d };
  }
  return best?.name ?? null;
}
