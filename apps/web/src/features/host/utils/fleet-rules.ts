// The host dashboard's rules (document 2, host dashboard and section 5 'Host fleet management'):
// which status badge a car shows, when the availability toggle works, when a price edit applies,
// and the counters at the top of the page.
import type { BadgeTone } from '@/components/ui/badge';
import { isListedCar, type BookingStats, type Car } from '@karoo/shared';

export const PRICE_INPUT_MIN = 1;
export const PRICE_INPUT_STEP = 50;

const STATUS_LABELS: Record<Car['status'], { label: string; tone: BadgeTone }> = {
  available: { label: 'Available', tone: 'success' },
  offline: { label: 'Offline', tone: 'neutral' },
  active: { label: 'Active', tone: 'info' },
  rented: { label: 'Rented', tone: 'info' },
  maintenance: { label: 'Maintenance', tone: 'warning' },
};

export function carStatusBadge(status: Car['status']): { label: string; tone: BadgeTone } {
  return STATUS_LABELS[status] ?? { label: status, tone: 'neutral' };
}

/** The verification badge: only cars that are not verified carry one. */
export function verificationBadge(car: Pick<Car, 'verification_status'>): { label: string; tone: BadgeTone } | null {
  if (car.verification_status === 'pending_verification') return { label: 'Pending verification', tone: 'warning' };
  if (car.verification_status === 'rejected') return { label: 'Rejected', tone: 'danger' };
  return null;
}

export function isOnRental(car: Pick<Car, 'status' | 'isRented'>): boolean {
  return car.isRented || car.status === 'rented' || car.status === 'active';
}

/**
 * What the availability switch means for renters, true to the car's whole state: a car switched on
 * is listed only once Karoo has verified it (isListedCar), and a switched-off one stays hidden after.
 */
export function availabilityHint(car: Pick<Car, 'status' | 'isRented' | 'verification_status'>): string {
  if (isOnRental(car)) return 'Locked while the car is on a rental';
  const on = car.status === 'available';
  if (car.verification_status === 'pending_verification') return on ? 'Renters can book it once it is verified' : 'Stays hidden from renters after it is verified';
  if (car.verification_status === 'rejected') return 'Hidden from renters until the car is approved';
  return isListedCar(car) ? 'Listed: renters can find and book it' : 'Hidden from renters';
}

/** The available/offline toggle is disabled while the car is active or rented. */
export function canToggleAvailability(car: Pick<Car, 'status' | 'isRented'>): boolean {
  return !isOnRental(car);
}

/** 'Mark as Returned' shows only while the car is rented. */
export function canMarkReturned(car: Pick<Car, 'status' | 'isRented'>): boolean {
  return car.isRented || car.status === 'rented';
}

/**
 * The price an edit sets, or null when it does not apply: a price edit applies only when the new
 * price is above 0 (and differs from the current one).
 */
export function priceEditValue(text: string, current: number): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value) || !(value > 0)) return null;
  const rounded = Math.round(value * 100) / 100;
  return rounded === current ? null : rounded;
}

export interface HostStats {
  cars: number;
  rented: number;
  /** null until the server's counts of the bookings on the host's cars are known. */
  pendingRequests: number | null;
  confirmedBookings: number | null;
  /** The server's sum of the stored host earnings (the bookings that earn: one rule, on the server). */
  totalEarnings: number | null;
}

/** The dashboard's counters: cars from the fleet, bookings and earnings from the server's aggregates. */
export function hostStats(cars: readonly Car[], ownerStats: Pick<BookingStats, 'pending' | 'confirmed' | 'total_earnings'> | null | undefined): HostStats {
  const rented = cars.filter(isOnRental).length;
  if (!ownerStats) return { cars: cars.length, rented, pendingRequests: null, confirmedBookings: null, totalEarnings: null };
  return {
    cars: cars.length,
    rented,
    pendingRequests: ownerStats.pending,
    confirmedBookings: ownerStats.confirmed,
    totalEarnings: ownerStats.total_earnings,
  };
}
