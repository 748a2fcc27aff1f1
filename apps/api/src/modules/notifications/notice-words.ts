// How notices word things, for every module's notices: people by full name, dates en-ZA, amounts in
// rand (decisions.md section 3).
import { formatDateRange, formatDay } from '@karoo/shared';

export const MY_BOOKINGS = '/my-bookings';
export const HOST_DASHBOARD = '/host-dashboard';

export const carName = (b: { car_make: string; car_model: string }) => `${b.car_make} ${b.car_model}`;

interface BookingDays {
  car_make: string;
  car_model: string;
  start_date: string;
  end_date: string;
  is_hourly_booking: boolean;
  start_time: string | null;
  end_time: string | null;
  duration_days: number;
}

export const dates = (b: Pick<BookingDays, 'start_date' | 'end_date'>) => formatDateRange(b.start_date, b.end_date);
/** "Volkswagen Polo (30 Nov 2026 to 02 Dec 2026)". */
export const bookingName = (b: Pick<BookingDays, 'car_make' | 'car_model' | 'start_date' | 'end_date'>) => `${carName(b)} (${dates(b)})`;
/** When, as a request names it: "30 Nov 2026 09:00-13:00" or "30 Nov 2026 to 02 Dec 2026 (2 days)". */
export function when(b: BookingDays): string {
  if (b.is_hourly_booking) return `${formatDay(b.start_date)} ${b.start_time}-${b.end_time}`;
  return `${dates(b)} (${b.duration_days} ${b.duration_days === 1 ? 'day' : 'days'})`;
}
/** What every booking email names, so that three mails about three Polos never read the same. */
export interface BookingMention {
  id: string;
  booking_number: string;
  car_make: string;
  car_model: string;
  car_year: number;
  start_date: string;
  end_date: string;
  start_time: string;
  end_time: string;
}

const clock = (time: string) => time.slice(0, 5);
/** "30 Nov 2026 09:00 to 02 Dec 2026 17:00", or "30 Nov 2026 09:00-13:00" within one day (Johannesburg's calendar days and times, as booked). */
export function tripTimes(b: Pick<BookingMention, 'start_date' | 'end_date' | 'start_time' | 'end_time'>): string {
  if (b.start_date === b.end_date) return `${formatDay(b.start_date)} ${clock(b.start_time)}-${clock(b.end_time)}`;
  return `${formatDay(b.start_date)} ${clock(b.start_time)} to ${formatDay(b.end_date)} ${clock(b.end_time)}`;
}
/** The line each booking email opens with: "Booking KT12AB34CD: Volkswagen Polo 2019, 30 Nov 2026 09:00 to 02 Dec 2026 17:00". */
export const bookingLine = (b: BookingMention) => `Booking ${b.booking_number}: ${carName(b)} ${b.car_year}, ${tripTimes(b)}`;
/** A booking email's subject: the notice's title and the booking number. */
export const bookingSubject = (title: string, b: Pick<BookingMention, 'booking_number'>) => (title.includes(b.booking_number) ? title : `${title} (booking ${b.booking_number})`);

export const withReason = (text: string | null | undefined) => (text ? `: ${text}` : '.');
