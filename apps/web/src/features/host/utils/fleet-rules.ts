// The host dashboard's rules (document 2, host dashboard and section 5 'Host fleet management'):
// which status badge a car shows, when the availability toggle works, when a price edit applies,
// and the counters at the top of the page.
import type { BadgeTone } from '@/components/ui/badge';
import type { Booking, Car } from '@karoo/shared';

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
  /** null while the bookings list is not available from the server. */
  pendingRequests: number | null;
  confirmedBookings: number | null;
  totalEarnings: number | null;
}

/** Host earnings count once a booking is paid or completed (the stored car_owner_earnings). */
function isEarning(booking: Pick<Booking, 'status' | 'payment_status'>): boolean {
  if (booking.status === 'cancelled' || booking.status === 'rejected') return false;
  return booking.status === 'completed' || booking.status === 'active' || booking.payment_status === 'paid';
}

export function hostStats(cars: readonly Car[], bookings: readonly Booking[] | null | undefined): HostStats {
  const rented = cars.filter(isOnRental).length;
  if (!bookings) return { cars: cars.length, rented, pendingRequests: null, confirmedBookings: null, totalEarnings: null };
  return {
    cars: cars.length,
    rented,
    pendingRequests: bookings.filter((b) => b.status === 'pending').length,
    confirmedBookings: bookings.filter((b) => b.status === 'confirmed').length,
    totalEarnings: bookings.filter(isEarning).reduce((sum, b) => sum + (b.car_owner_earnings || 0), 0),
  };
}
