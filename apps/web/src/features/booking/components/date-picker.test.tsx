import type { CarAvailability } from '@karoo/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { DayRules } from '../utils/booking-dates';
import { DatePicker, type DatePickerProps } from './date-picker';

// Fixed dates, no wall clock: "today" is Sunday 24 January 2027. January 2027 starts on a Friday
// (27-31 December lead) and ends on a Sunday (1-6 February trail).
const TODAY = '2027-01-24';

function renderPicker(props: Omit<Partial<DatePickerProps>, 'rules'> & { rules?: Partial<DayRules> } = {}) {
  const onSelect = vi.fn();
  const onOpenChange = vi.fn();
  const { rules, ...rest } = props;
  render(
    <DatePicker
      label="Pickup date"
      value=""
      onSelect={onSelect}
      open
      onOpenChange={onOpenChange}
      {...rest}
      rules={{ today: TODAY, availability: [], ...rules }}
    />,
  );
  const calendar = screen.getByRole('dialog', { name: 'Choose pickup date' });
  const day = (date: string) => calendar.querySelector<HTMLButtonElement>(`[data-date="${date}"]`);
  return { calendar, day, onSelect, onOpenChange, user: userEvent.setup() };
}

describe('DatePicker', () => {
  it('shows the neighbouring months’ days, muted, to complete the weeks', () => {
    const { calendar, day } = renderPicker();
    expect(calendar).toHaveAttribute('data-month', '2027-01');
    expect(within(calendar).getByText('January 2027')).toBeInTheDocument();
    expect(calendar.querySelectorAll('[data-date]')).toHaveLength(42);
    for (const date of ['2026-12-27', '2026-12-31', '2027-02-01', '2027-02-06']) {
      expect(day(date)).toHaveAttribute('data-outside-month', 'true');
    }
    expect(day('2027-01-01')).not.toHaveAttribute('data-outside-month');
    expect(day('2027-01-31')).not.toHaveAttribute('data-outside-month');
    // Muted against this month's free days (stone-600: still 4.5:1 on the hover and range grey).
    expect(day('2027-02-01')).toHaveClass('text-stone-600');
    expect(day('2027-01-25')).toHaveClass('text-stone-900');
    expect(day('2027-02-01')).toHaveAccessibleName('Monday, 1 February 2027');
  });

  it('lets a free day of the next month be chosen like any other', async () => {
    const { day, onSelect, onOpenChange, user } = renderPicker();
    expect(day('2027-02-01')).toBeEnabled();
    await user.click(day('2027-02-01')!);
    expect(onSelect).toHaveBeenCalledWith('2027-02-01');
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('highlights a range across the month’s end in both months', async () => {
    const range = { start: '2027-01-30', end: '2027-02-02' };
    const { calendar, day, user } = renderPicker({ value: '2027-01-30', range });
    const marks = () => ['2027-01-29', '2027-01-30', '2027-01-31', '2027-02-01', '2027-02-02', '2027-02-03'].map((date) => day(date)?.getAttribute('data-range') ?? null);
    expect(marks()).toEqual([null, 'edge', 'inside', 'inside', 'edge', null]);
    expect(day('2027-01-30')).toHaveAttribute('aria-pressed', 'true');
    expect(day('2027-02-02')).toHaveClass('bg-stone-500', 'text-white'); // the end, muted, in January
    expect(day('2027-02-01')).toHaveClass('bg-stone-100');

    await user.click(within(calendar).getByRole('button', { name: 'Next month' }));
    expect(calendar).toHaveAttribute('data-month', '2027-02');
    // February 2027 starts on a Monday: 31 January leads.
    expect(day('2027-01-31')).toHaveAttribute('data-outside-month', 'true');
    expect(day('2027-01-30')).toBeNull();
    expect(marks().slice(2)).toEqual(['inside', 'inside', 'edge', null]);
    expect(day('2027-02-02')).toHaveClass('bg-stone-900');
  });

  it('applies the same rules to neighbour days: past, booked, pending, before pickup, hourly span', async () => {
    const availability: CarAvailability[] = [
      { start_date: '2027-02-02', end_date: '2027-02-02', status: 'confirmed', kind: 'booking', from: '2027-02-01T22:00:00.000Z', to: '2027-02-02T22:00:00.000Z' },
      { start_date: '2027-02-04', end_date: '2027-02-04', status: 'pending', kind: 'booking', from: '2027-02-03T22:00:00.000Z', to: '2027-02-04T22:00:00.000Z' },
    ];
    const pickup = renderPicker({ rules: { availability } });
    expect(pickup.day('2026-12-31')).toBeDisabled();
    expect(pickup.day('2026-12-31')).toHaveAttribute('data-state', 'past');
    expect(pickup.day('2026-12-31')).toHaveAccessibleName('Thursday, 31 December 2026 (unavailable, in the past)');
    expect(pickup.day('2027-02-02')).toBeDisabled();
    expect(pickup.day('2027-02-02')).toHaveAccessibleName('Tuesday, 2 February 2027 (booked)');
    expect(pickup.day('2027-02-04')).toBeDisabled();
    expect(pickup.day('2027-02-04')).toHaveAttribute('data-state', 'pending');
    expect(pickup.day('2027-02-03')).toBeEnabled();
    await pickup.user.click(within(pickup.calendar).getByRole('button', { name: 'Next month' }));
    await pickup.user.click(within(pickup.calendar).getByRole('button', { name: 'Previous month' }));
    expect(within(pickup.calendar).getByRole('button', { name: 'Previous month' })).toBeDisabled();
  });

  it('days before the pickup (minDate) and beyond the hourly span (maxDate) stay disabled in the next month', () => {
    const { day } = renderPicker({ rules: { minDate: '2027-01-31', maxDate: '2027-02-01' } });
    expect(day('2027-01-30')).toHaveAttribute('data-state', 'before-start');
    expect(day('2027-01-30')).toBeDisabled();
    expect(day('2027-01-31')).toBeEnabled();
    expect(day('2027-02-01')).toBeEnabled();
    expect(day('2027-02-02')).toHaveAttribute('data-state', 'out-of-range');
    expect(day('2027-02-02')).toBeDisabled();
  });
});
