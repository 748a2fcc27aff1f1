// Booking display helpers shared by My Bookings, the dashboard and earnings: dates in en-ZA,
// durations, status colours, countdowns, and what a booking's state means to the person reading it.
import { formatMoment, formatShortDay, hasDayStarted, lazily, localInstant, TIME_ZONE, todayIn, type Booking, type BookingStatus } from '@karoo/shared';
import type { BadgeTone } from '@/components/ui/badge';

/**
 * A status in plain words, for filters and counts. The stored 'active' means paid (the trip may be
 * days away), so it is never shown as "Active"; one booking's card says more (bookingStateLabel).
 */
export const STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Requested',
  confirmed: 'Accepted',
  active: 'Paid',
  completed: 'Completed',
  cancelled: 'Cancelled',
  rejected: 'Declined',
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

const dateFormatter = lazily(() => new Intl.DateTimeFormat('en-ZA', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const momentFormatter = lazily(() => new Intl.DateTimeFormat('en-ZA', { day: '2-digit', month: 'short', year: 'numeric', timeZone: TIME_ZONE }));

/**
 * '01 Mar 2030'. A calendar date (YYYY-MM-DD) is shown as it is; a moment (an ISO timestamp such as
 * a refund's refunded_at) on Johannesburg's calendar, so 23:30 UTC is already the next day.
 */
export function formatDate(date: string): string {
  const isDay = date.length === 10;
  const d = new Date(isDay ? `${date}T00:00:00Z` : date);
  if (Number.isNaN(d.getTime())) return date;
  return (isDay ? dateFormatter() : momentFormatter()).format(d);
}

/**
 * How a booking's other party is named on its card and in its dialogs: the same rule for both sides
 * (full name, as notifications name people, decision 015; the username when none is set). The host's
 * full name is public on the car page; the renter's is shown to the host from the request on.
 */
export function partyName(person: { full_name: string; username: string }): string {
  return person.full_name.trim() || person.username;
}

/** The trip's start and end, dates and times: '01 Mar 2030 09:00 – 03 Mar 2030 17:00'. */
export function formatTripSpan(b: Pick<Booking, 'start_date' | 'start_time' | 'end_date' | 'end_time'>): string {
  const at = (date: string, time: string) => `${formatDate(date)}${time ? ` ${time}` : ''}`;
  return `${at(b.start_date, b.start_time)} – ${at(b.end_date, b.end_time)}`;
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

export type BookingViewer = 'renter' | 'owner';

type StateFields = Pick<
  Booking,
  'status' | 'payment_status' | 'start_date' | 'end_date' | 'start_time' | 'end_time' | 'is_hourly_booking' | 'expires_at'
>;

/** How late a return is, by the started hour: "1 h", "21 h", then "2 days 3 h" from 48 hours. */
export function lateFor(ms: number): string {
  const hours = Math.max(1, Math.ceil(ms / 3_600_000));
  if (hours < 48) return `${hours} h`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest ? `${days} days ${rest} h` : `${days} days`;
}

/**
 * What the booking means to the person reading it, and what they need to know next, e.g. "Paid ·
 * starts Tue 8 Dec" or "Accepted · pay by Wed 9 Dec, 14:00". Days and deadlines are Johannesburg's
 * (the shared formatters); an hourly trip also names the hour.
 */
export function bookingStateLabel(booking: StateFields, viewer: BookingViewer, now: Date = new Date()): { label: string; tone: BadgeTone } {
  const day = (date: string, time: string) => `${formatShortDay(date, now)}${booking.is_hourly_booking && time ? `, ${time}` : ''}`;
  const deadline = booking.expires_at ? formatMoment(booking.expires_at, now) : null;
  const paid = booking.payment_status === 'paid';
  switch (booking.status) {
    case 'pending':
      if (viewer === 'owner') return { label: deadline ? `New request · answer by ${deadline}` : 'New request · awaiting your answer', tone: 'warning' };
      return { label: "Awaiting host's answer", tone: 'warning' };
    case 'confirmed':
      if (!paid) {
        if (viewer === 'owner') return { label: deadline ? `Accepted · renter pays by ${deadline}` : 'Accepted · awaiting payment', tone: 'info' };
        return { label: deadline ? `Accepted · pay by ${deadline}` : 'Accepted · awaiting payment', tone: 'info' };
      }
      return { label: `Paid · starts ${day(booking.start_date, booking.start_time)}`, tone: 'brand' };
    case 'active':
      if (!hasDayStarted(booking.start_date, now)) return { label: `Paid · starts ${day(booking.start_date, booking.start_time)}`, tone: 'brand' };
      {
        // Past the return without an accepted change: late by the started hour (issue 36), for both sides.
        const due = localInstant(booking.end_date, booking.end_time || '23:59');
        if (now.getTime() > due.getTime()) {
          const late = lateFor(now.getTime() - due.getTime());
          const when = formatMoment(due, now);
          return { label: viewer === 'owner' ? `Not returned · ${late} late (due ${when})` : `Return overdue · ${late} late (due ${when})`, tone: 'danger' };
        }
        if (booking.end_date < todayIn(now)) return { label: `Return overdue · was due ${day(booking.end_date, booking.end_time)}`, tone: 'danger' };
      }
      return { label: `On trip · return ${day(booking.end_date, booking.end_time)}`, tone: 'brand' };
    case 'completed':
      return { label: 'Completed', tone: 'success' };
    case 'cancelled':
      return { label: 'Cancelled', tone: 'neutral' };
    case 'rejected':
      return { label: viewer === 'owner' ? 'Declined' : 'Declined by the host', tone: 'danger' };
  }
}
