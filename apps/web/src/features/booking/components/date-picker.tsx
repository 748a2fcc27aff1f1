// A date field with a month calendar (document 2 section 2, date picker): past days, booked days
// (and days the host blocked) and days with pending requests are disabled and styled apart; a day
// held only in part (an hourly trip) stays open, marked with a dot, and the time lists say which
// hours are taken (decision 047); as are days before the pickup
// date (return) or beyond the allowed span (hourly return). The weeks are whole: the neighbouring
// months' days are shown muted and follow the same rules, so a rental that crosses a month's end
// is seen whole. Keyboard: Tab through the days, Escape closes.
import { clsx } from 'clsx';
import { CalendarDays, ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useDismiss } from '@/lib/use-dismiss';
import { dayState, formatDayLong, formatDayShort, formatMonth, monthGrid, shiftMonth, type DayRules, type DayState } from '../utils/booking-dates';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const STATE_LABEL: Partial<Record<DayState, string>> = {
  past: 'unavailable, in the past',
  booked: 'booked',
  partly: 'partly booked, some times free',
  pending: 'pending request',
  'before-start': 'before pickup',
  'out-of-range': 'unavailable for hourly return',
};

export interface DatePickerProps {
  label: string;
  value: string;
  onSelect: (date: string) => void;
  rules: DayRules;
  disabled?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The chosen range, highlighted in both calendars. */
  range?: { start: string; end: string };
  align?: 'left' | 'right';
}

export function DatePicker({ label, value, onSelect, rules, disabled, open, onOpenChange, range, align = 'left' }: DatePickerProps) {
  const container = useRef<HTMLDivElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const [month, setMonth] = useState(() => (value || rules.minDate || rules.today).slice(0, 7));
  useDismiss(open, container, () => onOpenChange(false));

  // Opening shows the month of the chosen date (or the first allowed one), in view.
  useEffect(() => {
    if (!open) return;
    setMonth((value || rules.minDate || rules.today).slice(0, 7));
    popover.current?.scrollIntoView?.({ block: 'nearest' });
  }, [open, value, rules.minDate, rules.today]);

  const firstMonth = rules.today.slice(0, 7);
  return (
    <div ref={container} className="relative min-w-0">
      <button
        type="button"
        disabled={disabled}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => onOpenChange(!open)}
        className={clsx(
          'flex w-full flex-col items-start rounded-xl border px-3 py-2 text-left transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
          open ? 'border-stone-900 ring-1 ring-stone-900' : 'border-stone-300 hover:border-stone-400',
          disabled && 'cursor-not-allowed bg-stone-50 opacity-60',
        )}
      >
        <span className="text-[11px] font-semibold tracking-wide text-stone-500 uppercase">{label}</span>
        <span className={clsx('flex items-center gap-1.5 text-sm', value ? 'font-semibold text-stone-900' : 'text-stone-500')}>
          <CalendarDays className="size-3.5 shrink-0" aria-hidden="true" />
          {value ? formatDayShort(value) : 'Add date'}
        </span>
      </button>

      {open ? (
        <div
          ref={popover}
          role="dialog"
          aria-label={`Choose ${label.toLowerCase()}`}
          data-month={month}
          className={clsx(
            'absolute top-full z-40 mt-2 w-[19.5rem] rounded-2xl border border-stone-200 bg-white p-3 shadow-pop',
            align === 'right' ? 'right-0' : 'left-0',
          )}
        >
          <div className="mb-2 flex items-center justify-between">
            <button
              type="button"
              onClick={() => setMonth((m) => shiftMonth(m, -1))}
              disabled={month <= firstMonth}
              aria-label="Previous month"
              className="flex size-8 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100 disabled:opacity-30"
            >
              <ChevronLeft className="size-4" aria-hidden="true" />
            </button>
            <p className="text-sm font-semibold text-stone-900" aria-live="polite">
              {formatMonth(month)}
            </p>
            <button
              type="button"
              onClick={() => setMonth((m) => shiftMonth(m, 1))}
              aria-label="Next month"
              className="flex size-8 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100"
            >
              <ChevronRight className="size-4" aria-hidden="true" />
            </button>
          </div>
          <div className="grid grid-cols-7 text-center text-[11px] font-medium text-stone-500" aria-hidden="true">
            {WEEKDAYS.map((day) => (
              <span key={day} className="py-1">
                {day}
              </span>
            ))}
          </div>
          <div className="grid grid-cols-7 gap-y-1">
            {monthGrid(month)
              .flat()
              .map(({ date, inMonth }) => {
                const state = dayState(date, rules);
                const isAvailable = state === 'available' || state === 'partly';
                const isSelected = date === value;
                const hasRange = !!range && !!range.start && !!range.end;
                const inRange = hasRange && date > range.start && date < range.end;
                const isEdge = !!range && (date === range.start || date === range.end);
                const suffix = state === 'refused' ? rules.refuse?.(date) : STATE_LABEL[state];
                return (
                  <button
                    key={date}
                    type="button"
                    data-date={date}
                    data-state={state}
                    data-outside-month={inMonth ? undefined : 'true'}
                    data-range={isEdge ? 'edge' : inRange ? 'inside' : undefined}
                    disabled={!isAvailable}
                    aria-pressed={isSelected}
                    aria-label={`${formatDayLong(date)}${suffix ? ` (${suffix})` : ''}`}
                    title={state === 'refused' ? (suffix ?? undefined) : undefined}
                    onClick={() => {
                      onSelect(date);
                      onOpenChange(false);
                    }}
                    className={clsx(
                      'relative mx-auto flex size-10 items-center justify-center rounded-full text-sm transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                      isAvailable && !isSelected && !isEdge && 'font-medium hover:bg-stone-100',
                      // stone-600, not 500, for the next month's days: 500 is 4.4:1 on the hover and range grey.
                      isAvailable && !isSelected && !isEdge && (inMonth ? 'text-stone-900' : 'text-stone-600'),
                      isAvailable && inRange && !isSelected && 'bg-stone-100',
                      (isSelected || isEdge) && isAvailable && 'font-semibold text-white',
                      (isSelected || isEdge) && isAvailable && (inMonth ? 'bg-stone-900' : 'bg-stone-500'),
                      state === 'past' && 'cursor-not-allowed text-stone-300',
                      (state === 'before-start' || state === 'out-of-range' || state === 'refused') && 'cursor-not-allowed text-stone-300',
                      state === 'booked' && 'cursor-not-allowed bg-red-50 text-red-300 line-through',
                      state === 'pending' && 'cursor-not-allowed bg-amber-50 text-amber-600/70 line-through decoration-dotted',
                      !inMonth && !isAvailable && 'opacity-60',
                    )}
                  >
                    {Number(date.slice(8))}
                    {state === 'partly' ? (
                      <span aria-hidden="true" className={clsx('absolute bottom-1 size-1 rounded-full', isSelected || isEdge ? 'bg-white' : 'bg-amber-500')} />
                    ) : null}
                  </button>
                );
              })}
          </div>
          <ul className="mt-3 flex flex-wrap gap-x-3 gap-y-1 border-t border-stone-100 pt-2 text-[11px] text-stone-600" aria-label="Calendar key">
            <li className="flex items-center gap-1">
              <span className="size-2.5 rounded-full bg-stone-900" aria-hidden="true" /> Selected
            </li>
            <li className="flex items-center gap-1">
              <span className="size-2.5 rounded-full bg-amber-200" aria-hidden="true" /> Pending request
            </li>
            <li className="flex items-center gap-1">
              <span className="size-2.5 rounded-full bg-red-200" aria-hidden="true" /> Booked
            </li>
            <li className="flex items-center gap-1">
              <span className="size-1.5 rounded-full bg-amber-500" aria-hidden="true" /> Some hours taken
            </li>
            <li className="flex items-center gap-1">
              <span className="size-2.5 rounded-full bg-stone-200" aria-hidden="true" /> Unavailable
            </li>
          </ul>
        </div>
      ) : null}
    </div>
  );
}
