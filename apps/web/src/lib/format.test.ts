import { describe, expect, it } from 'vitest';
import { formatDate, formatFileSize, formatRand, formatRating, formatRelativeTime, hasRating, initialOf } from './format';

const normalise = (text: string) => text.replace(/\s/g, ' ');

describe('format', () => {
  it('formats dates for en-ZA in Johannesburg time, with a fallback', () => {
    expect(formatDate('2025-08-16T10:00:00Z')).toBe('16 August 2025');
    // 23:30 UTC is already the next day in Johannesburg.
    expect(formatDate('2025-08-16T23:30:00Z')).toBe('17 August 2025');
    expect(formatDate(null)).toBe('Unknown');
    expect(formatDate('not a date', '-')).toBe('-');
  });

  it('formats rand amounts as whole rand with en-ZA grouping', () => {
    expect(normalise(formatRand(1234))).toBe('R 1 234');
    expect(normalise(formatRand(450.4))).toBe('R 450,40');
    expect(normalise(formatRand(undefined))).toBe('R 0');
  });

  it('describes times relative to now', () => {
    const now = Date.parse('2025-08-16T12:00:00Z');
    expect(formatRelativeTime('2025-08-16T11:59:40Z', now)).toBe('just now');
    expect(formatRelativeTime('2025-08-16T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatRelativeTime('2025-08-16T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatRelativeTime('2025-08-15T12:00:00Z', now)).toBe('yesterday');
  });

  it('makes initials and file sizes', () => {
    expect(initialOf(' sipho')).toBe('S');
    expect(initialOf('')).toBe('?');
    expect(formatFileSize(2 * 1024 * 1024)).toBe('2.0 MB');
  });
});

describe('formatRating (decisions.md section 5)', () => {
  it('says "New" without reviews, never a made-up 4.5', () => {
    expect(formatRating(null)).toBe('New');
    expect(formatRating(undefined)).toBe('New');
    expect(formatRating(0, 0)).toBe('New');
    expect(formatRating(4.5, 0)).toBe('New');
    expect(hasRating(null)).toBe(false);
  });

  it('shows one decimal with a point', () => {
    expect(formatRating(4.71)).toBe('4.7');
    expect(formatRating(5, 2)).toBe('5.0');
    expect(formatRating(3.66666, 3)).toBe('3.7');
    expect(hasRating(4.2, 1)).toBe(true);
  });
});
