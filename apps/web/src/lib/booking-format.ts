// Booking display helpers shared by My Bookings, the dashboard and earnings: dates in en-ZA,
// durations, status colours, countdowns.
import { TIME_ZONE, type Booking, type BookingStatus } from '@karoo/shared';
import type { BadgeTone } from '@/components/ui/badge';

export const STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  active: 'Active',
  completed: 'Completed',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
};

export const STATUS_TONES: Record<BookingStatus, BadgeTone> = {
  pending: 'warning',
  confirmed: 'info',
  active: 'brand',
  completed: 'success',
  cancelled: 'neutral',
  rejected: 'danger',
};

/** The coloured stripe on the left of a booking card. */
export const STATUS_STRIPES: Record<BookingStatus, string> = {
  pending: 'border-l-amber-400',
  confirmed: 'border-l-sky-500',
  active: 'border-l-brand-500',
  completed: 'border-l-emerald-500',
  cancelled: 'border-l-stone-300',
  rejected: 'border-l-red-400',
};

const dateFormatter = new Intl.DateTimeFormat('en-ZA', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
const momentFormatter = new Intl.DateTimeFormat('en-ZA', { day: '2-digit', month: 'short', year: 'numeric', timeZone: TIME_ZONE });

/**
 * '01 Mar 2030'. A calendar date (YYYY-MM-DD) is shown as it is; a moment (an ISO timestamp such as
 * a refund's refunded_at) on Johannesburg's calendar, so 23:30 UTC is already the next day.
 */
export function formatDate(date: string): string {
  const isDay = date.length === 10;
  const d = new Date(isDay ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(d.getTime())) return date;
  return (isDay ? dateFormatter : momentFormatter).format(d);
}

export function formatDuration(b: Pick<Booking, 'is_hourly_booking' | 'duration_hours' | 'duration_days'>): string {
  if (b.is_hourly_booking && b.duration_hours != null) return `${b.duration_hours} ${b.duration_hours === 1 ? 'hour' : 'hours'}`;
  return `${b.duration_days} ${b.duration_days === 1 ? 'day' : 'days'}`;
}

/** 'Expires in 5 h 20 min' / 'Expires in 2 days'; null once passed. */
export function formatExpiresIn(expiresAt: string | null, now: Date = new Date()): string | null {
  if (!expiresAt) return null;
  const ms = new Date(expiresAt).getTime() - now.getTime();
  if (Number.isNaN(ms) || ms <= 0) return null;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `Expires in ${Math.max(1, minutes)} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `Expires in ${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return `Expires in ${days} ${days === 1 ? 'day' : 'days'} ${hours % 24} h`;
}
