// Display formats for South Africa: en-ZA dates in Johannesburg time, rand amounts, relative times.
import { lazily, TIME_ZONE } from '@karoo/shared';

const LOCALE = 'en-ZA';

// Made on first use (lazily): building one costs milliseconds before the page's first paint.
const dateFormat = lazily(() => new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric', timeZone: TIME_ZONE }));
const dateTimeFormat = lazily(
  () =>
    new Intl.DateTimeFormat(LOCALE, {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: TIME_ZONE,
    }),
);
const relativeFormat = lazily(() => new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' }));

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "16 August 2025"; `fallback` when the value is missing or not a date. */
export function formatDate(value: string | number | Date | null | undefined, fallback = 'Unknown'): string {
  const date = toDate(value);
  return date ? dateFormat().format(date) : fallback;
}

export function formatDateTime(value: string | number | Date | null | undefined, fallback = 'Unknown'): string {
  const date = toDate(value);
  return date ? dateTimeFormat().format(date) : fallback;
}

/** Rand amounts: the one shared formatter (decisions.md section 7). */
export { formatRand } from '@karoo/shared';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function formatRelativeTime(value: string | number | Date | null | undefined, now: number = Date.now()): string {
  const date = toDate(value);
  if (!date) return '';
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return 'just now';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relativeFormat().format(Math.round(seconds / size), unit);
  }
  return relativeFormat().format(Math.round(seconds / 60), 'minute');
}

/** What a car, a host or the platform shows for its rating until it has reviews (decisions.md section 5). */
export const NO_RATING_LABEL = 'New';

/** True when there is a rating to show: a positive average and, when the count is known, reviews. */
export function hasRating(rating: number | null | undefined, reviewCount?: number | null): rating is number {
  return typeof rating === 'number' && Number.isFinite(rating) && rating > 0 && reviewCount !== 0;
}

/** A rating to one decimal, always with a point ("4.8", en-ZA's decimal comma avoided on purpose), or "New" without reviews. */
export function formatRating(rating: number | null | undefined, reviewCount?: number | null): string {
  return hasRating(rating, reviewCount) ? (Math.round(rating * 10) / 10).toFixed(1) : NO_RATING_LABEL;
}

/** The first letter of a name, for avatars. */
export function initialOf(name: string | null | undefined): string {
  const trimmed = name?.trim();
  return trimmed ? trimmed.charAt(0).toUpperCase() : '?';
}

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
